/**
 * Dialects: named sets of legitimate choices the reference server makes where the spec says "not shown".
 * Every dialect implements everything the spec does say; they differ only in the open points, so the suites
 * can prove they work on deployments that are not ours. Faults are switched on orthogonally to the dialect.
 */

export type LimiterModel = 'fixed-window' | 'sliding-window' | 'token-bucket';
export type CursorFormat = 'signed' | 'opaque';

export interface Dialect {
  name: string;
  description: string;
  /** Resolve route below /v1 with `{conversationId}`; always a POST (4.8). */
  resolvePath: string;
  /** Query parameter names of the customer list filters (4.4: not shown). */
  params: { externalId: string; search: string; identityType: string };
  /** Success answer of DELETE /customers/{id} (4.5: not shown): 204 empty, or 200 with { data: customer }. */
  customerDeleteStatus: 200 | 204;
  statuses: {
    /** conversations.unknown_status (7: the statuses of the conversations.* codes are not shown). */
    unknownStatus: number;
    /** conversations.invalid_resolution_status. */
    invalidResolutionStatus: number;
    /** Invalid query parameters (limit, identity pair). */
    queryValidation: number;
    /** Invalid JSON body fields (assign, resolve, collection update). */
    bodyValidation: number;
    /** A stale expectedRevision on the collection update. */
    staleRevision: number;
    /** Attachment download of a deleted message. */
    deletedAttachment: number;
    /** Another connection's chat (4.1: "other clients are isolated"; 404 hides it, 403 refuses it). */
    foreignChat: 403 | 404;
  };
  /** The values of a turn's `status` (3: not shown). */
  turnStatus: { pending: string; completed: string; cancelled: string };
  cursor: CursorFormat;
  /** The articles list's end-of-list nextCursor (4.10: "until it is empty or null"). */
  articlesEndCursor: null | '';
  /** Extra fields in resources (`object`) and `error.details` in errors (nothing in the spec forbids them). */
  extras: boolean;
  limiter: { model: LimiterModel; read: number; write: number; windowSeconds: number };
  /**
   * Input validation and answer shapes beyond what the spec fixes: each is legitimate where the spec
   * leaves the point open, and each is one a strict independent implementation makes (dialect strict-inputs).
   */
  strict: {
    /** Collection slugs must be lowercase letters and digits in single-dash-separated runs (422 otherwise). */
    slugs: boolean;
    /** Collection names and descriptions are stored trimmed. */
    trimNames: boolean;
    /** assign accepts only assignee ids and teams the workspace knows (422 otherwise); see AGENTS/TEAMS. */
    assignees: boolean;
    /** Optional fields that are unset or empty are omitted (Go's omitempty) in turns, answers, sessions, collections. */
    omitEmpty: boolean;
    /** DELETE of a customer that never existed answers the idempotent success (4.5), not 404. */
    deleteUnknownSucceeds: boolean;
    /** An idempotent replay answers the resource as it is now (no second effect), not the stored bytes. */
    replayCurrent: boolean;
    /** GET /statuses and /priorities answer { statuses|priorities: [{ slug, category }] } instead of { data: [{ key, type }] }. */
    namedKeyLists: boolean;
    /** The chats list answers { object: "list", data: [...] }. */
    listObject: boolean;
    /** Requests refused with a 4xx other than 429 are not charged against the budget. */
    chargeOnlyAccepted: boolean;
    /** Collection positions are renumbered 0..n-1 among siblings, the updated one placed by the position sent. */
    renumberPositions: boolean;
    /** Collection descriptions are sanitised: tags stripped, whitespace runs collapsed to one space, trimmed. */
    sanitiseDescriptions: boolean;
    /** Collection slugs are unique per workspace: an update to a slug another collection holds is refused with 409. */
    uniqueSlugs: boolean;
  };
}

/** Assignee ids and teams the reference workspace knows (a validating dialect refuses others; target-out lists them). */
export const AGENTS = ['agt_ref_alice', 'agt_ref_bob'] as const;
export const TEAMS = ['tier-1', 'tier-2'] as const;

const LENIENT: Dialect['strict'] = {
  slugs: false,
  trimNames: false,
  assignees: false,
  omitEmpty: false,
  deleteUnknownSucceeds: false,
  replayCurrent: false,
  namedKeyLists: false,
  listObject: false,
  chargeOnlyAccepted: false,
  renumberPositions: false,
  sanitiseDescriptions: false,
  uniqueSlugs: false,
};

