/**
 * The target file: where the API is, which keys to use for which role, what to assume where the spec says
 * "not shown", how suites get fixture data, and the caps spgate must respect. Defaults are the embedded
 * reference server's choices, so a target file for the reference server only needs baseUrl and keys.
 */
import { z } from 'zod';

export const SCOPES = [
  'customers:read',
  'customers:write',
  'conversations:read',
  'conversations:write',
  'messages:write',
  'webhooks:manage',
  'realtime:read',
  'help:read',
  'help:drafts:write',
  'attachments:read',
  'keys:manage',
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
  'admin',
  'readOnly',
  'noAttachments',
  'helpDelegated',
  'legacyLive',
  'legacyTest',
  'expired',
  'revoked',
  'secondConnection',
  'member',
  'attachmentsOnly',
  'otherWorkspace',
  'memberDelegated',
] as const;
export const KeyRole = z.enum(KEY_ROLES);
export type KeyRole = z.infer<typeof KeyRole>;

/** A key: the literal secret, or `env:NAME` to read it from the environment at load time. */
export const KeySpec = z.strictObject({
  key: z
    .string()
    .min(1, 'key must not be empty')
    .describe(
      'The API key: "env:NAME" reads it from the environment variable NAME at load time (keep secrets out of the file); anything else is the literal key.',
    ),
  scopes: z
    .array(Scope)
    .optional()
    .describe("The key's scopes, when known: the planner skips checks the key cannot serve instead of failing them."),
  note: z.string().optional().describe('Free text for people reading the file (which account, who rotates it); never used by spgate.'),
  pool: z
    .array(z.string().min(1, 'key must not be empty'))
    .min(1)
    .optional()
    .describe(
      'More keys of this role (same workspace and scopes, each with a rate-limit budget of its own), as "env:NAME" or literal keys: ' +
        'a load profile with keys: "pool" spreads its requests over the role\'s key and these, so N keys × budget can exceed what the ' +
        'server serves (capacity). Conformance uses only key.',
    ),
});
export type KeySpec = z.infer<typeof KeySpec>;

/**
 * The name of a key in outputs and in the rate-limit analysis: its role for the role's own key, and
 * `role.pool[i]` for the i-th key of the role's pool (the target file's path to it, never the secret).
 */
export type KeyName = KeyRole | `${KeyRole}.pool[${number}]`;

/** The name of the i-th pool key of a role. */
export function poolKeyName(role: KeyRole, i: number): KeyName {
  return `${role}.pool[${i}]`;
}

