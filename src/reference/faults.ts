/**
 * Named faults of the reference server: each switches on exactly one realistic spec violation, so the test
 * suite can prove that the check written for it fails (and that the clean server gives no finding).
 * `catches` names the clause whose check must report it.
 */

export interface FaultInfo {
  description: string;
  /** Clause id that must produce a finding when this fault is on (for `compare`: the figure that regresses). */
  catches: string;
  /** Which side of spgate catches it: a finding of conformance or load, or a regression of `spgate compare`. */
  by: 'conformance' | 'load' | 'both' | 'compare';
}

export const FAULTS = {
  // auth and scopes
  'auth-legacy-prefix-rejected': {
    description: 'pk_live_ and pk_test_ keys are refused with 401',
    catches: '5.auth.prefixes',
    by: 'conformance',
  },
  'auth-expired-accepted': { description: 'expired keys are still accepted', catches: '5.auth.expired', by: 'conformance' },
  'auth-revoked-accepted': { description: 'revoked keys are still accepted', catches: '5.auth.revoked', by: 'conformance' },
  'auth-bad-key-403': { description: 'an unknown key gets 403 instead of 401', catches: '5.auth.bad-secret', by: 'conformance' },
  'auth-scheme-lenient': {
    description: 'Authorization without the Bearer scheme (the bare key) is accepted',
    catches: '5.auth.scheme',
    by: 'conformance',
  },
  'attachments-single-scope': {
    description: 'attachment download needs only conversations:read',
    catches: '4.6.scopes',
    by: 'conformance',
  },
  'readonly-can-write': { description: 'a key without conversations:write can assign', catches: '5.scope.missing', by: 'conformance' },
  'chat-ownership-leak': {
    description: 'another connection of the workspace can read and cancel a chat turn',
    catches: '4.1.chat.owner-only',
    by: 'conformance',
  },
  'chat-member-allowed': {
    description: 'a key whose holder is no longer owner/admin can still read chats',
    catches: '4.1.chat.admin-only',
    by: 'conformance',
  },
  'auth-missing-anonymous': {
    description: 'a request without Authorization is served as an anonymous read-only caller',
    catches: '5.auth.missing',
    by: 'conformance',
  },
  'legacy-test-isolated': {
    description: 'pk_test_ keys list customers from a separate, empty test dataset',
    catches: '5.auth.legacy-no-isolation',
    by: 'conformance',
  },
  'workspace-header-required': {
    description: 'requests without X-Workspace-Id answer 400',
    catches: '5.workspace-header',
    by: 'conformance',
  },
  'workspace-leak': {
    description: "a key of the second workspace is served the first workspace's data",
    catches: '5.workspace-bound',
    by: 'conformance',
  },
  'workspace-leak-articles': {
    description: "the articles list (drafts included) answers a key of the second workspace with the first workspace's articles",
    catches: '5.workspace-bound',
    by: 'conformance',
  },
  'workspace-leak-me': {
    description: 'GET /me answers a key of the second workspace with the first workspace',
    catches: '5.workspace-bound',
    by: 'conformance',
  },
  'workspace-leak-team': {
    description: "an assign by a key of the second workspace is applied to the first workspace's conversation",
    catches: '5.workspace-bound',
    by: 'conformance',
  },
  'attachment-cross-workspace': {
    description: 'attachment download finds messages of every workspace',
    catches: '4.6.other-workspace',
    by: 'conformance',
  },
  'attachments-conversations-scope-unchecked': {
    description: 'attachment download needs only attachments:read (conversations:read unchecked)',
    catches: '4.6.scopes',
    by: 'conformance',
  },
  'readonly-can-delete-customers': {
    description: 'customer delete does not check customers:write (a read-only key can delete)',
    catches: '5.scope.missing',
    by: 'conformance',
  },
  'scope-unchecked-on-articles': {
    description: 'the articles list does not check help:read',
    catches: '5.scope.missing',
    by: 'conformance',
  },
  // errors
  'request-id-mismatch': { description: 'X-Request-Id differs from error.requestId', catches: '7.request-id.matches', by: 'conformance' },
  'request-id-missing-on-success': {
    description: 'successful responses carry no X-Request-Id',
    catches: '7.request-id.header',
    by: 'both',
  },
  'not-found-code': { description: 'unknown routes answer 404 with code "not_found"', catches: '7.route.not-found', by: 'conformance' },
  'error-envelope-flat': {
    description: 'errors are { code, message } without the envelope',
    catches: '7.error.envelope',
    by: 'conformance',
  },
  'error-codes-upper-case': {
    description: 'error codes are sent as upper-case constants ("ROUTE_NOT_FOUND")',
    catches: '7.error.envelope',
    by: 'conformance',
  },
  'request-ids-unprefixed': {
    description: 'request ids are bare UUIDs without req_ (in X-Request-Id and error.requestId alike)',
    catches: '2.id-prefixes',
    by: 'conformance',
  },
  'unknown-status-code': {
    description: 'resolve with an undefined status key answers conversations.invalid_resolution_status',
    catches: '7.unknown-status',
    by: 'conformance',
  },
  // pagination and cursors
  'cursor-lenient': {
    description: 'a tampered cursor is accepted (treated as the first page)',
    catches: '4.4.cursor.tampered',
    by: 'conformance',
  },
  'cursor-unbound-filter': {
    description: 'a cursor issued for one filter is accepted with another',
    catches: '4.4.cursor.filter-bound',
    by: 'conformance',
  },
  'limit-unbounded': { description: 'limit above 100 is honoured', catches: '4.4.limit.max', by: 'conformance' },
  'limit-default-20': { description: 'the default page size is 20', catches: '4.4.limit.default', by: 'conformance' },
  'cursor-offset': {
    description: 'cursors are offsets: deleting an item between pages skips another',
    catches: '4.4.cursor.stable-under-writes',
    by: 'conformance',
  },
  'has-more-stale': { description: 'the last page says hasMore: true with nextCursor null', catches: '4.4.has-more', by: 'conformance' },
  'last-page-empty-cursor': {
    description: 'the last page of the customer list says nextCursor "" instead of null',
    catches: '4.4.has-more',
    by: 'conformance',
  },
  'search-case-sensitive': { description: 'text search is case-sensitive', catches: '4.4.search', by: 'conformance' },
  'search-skips-company': { description: 'text search ignores the company field', catches: '4.4.search', by: 'conformance' },
  'identity-single-param': {
    description: 'identity lookup accepts identityIdentifier alone',
    catches: '4.4.identity.pair',
    by: 'conformance',
  },
  'articles-has-more': {
    description: 'the articles list returns hasMore and ignores after',
    catches: '4.10.articles.after',
    by: 'conformance',
  },
  'cursor-overlap': {
    description: 'nextCursor points at the second-to-last item of a page, so consecutive pages repeat one item',
    catches: '4.4.cursor.traversal',
    by: 'conformance',
  },
  'cursor-raw-query': {
    description: 'cursors are standard base64 (ending in "=") and are read from the raw query without percent-decoding',
    catches: '4.11.cursor.url-encoded',
    by: 'conformance',
  },
  'external-id-ignored': {
    description: 'the external-id filter is ignored (the server reads external_id, or externalId in dialects that document external_id)',
    catches: '4.4.external-id',
    by: 'conformance',
  },
  // idempotency
  'idempotency-ignores-body': {
    description: 'a reused key with a different body replays the first response',
    catches: '4.7.idempotency.conflict',
    by: 'conformance',
  },
  'idempotency-double-effect': {
    description: 'an identical retry under the same key runs the operation again',
    catches: 'idempotency.replay',
    by: 'conformance',
  },
  'idempotency-key-length': {
    description: 'Idempotency-Key of 7 characters is accepted',
    catches: '4.7.idempotency.key-length',
    by: 'conformance',
  },
  'idempotency-race': {
    description: 'concurrent requests with one key both take effect',
    catches: 'idempotency.concurrent',
    by: 'conformance',
  },
  'idempotency-cross-connection': {
    description: 'idempotency keys are shared across connections',
    catches: 'idempotency.per-connection',
    by: 'conformance',
  },
  'idempotency-revoked-own-replay': {
    description:
      'the Idempotency-Key store, scoped to the connection, is consulted before authentication: a key revoked after its request replays its own stored answer',
    catches: '4.9.idempotency.revoked-no-replay',
    by: 'conformance',
  },
  'idempotency-before-auth': {
    description:
      'the Idempotency-Key cache is consulted before authentication: a revoked or expired key sending a used key gets the stored answer',
    catches: '4.9.idempotency.revoked-no-replay',
    by: 'conformance',
  },
  'collection-key-pattern-lenient': {
    description: 'collection update accepts keys with spaces or over 128 characters',
    catches: '4.9.idempotency.key-pattern',
    by: 'conformance',
  },
  // status and priority keys
  'resolve-active-accepted': {
    description: 'resolve with an active-type key succeeds',
    catches: '3.resolve.active-key-rejected',
    by: 'conformance',
  },
  'resolve-default-closed': {
    description: 'resolve without status moves to closed instead of the default completed status',
    catches: '3.resolve.default-status',
    by: 'conformance',
  },
  'assign-reopens': { description: 'assign moves the conversation back to open', catches: '3.assign.status-unchanged', by: 'conformance' },
  'assign-empty-team-kept': { description: 'team "" does not clear the team', catches: '3.assign.sets-and-clears', by: 'conformance' },
  'resolve-custom-completed-default': {
    description: 'resolve with a completed key other than resolved or closed (spam) moves to resolved',
    catches: '3.resolve.completed-key',
    by: 'conformance',
  },
  'assign-empty-accepted': {
    description: 'assign with neither assignee nor team answers 200 and counts as a change',
    catches: '4.7.assign.body-required',
    by: 'conformance',
  },
  'resolve-from-custom-refused': {
    description:
      'a conversation in a workspace-defined status other than the four seeded ones (waiting_on_customer, spam) cannot be resolved: 409',
    catches: '3.resolve.any-state',
    by: 'conformance',
  },
  // resource shapes
  'conversation-omits-nulls': {
    description: 'conversation keys with null values are omitted',
    catches: '2.conversation.shape',
    by: 'conformance',
  },
  'customer-count-string': { description: 'customer conversationCount is a string', catches: '2.customer.shape', by: 'conformance' },
  'turn-missing-expires': { description: 'chat turns lack expiresAt', catches: '2.turn.shape', by: 'conformance' },
  'timestamps-no-offset': {
    description:
      'customer createdAt/updatedAt are rendered without a zone offset ("2026-11-20T10:00:00": ISO 8601, not RFC 3339, a warning)',
    catches: '2.datetime.rfc3339',
    by: 'conformance',
  },
  'conversation-status-label': {
    description: 'assign and resolve answer the status as its display name ("Resolved")',
    catches: '2.conversation.key-pattern',
    by: 'conformance',
  },
  'session-title-null': { description: 'archived chat sessions are listed with title null', catches: '2.session.shape', by: 'conformance' },
  'descriptor-size-string': {
    description: 'download descriptors carry sizeBytes as a string',
    catches: '2.descriptor.shape',
    by: 'conformance',
  },
  'collection-translations-object': {
    description:
      'collection answers carry translations as an object keyed by locale instead of an array (leaving the key out would be allowed: its required-ness is not stated)',
    catches: '2.collection.shape',
    by: 'conformance',
  },
  'me-text-plain': { description: 'GET /me answers text/plain instead of a JSON object', catches: '4.10.me', by: 'conformance' },
  'statuses-display-keys': {
    description: 'GET /statuses lists display names ("Waiting on customer") as keys',
    catches: '4.10.statuses',
    by: 'conformance',
  },
  'priorities-drop-last': {
    description: 'GET /priorities leaves out the last priority (urgent)',
    catches: '4.10.priorities',
    by: 'conformance',
  },
  // customers
  'soft-delete-listed': {
    description: 'soft-deleted customers still appear in lists',
    catches: '3.customer.soft-delete-unlisted',
    by: 'conformance',
  },
  'identity-lookup-finds-deleted': {
    description: 'the channel-identity lookup still resolves a soft-deleted customer (the lists and search leave it out)',
    catches: '3.customer.soft-delete-unlisted',
    by: 'conformance',
  },
  'delete-repeat-restores': {
    description: 'deleting a deleted customer again restores it (listed again), answering success',
    catches: '4.5.delete.idempotent',
    by: 'conformance',
  },
  'delete-hard': {
    description: 'delete removes the customer so its conversations no longer resolve it',
    catches: '3.customer.soft-delete-history',
    by: 'conformance',
  },
  'delete-cascades': {
    description: 'delete removes the customer and its conversations (the history no longer answers)',
    catches: '3.customer.soft-delete-history',
    by: 'conformance',
  },
  'delete-200-body': {
    description: 'customer delete answers 200 with the customer instead of 204 (204 without a body in dialects that answer 200)',
    catches: '4.5.delete.status',
    by: 'conformance',
  },
  // attachments
  'attachment-expiry-long': { description: 'signed URLs expire after one hour', catches: '4.6.expiry', by: 'conformance' },
  'attachment-external-200': {
    description: 'external attachments return a descriptor instead of 422',
    catches: '4.6.unavailable-422',
    by: 'conformance',
  },
  'attachment-deleted-downloadable': {
    description: 'attachments of deleted messages are downloadable',
    catches: '4.6.deleted',
    by: 'conformance',
  },
  'attachment-url-never-expires': {
    description: 'signed download URLs are still served after their expiresAt',
    catches: '4.6.expiry',
    by: 'conformance',
  },
  'attachment-url-wrong-file': {
    description: 'signed download URLs serve other bytes than the descriptor describes (one byte short of sizeBytes)',
    catches: '4.6.url-served',
    by: 'conformance',
  },
  'download-file-bytes': {
    description: 'attachment download answers the file bytes instead of a descriptor',
    catches: '4.6.descriptor',
    by: 'conformance',
  },
  // assistant
  'cancel-completed-200': {
    description: 'cancelling a completed turn answers 200',
    catches: '3.turn.cancel-completed-409',
    by: 'conformance',
  },
  'cancel-repeat-409': { description: 'repeating a cancel answers 409', catches: '3.turn.cancel-repeat-safe', by: 'conformance' },
  'sessions-oldest-first': { description: 'sessions are listed oldest activity first', catches: '4.3.sessions.order', by: 'conformance' },
  'sessions-archived-hidden': {
    description: 'archived sessions are left out of the list',
    catches: '4.3.sessions.archived-included',
    by: 'conformance',
  },
  'sessions-unbounded': {
    description: 'the sessions list returns more than 100 chats',
    catches: '4.3.sessions.max-100',
    by: 'conformance',
  },
  'sessions-paginated': {
    description: 'the sessions list carries hasMore and nextCursor',
    catches: '4.3.sessions.no-pagination',
    by: 'conformance',
  },
  'receipt-undo-pending': { description: 'action receipts report undo.status "pending"', catches: '2.receipt.shape', by: 'conformance' },
  'turn-answer-text': {
    description:
      'completed turns carry answer as the bare text instead of the answer object (withholding the answer is allowed; a wrong shape is not)',
    catches: '3.turn.completed-has-answer',
    by: 'conformance',
  },
  'turn-unwrapped': {
    description: 'GET of a chat turn answers the bare turn without the { data } envelope',
    catches: '4.1.turn.get',
    by: 'conformance',
  },
  'cancel-not-persisted': {
    description: 'cancel of a pending turn answers 200 cancelled but the turn stays pending',
    catches: '3.turn.cancel-pending',
    by: 'conformance',
  },
  'sessions-cross-conversation': {
    description: "the sessions list returns the connection's chats of every conversation",
    catches: '4.3.sessions.this-conversation',
    by: 'conformance',
  },
  'sessions-expired-listed': {
    description: 'the sessions list includes chats whose retention has expired',
    catches: '4.3.sessions.unexpired',
    by: 'conformance',
  },
  'cancel-member-allowed': {
    description: 'membership is checked on reads only: a key whose holder is no longer owner/admin can cancel its turn',
    catches: '4.2.cancel.admin-only',
    by: 'conformance',
  },
  'foreign-cancel-applied': {
    description: "another connection's cancel is refused (403/404) but the owner's pending turn is cancelled anyway",
    catches: '4.1.chat.owner-only',
    by: 'conformance',
  },
  'sessions-limit-before-sort': {
    description:
      'the sessions list takes the first 100 chats in creation order, then sorts them: a crowded conversation lists its oldest chats, not its 100 newest',
    catches: '4.3.sessions.max-100',
    by: 'conformance',
  },
  'cancel-unwrapped': {
    description: 'cancel answers the bare turn without the { data } envelope',
    catches: '4.2.cancel.response',
    by: 'conformance',
  },
  // help center
  'collection-stale-accepted': {
    description: 'a stale expectedRevision is accepted',
    catches: '4.9.collection.expected-revision',
    by: 'conformance',
  },
  'collection-revision-static': {
    description: 'the revision does not advance on update',
    catches: '4.9.collection.revision-advances',
    by: 'conformance',
  },
  'collection-membership-unchecked': {
    description: 'a delegated connection whose holder is no longer owner/admin can still update collections',
    catches: '4.9.collection.owner-admin',
    by: 'conformance',
  },
  'collection-undelegated': {
    description: 'a connection that is not delegated can update collections',
    catches: '4.9.collection.delegation',
    by: 'conformance',
  },
  'collection-description-ignored': {
    description: 'collection update ignores description',
    catches: '4.9.collection.replaces',
    by: 'conformance',
  },
  'collection-parent-null-clears': {
    description: 'collection update with parentId null moves the collection to the root',
    catches: '4.9.collection.parent-kept',
    by: 'conformance',
  },
  'collection-parent-empty-ignored': {
    description: 'collection update with parentId "" keeps the parent',
    catches: '4.9.collection.parent-root',
    by: 'conformance',
  },
  'collection-translation-revision-string': {
    description: 'collection translation items carry revision as a string ("1")',
    catches: '2.collection.shape',
    by: 'conformance',
  },
  'collection-limit-64000': {
    description: "the collection update's 64 KiB limit is enforced as 64,000 bytes (a 65,000-byte body answers 413)",
    catches: '4.9.collection.body-limit',
    by: 'conformance',
  },
  'collection-body-limit-code': {
    description: 'the collection update\'s own 64 KiB limit answers 413 with code "help.payload_too_large"',
    catches: '8.body.code',
    by: 'conformance',
  },
  // limits
  'body-limit-ignored': { description: 'read bodies above 1 KB are accepted', catches: '8.body.read-limit', by: 'conformance' },
  'write-body-limit-ignored': { description: 'write bodies above 64 KB are accepted', catches: '8.body.write-limit', by: 'conformance' },
  'body-limit-code': { description: '413 answers carry code "payload_too_large"', catches: '8.body.code', by: 'conformance' },
  'write-body-limit-assign-only': {
    description: 'the 64 KB write limit is enforced on assign only; other writes accept bigger bodies',
    catches: '8.body.write-limit',
    by: 'conformance',
  },
  'read-body-limit-customers-only': {
    description: 'the 1 KB read limit is enforced on GET /customers only; other reads accept bodies up to 64 KB',
    catches: '8.body.read-limit',
    by: 'conformance',
  },
  // rate limits
  'ratelimit-headers-missing-on-errors': {
    description: 'RateLimit-* headers are missing on 4xx responses',
    catches: '8.ratelimit.headers',
    by: 'both',
  },
  'ratelimit-no-retry-after': { description: '429 answers carry no Retry-After', catches: '8.ratelimit.retry-after', by: 'both' },
  'ratelimit-429-code': { description: '429 body code is "too_many_requests"', catches: '8.ratelimit.429-code', by: 'both' },
  'ratelimit-shared-classes': { description: 'read and write share one budget', catches: '8.ratelimit.classes-isolated', by: 'both' },
  'ratelimit-limit-drifts': {
    description: 'RateLimit-Limit announces the budget left before the request (Remaining + 1), not the class budget',
    catches: '8.ratelimit.limit-constant',
    by: 'both',
  },
  'ratelimit-over-admit': {
    description: 'the limiter admits budget + 5 requests per window',
    catches: '8.ratelimit.over-admission',
    by: 'load',
  },
  'ratelimit-early-429': {
    description: 'the limiter refuses once 80% of the budget is used',
    catches: '8.ratelimit.under-admission',
    by: 'load',
  },
  'ratelimit-reset-ms': { description: 'RateLimit-Reset is in milliseconds', catches: '8.ratelimit.reset-plausible', by: 'both' },
  'ratelimit-remaining-stuck': {
    description: 'RateLimit-Remaining never decreases',
    catches: '8.ratelimit.remaining-decreases',
    by: 'load',
  },
  'ratelimit-no-restore': {
    description: 'the budget is restored one window later than Reset says',
    catches: '8.ratelimit.reset-restores',
    by: 'load',
  },
  'ratelimit-reset-epoch': {
    description: 'RateLimit-Reset is the epoch second at which the budget is full again, not the seconds until then',
    catches: '8.ratelimit.reset-plausible',
    by: 'both',
  },
  'ratelimit-remaining-negative': {
    description: 'RateLimit-Remaining goes negative when exhausted',
    catches: '8.ratelimit.remaining-bounds',
    by: 'both',
  },
  'ratelimit-retry-after-short': {
    description: 'Retry-After is shorter than the time until the budget returns',
    catches: '8.ratelimit.retry-after-honoured',
    by: 'load',
  },
  // speed: no spec clause, a regression between two runs (spgate compare)
  'latency-slow-tail': {
    description: '3 % of /v1 answers (seeded) are held 200 ms before they are sent: the p99 of a loopback run at least doubles',
    catches: 'compare.p99',
    by: 'compare',
  },
  // tenant isolation (auth.other-workspace)
  'search-no-tenant-filter': {
    description: 'text search and identity lookups match the customers of every workspace (the search index has no tenant filter)',
    catches: '5.workspace-bound',
    by: 'conformance',
  },
  'delete-cross-workspace': {
    description: "customer delete finds the id in every workspace: a key of another workspace soft-deletes this workspace's customer",
    catches: '5.workspace-bound',
    by: 'conformance',
  },
} as const satisfies Record<string, FaultInfo>;

export type FaultName = keyof typeof FAULTS;
export const FAULT_NAMES = Object.keys(FAULTS) as FaultName[];

/** True when the string names a fault. */
export function isFaultName(name: string): name is FaultName {
  return Object.hasOwn(FAULTS, name);
}
