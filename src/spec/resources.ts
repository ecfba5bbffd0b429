/**
 * zod schemas of the API's resources (spec part 2). Every object is open (extra keys accepted and kept):
 * part 2 says "additional keys allowed" for the answer object and action proposals and closes no shape
 * anywhere, so a deployment that adds a field to a resource, or `error.details` to the error envelope, is
 * conforming. Required fields and their types stay exact. Fields whose required-ness the spec leaves
 * open (every field of the answer, action proposals, sessions and collections but an id) are optional,
 * so a server that omits unset or empty fields (Go's omitempty) conforms; a field that is present is
 * type-checked.
 */
import { z } from 'zod';
import { isIso8601DateTime, isRfc3339DateTime } from './datetime.js';

/** The `params` marker of a zod issue raised only because a date-time is ISO 8601 but not RFC 3339. */
export const RFC3339_ONLY = 'rfc3339';

/**
 * A timestamp (spec part 2: "All timestamps are strings in date-time format (ISO 8601)"). Not ISO 8601:
 * a zod `invalid_format` issue with format `datetime` (checks/shape.ts refines it to clause 2.datetime).
 * ISO 8601 but not RFC 3339 (no offset, no seconds): a `custom` issue with `params.kind` RFC3339_ONLY,
 * which checks/shape.ts reports as a warning under 2.datetime.rfc3339, never as a spec error.
 */
export const DateTime = z.string().superRefine((s, ctx) => {
  if (!isIso8601DateTime(s))
    ctx.addIssue({ code: 'invalid_format', format: 'datetime', input: s, message: 'Invalid ISO 8601 date-time (a date, T and a time)' });
  else if (!isRfc3339DateTime(s))
    ctx.addIssue({
      code: 'custom',
      input: s,
      params: { kind: RFC3339_ONLY },
      message: 'ISO 8601 but not RFC 3339 (seconds and Z or a ±hh:mm offset)',
    });
});

/** Status and priority key pattern (spec part 2, Conversation). */
export const STATUS_KEY_PATTERN = /^[a-z0-9][a-z0-9_-]{0,62}$/;
export const StatusKey = z.string().regex(STATUS_KEY_PATTERN);

const FreeObject = z.record(z.string(), z.unknown());

/** Customer (item of the customer list); required-ness of fields: not shown, so all but id are optional. */
export const Customer = z.looseObject({
  id: z.string(),
  externalId: z.string().nullable().optional(),
  name: z.string().nullable().optional(),
  email: z.string().nullable().optional(),
  phone: z.string().nullable().optional(),
  company: z.string().nullable().optional(),
  language: z.string().nullable().optional(),
  timezone: z.string().nullable().optional(),
  avatarUrl: z.string().nullable().optional(),
  claimedEmail: z.string().nullable().optional(),
  emailStatus: z.string().nullable().optional(),
  lastActiveChannel: z.string().nullable().optional(),
  firstContactAt: DateTime.nullable().optional(),
  lastSeenAt: DateTime.nullable().optional(),
  tags: z.array(z.string()).optional(),
  metadata: FreeObject.optional(),
  createdAt: DateTime.optional(),
  updatedAt: DateTime.optional(),
  conversationCount: z.number().int().optional(),
});
export type Customer = z.infer<typeof Customer>;

/** Conversation: every key always present; null where unset; routingNotes may be absent. */
export const Conversation = z.looseObject({
  id: z.string(),
  externalId: z.string().nullable(),
  subject: z.string(),
  status: StatusKey,
  priority: StatusKey,
  channel: z.string(),
  customerId: z.string(),
  assignee: FreeObject.nullable(),
  team: z.string().nullable(),
  tags: z.array(z.string()),
  externalObject: FreeObject.nullable(),
  metadata: FreeObject,
  channelIdentityId: z.string().nullable(),
  createdAt: DateTime,
  updatedAt: DateTime,
  routingNotes: FreeObject.nullable().optional(),
});
export type Conversation = z.infer<typeof Conversation>;

/** Action proposal inside an answer (additional keys allowed; required-ness: not stated, so optional). */
export const ActionProposal = z.looseObject({
  id: z.string().optional(),
  type: z.string().optional(),
  target: FreeObject.optional(),
  before: FreeObject.optional(),
  after: FreeObject.optional(),
  confirmationRequired: z.boolean().optional(),
});

/** The `answer` object of a completed turn (additional keys allowed; required-ness: not stated, so optional). */
export const Answer = z.looseObject({
  answer: z.string().optional(),
  warnings: z.array(z.string()).optional(),
  citations: z.array(FreeObject).optional(),
  proposals: z.array(FreeObject).optional(),
  actionProposals: z.array(ActionProposal).optional(),
});

export const UNDO_STATUSES = ['available', 'changed', 'unavailable', 'undone'] as const;