const PathTemplate = z.string().regex(/^\//, 'must start with /');
const Status = z.number().int();
const Window = z.strictObject({
  limit: z.number().int().positive().describe('Requests admitted per window.'),
  windowSeconds: z.number().positive().describe('Length of the window in seconds.'),
});

export const Assumptions = z
  .strictObject({
    /** Resolve path (spec 4.8: "the exact path: not shown"). */
    resolvePath: PathTemplate.default('/conversations/{conversationId}/resolve').describe(
      'Path of the resolve operation, with {conversationId} (4.8: "the exact path: not shown").',
    ),
    /** Query parameter names the spec does not show (4.4). */
    params: z
      .strictObject({
        externalId: z.string().default('externalId').describe('Query parameter that filters customers by external id.'),
        search: z.string().default('q').describe('Query parameter of the customers text search.'),
        identityType: z
          .string()
          .default('identityType')
          .describe('Query parameter that names the channel identity type of an identity lookup.'),
      })
      .prefault({})
      .describe('Names of query parameters the spec does not show (4.4).'),
    /** Identity type value used for identity lookups in the fixtures. */
    identityTypeValue: z.string().default('email').describe('Identity type value used for identity lookups in the fixtures.'),
    /** Success status of DELETE /customers/{id} (4.5: not shown). */
    customerDeleteStatus: z.array(Status).default([204]).describe('Success statuses of DELETE /customers/{id} (4.5: not shown).'),
    /** HTTP statuses the spec does not show. */
    statuses: z
      .strictObject({
        unknownStatus: Status.default(422).describe('HTTP status of a status key the workspace does not know.'),
        invalidResolutionStatus: Status.default(422).describe('HTTP status of resolving to a status that is not of the completed type.'),
        staleRevision: Status.default(409).describe('HTTP status of an update whose expectedRevision is stale.'),
        validation: Status.default(400).describe('HTTP status of a request that fails validation.'),
        deletedAttachment: Status.default(404).describe("HTTP status of downloading a deleted message's attachment."),
        notFound: Status.default(404).describe('HTTP status of route.not_found (7: the code is shown, its HTTP status is not).'),
      })
      .prefault({})
      .describe('HTTP statuses the spec does not show.'),
    /** Turn status values (3: "the enumerated values of a turn's status: not shown"). */
    turnStatus: z
      .strictObject({
        pending: z.string().default('pending').describe("A pending turn's status value."),
        completed: z.string().default('completed').describe("A completed turn's status value."),
        cancelled: z.string().default('cancelled').describe("A cancelled turn's status value."),
      })
      .prefault({})
      .describe('Turn status values (3: "the enumerated values of a turn\'s status: not shown").'),
    /** The workspace's default completed status (seeded workspaces: resolved). */
    defaultCompletedStatus: z.string().default('resolved').describe("The workspace's default completed status key."),
    /** Known active-type and completed-type status keys (seeded). */
    activeStatuses: z.array(z.string()).default(['open', 'pending']).describe('Known status keys of the active type.'),
    completedStatuses: z.array(z.string()).default(['resolved', 'closed']).describe('Known status keys of the completed type.'),
    /** Rate-limit budgets, if known (8: "the numeric budgets: not shown"); inferred from headers otherwise. */
    rateLimit: z
      .strictObject({
        read: Window.optional().describe('Budget of the read class, per key.'),
        write: Window.optional().describe('Budget of the write class, per key.'),
      })
      .prefault({})
      .describe(
        'Rate-limit budgets, if known (8: "the numeric budgets: not shown"); learned from the headers otherwise, and a stated budget the headers contradict is a finding.',
      ),
    /**
     * Rules the spec does not state, each checked by one `assumed` check; false skips that check (the
     * target does not follow the rule, which is legitimate).
     */
    rules: z
      .strictObject({
        /** pagination.foreign-cursor: a cursor presented with other filters or to another list is rejected. */
        foreignCursorRejected: z
          .boolean()
          .default(true)
          .describe('A cursor presented with other filters or to another list is rejected (check pagination.foreign-cursor).'),
        /** idempotency.per-connection: Idempotency-Keys are scoped to the connection that used them. */
        idempotencyPerConnection: z
          .boolean()
          .default(true)
          .describe('Idempotency-Keys are scoped to the connection that used them (check idempotency.per-connection).'),
      })
      .prefault({})
      .describe('Rules the spec does not state, each judged by one assumed check; false skips that check.'),
    /**
     * Longest total wait, in seconds, for one conformance request answered 429 (Retry-After is honoured up
     * to this); a check that gets nothing but 429 within it is skipped as rate limited, never failed.
     */
    rateLimitWaitSeconds: z
      .number()
      .nonnegative()
      .max(3600)
      .default(60)
      .describe('Longest total wait in seconds for one conformance request answered 429 (Retry-After is honoured up to this).'),
    /** Treat failing `assumed`-basis checks as failures instead of warnings. */
    strict: z.boolean().default(false).describe('Failing assumed-basis checks count as failures instead of warnings.'),
  })
  .prefault({})
  .describe('Values for what the spec leaves "not shown"; every default is the embedded reference server\'s choice.');
export type Assumptions = z.infer<typeof Assumptions>;

const Id = z.string().min(1);
const Turn = z.strictObject({ sessionId: Id.describe('Id of the chat session.'), turnId: Id.describe('Id of the turn.') });
/** A pool collection: its id, or its id with the revision it holds now (updates need expectedRevision). */
const PoolCollection = z.union([
  Id,
  z.strictObject({ id: Id.describe('Collection id.'), revision: z.number().int().describe('The revision the collection holds now.') }),
]);

/**
 * Pools of disposable data: each item is handed to at most one check per run (docs/target-file.md says
 * what each check does to it), so a pool needs re-seeding between runs.
 */
export const FixturePools = z.strictObject({
  /** Customers a check may delete; each with a unique externalId and email. */
  customers: z.array(Id).optional().describe('Customers a check may delete; each with a unique externalId and email.'),
  conversations: z.array(Id).optional().describe('Conversations a check may assign and resolve freely (any status).'),
  pendingTurns: z.array(Turn).optional().describe('Pending turns of the admin key that a check may cancel.'),
  collections: z
    .array(PoolCollection)
    .optional()
    .describe('Help Center collections the helpDelegated key may update: an id, or { id, revision }.'),
  customerConversations: z
    .array(
      z.strictObject({
        customerId: Id.describe('The customer a check deletes.'),
        conversationId: Id.describe('One of its conversations, read afterwards.'),
      }),
    )
    .optional()
    .describe('A customer with one of its conversations: a check deletes the customer and reads the conversation.'),
  identityCustomers: z
    .array(
      z.strictObject({
        customerId: Id.describe('The customer a check may delete.'),
        identifier: Id.describe('Its channel identity (of type assumptions.identityTypeValue).'),
      }),
    )
    .optional()
    .describe('Customers a check may delete, each owning a channel identity of type assumptions.identityTypeValue.'),
});
export type FixturePools = z.infer<typeof FixturePools>;

/** Fixture ids for targets without a fixtures API. Every field is optional: checks that need one are skipped. */
export const FixtureIds = z
  .strictObject({
    conversationId: z.string().optional().describe('A conversation the read checks may read.'),
    customerId: z.string().optional().describe('A customer the read checks may read.'),
    message: z
      .strictObject({
        messageId: z.string().describe('Id of a message with attachments.'),
        storedIndex: z.number().int().nonnegative().optional().describe('Index of a stored attachment of the message.'),
        externalIndex: z.number().int().nonnegative().optional().describe('Index of an external (link) attachment of the message.'),
        fetchingIndex: z.number().int().nonnegative().optional().describe('Index of an attachment still being fetched.'),
      })
      .optional()
      .describe('A message with attachments, for the attachment checks.'),
    deletedMessageId: z.string().optional().describe('Id of a deleted message that had an attachment.'),
    deletedAttachmentIndex: z
      .number()
      .int()
      .nonnegative()
      .optional()
      .describe('Index of an attachment the deleted message had (0 when absent).'),
    pendingTurn: Turn.optional().describe('A pending turn of the admin key.'),
    completedTurn: Turn.optional().describe('A completed turn of the admin key.'),
    memberTurn: Turn.extend({ conversationId: Id.describe('The conversation of the turn.') })
      .optional()
      .describe('A pending turn owned by the member key (a holder no longer owner/admin).'),
    sessionsConversationId: z.string().optional().describe('A conversation with assistant chat sessions of the admin key.'),
    expiredChatId: z
      .string()
      .optional()
      .describe('A chat of sessionsConversationId whose retention has expired: the listing must leave it out (4.3).'),
    crowdedConversationId: z.string().optional().describe('A conversation with more than 100 unexpired chats of the admin key.'),
    crowdedNewestChatId: z
      .string()
      .optional()
      .describe('The most recently active chat of crowdedConversationId: a listing of the newest 100 shows it first.'),
    identity: z
      .strictObject({ identifier: Id.describe('The channel identity.'), customerId: Id.describe('The customer owning it.') })
      .optional()
      .describe('A channel identity (of type assumptions.identityTypeValue) and the customer owning it.'),
    collectionId: z.string().optional().describe('A Help Center collection the read checks may read.'),
    assigneeIds: z
      .array(Id)
      .optional()
      .describe(
        'Assignee ids the workspace accepts (agents); without them the assign checks send made-up ids, and a server that validates assignees makes those checks inconclusive.',
      ),
    teams: z
      .array(Id)
      .optional()
      .describe('Team values the workspace accepts (4.7: "external team or routing hint"); made-up ones otherwise.'),
    pools: FixturePools.optional().describe(
      'Pools of disposable data, each item used by at most one check per run (re-seed between runs).',
    ),
  })
  .prefault({})
  .describe('Fixture ids for targets without a fixtures API; checks that need a missing one are skipped.');
export type FixtureIds = z.infer<typeof FixtureIds>;

/** A command of the user's own that creates fixture data on demand (contract: docs/target-file.md). */
export const FixtureCommand = z.strictObject({
  /** Shell command line; spgate writes a JSON request on its stdin and reads JSON ids from its stdout. */
  run: z.string().min(1).describe('Shell command line; spgate writes a JSON request on its stdin and reads JSON ids from its stdout.'),
  timeoutMs: z.number().int().positive().max(600_000).default(30_000).describe('Longest run of the command, in ms.'),
});
export type FixtureCommand = z.infer<typeof FixtureCommand>;

export const Fixtures = z
  .strictObject({
    /** Base URL of a fixtures API (the reference server serves one under /_fixtures, outside /v1). */
    api: z
      .url({ protocol: /^https?$/ })
      .meta({ pattern: '^[Hh][Tt][Tt][Pp][Ss]?://' })
      .optional()
      .describe('Base URL of a fixtures API (the reference server serves one under /_fixtures, outside /v1).'),
    command: FixtureCommand.optional().describe('A command of your own that creates fixture data on demand (docs/target-file.md).'),
    ids: FixtureIds,
  })
  .prefault({})
  .describe('Where suites find data: a fixtures API, a command, or fixed ids and pools.');
export type Fixtures = z.infer<typeof Fixtures>;

export const Caps = z
  .strictObject({
    maxRps: z
      .number()
      .positive()
      .optional()
      .describe('Requests per second spgate never exceeds; required when baseUrl is not a loopback address.'),
    maxRequests: z.number().int().positive().optional().describe('Requests one command sends at most.'),
    maxDuration: z.number().positive().optional().describe('Seconds one load profile runs at most.'),
  })
  .prefault({})
  .describe('Limits spgate must respect against this target (required for non-loopback targets: maxRps).');

/**
 * Client time bounds for this target, in ms (each optional; spgate's defaults apply otherwise). `requestMs`
 * bounds one whole request (connect to last body byte) in conformance, replay and load runs alike.
 */
export const Timeouts = z
  .strictObject({
    connectMs: z.number().int().positive().optional().describe('Bound on opening a connection (TCP and TLS), ms.'),
    headersMs: z.number().int().positive().optional().describe('Bound from sending a request to its response headers, ms.'),
    bodyMs: z.number().int().positive().optional().describe('Bound on reading a response body, ms.'),
    requestMs: z.number().int().positive().optional().describe('Bound on one whole request (connect to last body byte), ms.'),
  })
  .prefault({})
  .describe("Client time bounds for this target, in ms; spgate's defaults apply to those not given.");
export type Timeouts = z.infer<typeof Timeouts>;

/**
 * How spgate reaches an https target (docs/target-file.md#tls): extra CA certificates added to the trust
 * store, a client certificate for mTLS, the name to verify and send as SNI, and an explicit switch that
 * turns certificate verification off (warned on every run). Paths are relative to the target file.
 */
export const Tls = z
  .strictObject({
    /** PEM file(s) of CA certificates trusted in addition to the system's (an internal CA). */
    ca: z
      .union([z.string().min(1), z.array(z.string().min(1)).min(1)])
      .optional()
      .describe("PEM file(s) of CA certificates trusted in addition to the system's (an internal CA); paths relative to the target file."),
    cert: z.string().min(1).optional().describe('PEM file of the client certificate (chain) presented for mTLS; needs key.'),
    key: z.string().min(1).optional().describe("PEM file of the client certificate's private key (a secret: never printed); needs cert."),
    servername: z
      .string()
      .min(1)
      .optional()
      .describe("Server name sent as SNI and verified against the certificate, when it differs from baseUrl's host."),
    insecureSkipVerify: z
      .boolean()
      .default(false)
      .describe("Do not verify the server's certificate at all. Only for throw-away environments; warned on every run."),
  })
  .prefault({})
  .meta({
    description:
      'How spgate reaches an https target: extra CAs, a client certificate for mTLS (cert and key together), the server name to verify.',
    // The loader's cert-and-key rule, in the JSON Schema too: an editor flags a cert without its key.
    dependentRequired: { cert: ['key'], key: ['cert'] },
  })
  .check((ctx) => {
    if ((ctx.value.cert === undefined) !== (ctx.value.key === undefined)) {
      ctx.issues.push({
        code: 'custom',
        input: ctx.value,
        path: [ctx.value.cert === undefined ? 'cert' : 'key'],
        message: 'cert and key go together (a client certificate needs its key)',
      });
    }
  });
export type Tls = z.infer<typeof Tls>;

/** An http(s) URL with no credentials, as the loader's normaliseBaseUrl accepts it (the pattern says so to editors). */
const HttpUrl = z
  .url({ protocol: /^https?$/, error: 'must be an absolute http(s) URL ending in /v1' })
  .meta({ pattern: '^[Hh][Tt][Tt][Pp][Ss]?://[^/@]+(/|$)' });

export const TargetFile = z.strictObject({
  $schema: z.string().optional().describe('Path or URL of this JSON Schema, for editors; ignored by spgate.'),
  name: z.string().default('target').describe('Shown in reports.'),
  baseUrl: HttpUrl.describe(
    'The API base, including /v1 (spec part 9): http or https, no credentials. Trailing slashes, query and fragment are dropped.',
  ),
  keys: z
    .strictObject({
      admin: KeySpec.describe('Full scopes, owner/admin membership, not delegated for Help Center authoring. The only required role.'),
      readOnly: KeySpec.optional().describe('Only *:read scopes.'),
      noAttachments: KeySpec.optional().describe('conversations:read but not attachments:read.'),
      helpDelegated: KeySpec.optional().describe('Help Center access on an explicitly delegated connection (owner/admin).'),
      legacyLive: KeySpec.optional().describe('A key with the pk_live_ prefix, same workspace.'),
      legacyTest: KeySpec.optional().describe('A key with the pk_test_ prefix, same workspace.'),
      expired: KeySpec.optional().describe('An expired key: must be refused with 401.'),
      revoked: KeySpec.optional().describe('A revoked key: must be refused with 401.'),
      secondConnection: KeySpec.optional().describe('Another connection (full scopes, admin) of the same workspace.'),
      member: KeySpec.optional().describe('A key whose holder is no longer an owner/admin (chat access must be refused).'),
      attachmentsOnly: KeySpec.optional().describe(
        'attachments:read without conversations:read (download must be refused: 4.6 needs both).',
      ),
      otherWorkspace: KeySpec.optional().describe("A key of another workspace (5.1): it must not see or change this workspace's data."),
      memberDelegated: KeySpec.optional().describe(
        'Help Center access on a delegated connection whose holder is no longer an owner/admin (4.9: collection updates must be refused).',
      ),
    })
    .describe('Keys by role; checks that need a missing role are skipped with the reason.'),
  assumptions: Assumptions,
  fixtures: Fixtures,
  allowWrites: z.boolean().default(false).describe('Destructive checks and write-class load run only when true.'),
  caps: Caps,
  timeouts: Timeouts,
  tls: Tls,
});
export type TargetFileInput = z.input<typeof TargetFile>;
export type TargetFile = z.infer<typeof TargetFile>;

/** A loaded target: the file's content with every `env:NAME` key resolved. */
export interface Target extends TargetFile {
  /**
   * Resolved secrets by key name: each role's key, and each pool key as `role.pool[i]` (never printed; the
   * redactor and the results' scrubbing are built from every value here, pool keys included).
   */
  secrets: Partial<Record<KeyName, string>>;
  /** Each role's pool: the names of its keys in `secrets`, the role's own key first (roles with a pool only). */
  pools: Partial<Record<KeyRole, KeyName[]>>;
  /** Where the target came from: a file path, or "embedded". */
  source: string;
  /** The --base-url that replaced the file's baseUrl, when one did (re-run lines must repeat it). */
  baseUrlOverride?: string;
  /** True when baseUrl's host is a loopback address. */
  loopback: boolean;
  /** Things worth telling the user that do not stop the run (an inline key in a git-tracked file, …). */
  warnings: string[];
}
