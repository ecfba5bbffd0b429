/**
 * The target file: where the API is, which keys to use for which role, what to assume where the spec says
 * "not shown", how suites get fixture data, and the caps spgate must respect. Defaults are the embedded
 * reference server's choices, so a target file for the reference server only needs baseUrl and keys.
 */
import { z } from 'zod';

export const SCOPES = [
  'customers:read', 'customers:write', 'conversations:read', 'conversations:write', 'messages:write',
  'webhooks:manage', 'realtime:read', 'help:read', 'help:drafts:write', 'attachments:read', 'keys:manage',
] as const;
export const Scope = z.enum(SCOPES);
export type Scope = z.infer<typeof Scope>;

/**
 * Key roles the suites need. Only `admin` is required; checks that need a missing role are skipped.
 * - admin: full scopes, owner/admin membership, not delegated for Help Center authoring
 * - readOnly: only *:read scopes
 * - noAttachments: conversations:read but not attachments:read
 * - helpDelegated: Help Center access on an explicitly delegated connection (owner/admin)
 * - legacyLive / legacyTest: keys with the pk_live_ / pk_test_ prefixes, same workspace
 * - expired / revoked: keys that must be refused with 401
 * - secondConnection: another connection (full scopes, admin) of the same workspace
 * - member: a key whose holder is no longer an owner/admin (chat access must be refused)
 * - attachmentsOnly: attachments:read without conversations:read (download must be refused: 4.6 needs both)
 * - otherWorkspace: a key of ANOTHER workspace (5.1: keys are bound to one workspace); it must not see or
 *   change this workspace's data
 * - memberDelegated: Help Center access on an explicitly delegated connection whose holder is no longer an
 *   owner/admin (4.9: collection updates must be refused)
 */
export const KEY_ROLES = [
  'admin', 'readOnly', 'noAttachments', 'helpDelegated', 'legacyLive', 'legacyTest', 'expired', 'revoked',
  'secondConnection', 'member', 'attachmentsOnly', 'otherWorkspace', 'memberDelegated',
] as const;
export const KeyRole = z.enum(KEY_ROLES);
export type KeyRole = z.infer<typeof KeyRole>;

/** A key: the literal secret, or `env:NAME` to read it from the environment at load time. */
export const KeySpec = z.strictObject({
  key: z.string().min(1, 'key must not be empty'),
  scopes: z.array(Scope).optional(),
  note: z.string().optional(),
});
export type KeySpec = z.infer<typeof KeySpec>;