const DEFAULT: Dialect = {
  name: 'default',
  description:
    "today's reference choices: /resolve, externalId/q/identityType, 204 delete, 422 conversations.* errors, signed cursors, fixed window",
  resolvePath: '/conversations/{conversationId}/resolve',
  params: { externalId: 'externalId', search: 'q', identityType: 'identityType' },
  customerDeleteStatus: 204,
  statuses: {
    unknownStatus: 422,
    invalidResolutionStatus: 422,
    queryValidation: 400,
    bodyValidation: 400,
    staleRevision: 409,
    deletedAttachment: 404,
    foreignChat: 404,
  },
  turnStatus: { pending: 'pending', completed: 'completed', cancelled: 'cancelled' },
  cursor: 'signed',
  articlesEndCursor: null,
  extras: false,
  limiter: { model: 'fixed-window', read: 1000, write: 250, windowSeconds: 5 },
  strict: LENIENT,
};

export const DIALECTS = {
  default: DEFAULT,
  'alt-paths': {
    ...DEFAULT,
    name: 'alt-paths',
    description:
      'resolve at /actions/resolve, snake_case filters, delete answers 200 with the customer, "" ends the articles list, extra fields and error.details',
    resolvePath: '/conversations/{conversationId}/actions/resolve',
    params: { externalId: 'external_id', search: 'search', identityType: 'identity_type' },
    customerDeleteStatus: 200,
    articlesEndCursor: '',
    extras: true,
    limiter: { model: 'fixed-window', read: 600, write: 120, windowSeconds: 10 },
  },
  'strict-validation': {
    ...DEFAULT,
    name: 'strict-validation',
    description:
      'query errors 400 but body errors 422, conversations.* errors 400, stale revision 412, deleted attachment 410, 403 for a foreign chat, opaque server-side cursors',
    statuses: {
      unknownStatus: 400,
      invalidResolutionStatus: 400,
      queryValidation: 400,
      bodyValidation: 422,
      staleRevision: 412,
      deletedAttachment: 410,
      foreignChat: 403,
    },
    cursor: 'opaque',
    limiter: { model: 'fixed-window', read: 500, write: 100, windowSeconds: 2 },
  },
  'token-bucket': {
    ...DEFAULT,
    name: 'token-bucket',
    description:
      'token-bucket limiter, turn values in_progress/succeeded/canceled, resolve at /resolution, search/external_id filters, opaque cursors',
    resolvePath: '/conversations/{conversationId}/resolution',
    params: { externalId: 'external_id', search: 'search', identityType: 'identityType' },
    turnStatus: { pending: 'in_progress', completed: 'succeeded', cancelled: 'canceled' },
    cursor: 'opaque',
    limiter: { model: 'token-bucket', read: 400, write: 100, windowSeconds: 10 },
  },
  'sliding-window': {
    ...DEFAULT,
    name: 'sliding-window',
    description:
      'sliding-window-log limiter, turn values running/done/canceled, 200 delete with body, 403 for a foreign chat, extra fields',
    customerDeleteStatus: 200,
    statuses: { ...DEFAULT.statuses, foreignChat: 403 },
    turnStatus: { pending: 'running', completed: 'done', cancelled: 'canceled' },
    extras: true,
    limiter: { model: 'sliding-window', read: 800, write: 200, windowSeconds: 4 },
  },
  'strict-inputs': {
    ...DEFAULT,
    name: 'strict-inputs',
    description:
      'validates slugs and assignees (422), trims names, sanitises descriptions, renumbers positions, keeps slugs unique per workspace (409), omits empty optional fields, 204 for a DELETE of an unknown customer, replays the current state, { statuses: [{ slug, category }] }, chats list as { object, data }, charges only accepted requests',
    statuses: { ...DEFAULT.statuses, bodyValidation: 422 },
    strict: {
      slugs: true,
      trimNames: true,
      assignees: true,
      omitEmpty: true,
      deleteUnknownSucceeds: true,
      replayCurrent: true,
      namedKeyLists: true,
      listObject: true,
      chargeOnlyAccepted: true,
      renumberPositions: true,
      sanitiseDescriptions: true,
      uniqueSlugs: true,
    },
    limiter: { model: 'sliding-window', read: 600, write: 150, windowSeconds: 4 },
  },
} as const satisfies Record<string, Dialect>;

export type DialectName = keyof typeof DIALECTS;
export const DIALECT_NAMES = Object.keys(DIALECTS) as DialectName[];

/** True when the string names a dialect. */
export function isDialectName(name: string): name is DialectName {
  return Object.hasOwn(DIALECTS, name);
}

/** The dialect of a name (default when absent). */
export function dialectOf(name: DialectName | undefined): Dialect {
  return DIALECTS[name ?? 'default'];
}

/** One-line descriptions of every dialect, for help texts. */
export function describeDialects(): string[] {
  return DIALECT_NAMES.map((n) => `${n}: ${DIALECTS[n].description}`);
}
