/**
 * The fixtures API the reference server serves under /_fixtures (outside /v1; HTTP contract in
 * docs/reference-server.md). Checks do not call it directly: it is one provider of the chain in
 * fixtures/ (fixtures/api-provider.ts), next to the target file's ids and pools and fixtures.command.
 */
import type { SignedUrl } from '../client/signed-url.js';
import type { KeyRole } from '../target/schema.js';

export type AttachmentKind = 'stored' | 'external' | 'fetching';

export interface CustomerSeed {
  name?: string;
  email?: string;
  company?: string;
  externalId?: string;
  phone?: string;
  identities?: Array<{ type: string; identifier: string }>;
}

export interface FixtureConversation {
  /** The conversation as the API would render it. */
  data: Record<string, unknown> & { id: string; status: string };
  /** How many state-changing operations took effect on it (an extra witness where no shown operation can tell). */
  mutations: number;
  /** The customer record behind it, resolved even when soft-deleted. */
  customer: (Record<string, unknown> & { id: string; deleted: boolean }) | null;
}

export interface FixturesApi {
  createCustomers(customers: CustomerSeed[]): Promise<Array<Record<string, unknown> & { id: string }>>;
  createConversation(input: {
    customerId?: string;
    status?: string;
    priority?: string;
    team?: string | null;
    assignee?: Record<string, unknown> | null;
    subject?: string;
  }): Promise<{ id: string }>;
  getConversation(id: string): Promise<FixtureConversation | undefined>;
  createMessage(input: {
    conversationId: string;
    attachments: AttachmentKind[];
  }): Promise<{ id: string; attachments: Array<{ index: number; kind: AttachmentKind }> }>;
  deleteMessage(id: string): Promise<void>;
  /**
   * A signed URL of the message's stored attachment that has already expired (attachments.expiry cannot wait
   * the five minutes out), held as a SignedUrl; undefined when this fixtures API offers none.
   */
  expiredDownloadUrl(messageId: string, index: number): Promise<SignedUrl | undefined>;
  createSession(input: {
    conversationId: string;
    owner: KeyRole;
    archived?: boolean;
    expired?: boolean;
    lastActivityAt?: string;
  }): Promise<{ id: string }>;
  createTurn(input: { sessionId: string; owner: KeyRole; state: 'pending' | 'completed' }): Promise<{ id: string; sessionId: string }>;
  completeTurn(sessionId: string, turnId: string): Promise<void>;
  createCollection(input?: { name?: string; slug?: string; description?: string }): Promise<{ id: string; revision: number }>;
  createArticles(count: number): Promise<void>;
  resetRateLimits(): Promise<void>;
  /**
   * Revokes the key of `role` until the returned restore is called (a revoked grant's own replay, 4.9);
   * undefined when this fixtures API offers no revocation.
   */
  revokeKey?(role: KeyRole): Promise<(() => Promise<void>) | undefined>;
}