const PathTemplate = z.string().regex(/^\//, 'must start with /');

export const Assumptions = z.strictObject({
  /** Resolve path (spec 4.8: "the exact path: not shown"). */
  resolvePath: PathTemplate.default('/conversations/{conversationId}/resolve'),
  /** Query parameter names the spec does not show (4.4). */
  params: z.strictObject({
    externalId: z.string().default('externalId'),
    search: z.string().default('q'),
    identityType: z.string().default('identityType'),
  }).prefault({}),
  /** Identity type value used for identity lookups in the fixtures. */
  identityTypeValue: z.string().default('email'),
  /** Success status of DELETE /customers/{id} (4.5: not shown). */
  customerDeleteStatus: z.array(z.number().int()).default([204]),
  /** HTTP statuses the spec does not show. */
  statuses: z.strictObject({
    unknownStatus: z.number().int().default(422),
    invalidResolutionStatus: z.number().int().default(422),
    staleRevision: z.number().int().default(409),
    validation: z.number().int().default(400),
    deletedAttachment: z.number().int().default(404),
    /** Status of route.not_found (7: the code is shown, its HTTP status is not). */
    notFound: z.number().int().default(404),
  }).prefault({}),
  /** Turn status values (3: "the enumerated values of a turn's status: not shown"). */
  turnStatus: z.strictObject({
    pending: z.string().default('pending'),
    completed: z.string().default('completed'),
    cancelled: z.string().default('cancelled'),
  }).prefault({}),
  /** The workspace's default completed status (seeded workspaces: resolved). */
  defaultCompletedStatus: z.string().default('resolved'),
  /** Known active-type and completed-type status keys (seeded). */
  activeStatuses: z.array(z.string()).default(['open', 'pending']),
  completedStatuses: z.array(z.string()).default(['resolved', 'closed']),
  /** Rate-limit budgets, if known (8: "the numeric budgets: not shown"); inferred from headers otherwise. */
  rateLimit: z.strictObject({
    read: z.strictObject({ limit: z.number().int().positive(), windowSeconds: z.number().positive() }).optional(),
    write: z.strictObject({ limit: z.number().int().positive(), windowSeconds: z.number().positive() }).optional(),
  }).prefault({}),
  /**
   * Rules the spec does not state, each checked by one `assumed` check; false skips that check (the
   * target does not follow the rule, which is legitimate).
   */
  rules: z.strictObject({
    /** pagination.foreign-cursor: a cursor presented with other filters or to another list is rejected. */
    foreignCursorRejected: z.boolean().default(true),
    /** idempotency.per-connection: Idempotency-Keys are scoped to the connection that used them. */
    idempotencyPerConnection: z.boolean().default(true),
  }).prefault({}),
  /**
   * Longest total wait, in seconds, for one conformance request answered 429 (Retry-After is honoured up
   * to this); a check that gets nothing but 429 within it is skipped as rate limited, never failed.
   */
  rateLimitWaitSeconds: z.number().nonnegative().max(3600).default(60),
  /** Treat failing `assumed`-basis checks as failures instead of warnings. */
  strict: z.boolean().default(false),
}).prefault({});
export type Assumptions = z.infer<typeof Assumptions>;

const Turn = z.strictObject({ sessionId: z.string().min(1), turnId: z.string().min(1) });
/** A pool collection: its id, or its id with the revision it holds now (updates need expectedRevision). */
const PoolCollection = z.union([z.string().min(1), z.strictObject({ id: z.string().min(1), revision: z.number().int() })]);

/**
 * Pools of disposable data: each item is handed to at most one check per run (docs/target-file.md says
 * what each check does to it), so a pool needs re-seeding between runs.
 */
export const FixturePools = z.strictObject({
  /** Customers a check may delete; each with a unique externalId and email. */
  customers: z.array(z.string().min(1)).optional(),
  /** Conversations a check may assign and resolve freely (any status). */
  conversations: z.array(z.string().min(1)).optional(),
  /** Pending turns of the admin key that a check may cancel. */
  pendingTurns: z.array(Turn).optional(),
  /** Help Center collections the helpDelegated key may update. */
  collections: z.array(PoolCollection).optional(),
  /** A customer with one of its conversations: a check deletes the customer and reads the conversation. */
  customerConversations: z.array(z.strictObject({ customerId: z.string().min(1), conversationId: z.string().min(1) })).optional(),
  /** Customers a check may delete, each owning a channel identity of type assumptions.identityTypeValue. */
  identityCustomers: z.array(z.strictObject({ customerId: z.string().min(1), identifier: z.string().min(1) })).optional(),
});
export type FixturePools = z.infer<typeof FixturePools>;

/** Fixture ids for targets without a fixtures API. Every field is optional: checks that need one are skipped. */
export const FixtureIds = z.strictObject({
  conversationId: z.string().optional(),
  customerId: z.string().optional(),
  message: z.strictObject({
    messageId: z.string(),
    storedIndex: z.number().int().nonnegative().optional(),
    externalIndex: z.number().int().nonnegative().optional(),
    fetchingIndex: z.number().int().nonnegative().optional(),
  }).optional(),
  deletedMessageId: z.string().optional(),
  /** Index of an attachment the deleted message had (0 when absent). */
  deletedAttachmentIndex: z.number().int().nonnegative().optional(),
  pendingTurn: Turn.optional(),
  completedTurn: Turn.optional(),
  /** A pending turn owned by the member key (a holder no longer owner/admin). */
  memberTurn: Turn.extend({ conversationId: z.string().min(1) }).optional(),
  sessionsConversationId: z.string().optional(),
  /** A chat of sessionsConversationId whose retention has expired: the listing must leave it out (4.3). */
  expiredChatId: z.string().optional(),
  /** A conversation with more than 100 unexpired chats of the admin key. */
  crowdedConversationId: z.string().optional(),
  /** The most recently active chat of crowdedConversationId: a listing of the newest 100 shows it first. */
  crowdedNewestChatId: z.string().optional(),
  /** A channel identity (of type assumptions.identityTypeValue) and the customer owning it. */
  identity: z.strictObject({ identifier: z.string().min(1), customerId: z.string().min(1) }).optional(),
  collectionId: z.string().optional(),
  /**
   * Assignee ids the workspace accepts (agents). The assign checks set and change the assignee with these;
   * without them they send made-up ids, and a server that validates assignees makes those checks inconclusive.
   */
  assigneeIds: z.array(z.string().min(1)).optional(),
  /** Team values the workspace accepts (4.7: "external team or routing hint"); made-up ones otherwise. */
  teams: z.array(z.string().min(1)).optional(),
  pools: FixturePools.optional(),
}).prefault({});
export type FixtureIds = z.infer<typeof FixtureIds>;

/** A command of the user's own that creates fixture data on demand (contract: docs/target-file.md). */
export const FixtureCommand = z.strictObject({
  /** Shell command line; spgate writes a JSON request on its stdin and reads JSON ids from its stdout. */
  run: z.string().min(1),
  timeoutMs: z.number().int().positive().max(600_000).default(30_000),
});
export type FixtureCommand = z.infer<typeof FixtureCommand>;

export const Fixtures = z.strictObject({
  /** Base URL of a fixtures API (the reference server serves one under /_fixtures, outside /v1). */
  api: z.url().optional(),
  command: FixtureCommand.optional(),
  ids: FixtureIds,
}).prefault({});
export type Fixtures = z.infer<typeof Fixtures>;

export const Caps = z.strictObject({
  maxRps: z.number().positive().optional(),
  maxRequests: z.number().int().positive().optional(),
  maxDuration: z.number().positive().optional(),
}).prefault({});

/**
 * Client time bounds for this target, in ms (each optional; spgate's defaults apply otherwise). `requestMs`
 * bounds one whole request (connect to last body byte) in conformance, replay and load runs alike.
 */
export const Timeouts = z.strictObject({
  connectMs: z.number().int().positive().optional(),
  headersMs: z.number().int().positive().optional(),
  bodyMs: z.number().int().positive().optional(),
  requestMs: z.number().int().positive().optional(),
}).prefault({});
export type Timeouts = z.infer<typeof Timeouts>;

/**
 * How spgate reaches an https target (docs/target-file.md#tls): extra CA certificates added to the trust
 * store, a client certificate for mTLS, the name to verify and send as SNI, and an explicit switch that
 * turns certificate verification off (warned on every run). Paths are relative to the target file.
 */
export const Tls = z.strictObject({
  /** PEM file(s) of CA certificates trusted in addition to the system's (an internal CA). */
  ca: z.union([z.string().min(1), z.array(z.string().min(1)).min(1)]).optional(),
  /** PEM file of the client certificate (chain) presented for mTLS; needs `key`. */
  cert: z.string().min(1).optional(),
  /** PEM file of the client certificate's private key (a secret: never printed); needs `cert`. */
  key: z.string().min(1).optional(),
  /** Server name sent as SNI and verified against the certificate, when it differs from baseUrl's host. */
  servername: z.string().min(1).optional(),
  /** Do not verify the server's certificate at all. Only for throw-away environments; warned on every run. */
  insecureSkipVerify: z.boolean().default(false),
}).prefault({}).check((ctx) => {
  if ((ctx.value.cert === undefined) !== (ctx.value.key === undefined)) {
    ctx.issues.push({ code: 'custom', input: ctx.value, path: [ctx.value.cert === undefined ? 'cert' : 'key'], message: 'cert and key go together (a client certificate needs its key)' });
  }
});
export type Tls = z.infer<typeof Tls>;

export const TargetFile = z.strictObject({
  $schema: z.string().optional(),
  name: z.string().default('target'),
  baseUrl: z.url({ protocol: /^https?$/, error: 'must be an absolute http(s) URL ending in /v1' }),
  keys: z.strictObject({
    admin: KeySpec,
    readOnly: KeySpec.optional(),
    noAttachments: KeySpec.optional(),
    helpDelegated: KeySpec.optional(),
    legacyLive: KeySpec.optional(),
    legacyTest: KeySpec.optional(),
    expired: KeySpec.optional(),
    revoked: KeySpec.optional(),
    secondConnection: KeySpec.optional(),
    member: KeySpec.optional(),
    attachmentsOnly: KeySpec.optional(),
    otherWorkspace: KeySpec.optional(),
    memberDelegated: KeySpec.optional(),
  }),
  assumptions: Assumptions,
  fixtures: Fixtures,
  /** Destructive checks and write-class load run only when true. */
  allowWrites: z.boolean().default(false),
  caps: Caps,
  timeouts: Timeouts,
  tls: Tls,
});
export type TargetFileInput = z.input<typeof TargetFile>;
export type TargetFile = z.infer<typeof TargetFile>;

/** A loaded target: the file's content with every `env:NAME` key resolved. */
export interface Target extends TargetFile {
  /** Resolved secrets by role (never printed; the redactor is built from these). */
  secrets: Partial<Record<KeyRole, string>>;
  /** Where the target came from: a file path, or "embedded". */
  source: string;
  /** The --base-url that replaced the file's baseUrl, when one did (re-run lines must repeat it). */
  baseUrlOverride?: string;
  /** True when baseUrl's host is a loopback address. */
  loopback: boolean;
  /** Things worth telling the user that do not stop the run (an inline key in a git-tracked file, …). */
  warnings: string[];
}
