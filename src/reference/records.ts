/** In-memory records of the reference server. Timestamps are kept as epoch ms and rendered as ISO strings. */

export interface Identity {
  id: string;
  type: string;
  identifier: string;
}

export interface CustomerRecord {
  id: string;
  externalId: string | null;
  /** null for a customer known by phone alone (required-ness is not shown, spec 2). */
  name: string | null;
  email: string | null;
  phone: string | null;
  company: string | null;
  language: string;
  timezone: string;
  avatarUrl: string | null;
  claimedEmail: string | null;
  emailStatus: string | null;
  lastActiveChannel: string | null;
  firstContactAt: number | null;
  lastSeenAt: number | null;
  tags: string[];
  metadata: Record<string, unknown>;
  createdAt: number;
  updatedAt: number;
  identities: Identity[];
  /** Lower-cased search haystacks, computed once. */
  search: { name: string; email: string; company: string };
  deletedAt: number | null;
  conversationCount: number;
  /** Rendered JSON bytes, cached because customer lists are the hot path; cleared on every change. */
  json?: Buffer;
}

export interface ConversationRecord {
  id: string;
  externalId: string | null;
  subject: string;
  status: string;
  priority: string;
  channel: string;
  customerId: string;
  assignee: Record<string, unknown> | null;
  team: string | null;
  tags: string[];
  externalObject: Record<string, unknown> | null;
  metadata: Record<string, unknown>;
  channelIdentityId: string | null;
  createdAt: number;
  updatedAt: number;
  routingNotes?: Record<string, unknown> | null;
  /** State-changing operations that took effect (exposed through the fixtures API only). */
  mutations: number;
}

export type AttachmentKind = 'stored' | 'external' | 'fetching';

export interface AttachmentRecord {
  kind: AttachmentKind;
  fileId: string;
  filename: string;
  contentType: string;
  sizeBytes: number;
}

export interface MessageRecord {
  id: string;
  conversationId: string;
  attachments: AttachmentRecord[];
  deletedAt: number | null;
}

export interface SessionRecord {
  id: string;
  conversationId: string;
  ownerId: string;
  title: string;
  status: string;
  createdAt: number;
  updatedAt: number;
  lastActivityAt: number;
  retentionExpiresAt: number;
  archivedAt: number | null;
}

export type TurnStatus = 'pending' | 'completed' | 'cancelled';

export interface TurnRecord {
  id: string;
  sessionId: string;
  conversationId: string;
  runId: string;
  status: TurnStatus;
  question: string;
  approvalMode: string;
  createdAt: number;
  updatedAt: number;
  expiresAt: number;
  answer?: Record<string, unknown>;
  actionConfirmations?: Array<Record<string, unknown>>;
}

export interface TranslationRecord {
  locale: string;
  slug: string;
  name: string;
  description: string;
  revision: number;
}

export interface CollectionRecord {
  id: string;
  parentId: string | null;
  slug: string;
  name: string;
  description: string;
  position: number;
  revision: number;
  defaultLocale: string;
  createdAt: number;
  updatedAt: number;
  translations: TranslationRecord[];
}

export interface ArticleRecord {
  id: string;
  collectionId: string | null;
  title: string;
  slug: string;
  locale: string;
  state: 'published' | 'draft';
  createdAt: number;
  updatedAt: number;
}

export interface StatusDef {
  key: string;
  name: string;
  type: 'active' | 'completed';
}

export interface PriorityDef {
  key: string;
  name: string;
}