/** Action receipt (item of actionConfirmations). */
export const ActionReceipt = z.looseObject({
  id: z.string(),
  proposalId: z.string(),
  runId: z.string(),
  effectId: z.string(),
  type: z.string(),
  target: FreeObject,
  before: FreeObject,
  after: FreeObject,
  confirmedAt: DateTime,
  undo: z.looseObject({ status: z.enum(UNDO_STATUSES), undoneAt: DateTime.optional() }).optional(),
});

/** Assistant chat turn (`data` of the turn endpoints). */
export const ChatTurn = z.looseObject({
  id: z.string(),
  sessionId: z.string(),
  conversationId: z.string(),
  runId: z.string(),
  status: z.string(),
  question: z.string(),
  approvalMode: z.string().optional(),
  retryOfTurnId: z.string().optional(),
  answer: Answer.optional(),
  actionConfirmations: z.array(ActionReceipt).optional(),
  createdAt: DateTime,
  updatedAt: DateTime,
  expiresAt: DateTime,
});
export type ChatTurn = z.infer<typeof ChatTurn>;

/**
 * Assistant chat session (item of the session list). Part 2 lists its fields without required-ness: all
 * but the id (which names the chat) are optional. archivedAt is null/absent while not archived.
 */
export const ChatSession = z.looseObject({
  id: z.string(),
  conversationId: z.string().optional(),
  title: z.string().optional(),
  status: z.string().optional(),
  createdAt: DateTime.optional(),
  updatedAt: DateTime.optional(),
  lastActivityAt: DateTime.optional(),
  retentionExpiresAt: DateTime.optional(),
  archivedAt: DateTime.nullable().optional(),
});
export type ChatSession = z.infer<typeof ChatSession>;

/** Attachment download descriptor (spec 4.6). */
export const AttachmentDescriptor = z.looseObject({
  url: z.string(),
  expiresAt: DateTime,
  filename: z.string(),
  contentType: z.string(),
  sizeBytes: z.number().int(),
});
export type AttachmentDescriptor = z.infer<typeof AttachmentDescriptor>;

/** A collection translation (required-ness: not stated, so every field is optional and typed when present). */
export const CollectionTranslation = z.looseObject({
  locale: z.string().optional(),
  slug: z.string().optional(),
  name: z.string().optional(),
  description: z.string().optional(),
  revision: z.number().int().optional(),
});

/**
 * Help Center collection (spec 4.9). Part 2 lists its fields without required-ness: all but the id are
 * optional. How a root collection shows its parent is not shown: null, "" and an absent parentId are all
 * accepted.
 */
export const Collection = z.looseObject({
  id: z.string(),
  parentId: z.string().nullish(),
  slug: z.string().optional(),
  name: z.string().optional(),
  description: z.string().optional(),
  position: z.number().int().optional(),
  articleCount: z.number().int().optional(),
  revision: z.number().int().optional(),
  createdAt: DateTime.optional(),
  updatedAt: DateTime.optional(),
  translations: z.array(CollectionTranslation).optional(),
});
export type Collection = z.infer<typeof Collection>;

/** Error envelope: `{ error: { code, message, requestId } }`. */
export const ErrorEnvelope = z.looseObject({
  error: z.looseObject({ code: z.string(), message: z.string(), requestId: z.string() }),
});
export type ErrorEnvelope = z.infer<typeof ErrorEnvelope>;

/** error.code of a JSON error envelope body text, or undefined when the body is not one (no schema check: a load run reads 429s). */
export function bodyErrorCode(body: string | undefined): string | undefined {
  if (!body) return undefined;
  try {
    const j = JSON.parse(body) as { error?: { code?: unknown } };
    return typeof j?.error?.code === 'string' ? j.error.code : undefined;
  } catch {
    return undefined;
  }
}

/** Standard list page (spec 4.11). */
export function ListPage<T extends z.ZodType>(item: T) {
  return z.looseObject({ data: z.array(item), hasMore: z.boolean(), nextCursor: z.string().nullable() });
}

/** Articles page: `data` and `nextCursor`, no `hasMore` (spec 4.10). Item shape: not shown. */
export const ArticlesPage = z.looseObject({ data: z.array(z.unknown()), nextCursor: z.string().nullable(), hasMore: z.never().optional() });

/** `{ data: <item> }` envelope used by the turn endpoints (other top-level keys are not forbidden). */
export function DataEnvelope<T extends z.ZodType>(item: T) {
  return z.looseObject({ data: item });
}

export const CustomerPage = ListPage(Customer);
export const TurnEnvelope = DataEnvelope(ChatTurn);
/** Session list (4.3): `{ data: [session] }` (its pagination keys are judged by assistant.sessions.no-pagination). */
export const SessionList = z.looseObject({ data: z.array(ChatSession) });
