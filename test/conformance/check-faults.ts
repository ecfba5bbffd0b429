/**
 * Every check of every suite, with the reference-server fault that must make it fail. A check added
 * without a row here fails test/conformance/every-check.test.ts, so each check is proven to catch the bug
 * it exists for (the clean-server tests prove the other half: that it passes when nothing is wrong).
 * Several checks may share a fault where one bug breaks the behaviour each of them checks. A list means the
 * check's bug only shows when those faults are on together (see the row).
 */
import type { FaultName } from '../../src/reference/index.js';

export const CHECK_FAULTS: Readonly<Record<string, FaultName | readonly FaultName[]>> = {
  // auth
  'auth.missing-header': 'auth-missing-anonymous',
  'auth.wrong-scheme': 'auth-scheme-lenient',
  'auth.bad-key': 'auth-bad-key-403',
  'auth.expired': 'auth-expired-accepted',
  'auth.revoked': 'auth-revoked-accepted',
  'auth.prefixes': 'auth-legacy-prefix-rejected',
  'auth.legacy-same-data': 'legacy-test-isolated',
  'auth.no-workspace-header': 'workspace-header-required',
  'auth.scope-missing': 'readonly-can-delete-customers',
  'auth.scope-attachments': 'attachments-conversations-scope-unchecked',
  'auth.other-workspace': 'workspace-leak',
  // pagination
  'pagination.limit-bounds': 'limit-unbounded',
  'pagination.traversal': 'cursor-overlap',
  'pagination.stable-under-writes': 'cursor-offset',
  'pagination.has-more': 'has-more-stale',
  'pagination.tampered-cursor': 'cursor-lenient',
  'pagination.foreign-cursor': 'cursor-unbound-filter',
  'pagination.cursor-url-encoding': 'cursor-raw-query',
  'pagination.search': 'search-case-sensitive',
  'pagination.external-id': 'external-id-ignored',
  'pagination.identity': 'identity-single-param',
  'pagination.articles': 'articles-has-more',
  // shapes
  'shapes.conversation': 'conversation-omits-nulls',
  'shapes.customer': 'customer-count-string',
  'shapes.turn': 'turn-missing-expires',
  'shapes.session': 'session-title-null',
  'shapes.descriptor': 'descriptor-size-string',
  'shapes.collection': 'collection-translations-object',
  'shapes.id-prefixes': 'request-ids-unprefixed',
  'shapes.me': 'me-text-plain',
  'shapes.statuses': 'statuses-display-keys',
  'shapes.priorities': 'priorities-drop-last',
  // errors
  'errors.envelope': 'error-envelope-flat',
  'errors.request-id-header': 'request-id-missing-on-success',
  'errors.request-id-matches': 'request-id-mismatch',
  'errors.codes-spelled': 'error-codes-upper-case',
  'errors.route-not-found': 'not-found-code',
  'errors.unknown-status': 'unknown-status-code',
  // idempotency
  'idempotency.assign.replay': 'idempotency-double-effect',
  'idempotency.resolve.replay': 'idempotency-double-effect',
  'idempotency.assign.conflict': 'idempotency-ignores-body',
  'idempotency.resolve.conflict': 'idempotency-ignores-body',
  'idempotency.key-length': 'idempotency-key-length',
  'idempotency.model': 'idempotency-double-effect',
  'idempotency.concurrent.assign': 'idempotency-race',
  // A racing duplicate of a collection update is refused by the expectedRevision guard (409), so the race
  // only takes a second effect where the guard is broken too.
  'idempotency.concurrent.collection': ['idempotency-race', 'collection-stale-accepted'],
  'idempotency.per-connection': 'idempotency-cross-connection',
  // status
  'status.resolve.default': 'resolve-default-closed',
  'status.resolve.completed-keys': 'resolve-custom-completed-default',
  'status.resolve.active-keys': 'resolve-active-accepted',
  'status.resolve.any-state': 'resolve-from-custom-refused',
  'status.assign.model': 'assign-reopens',
  'status.assign.sets-and-clears': 'assign-empty-team-kept',
  'status.assign.body-required': 'assign-empty-accepted',
  // customers
  'customers.delete.status': 'delete-200-body',
  // A repeat delete answering 404 is idempotent (same effect); the check judges that the customer stays unlisted.
  'customers.delete.idempotent': 'delete-repeat-restores',
  'customers.delete.unlisted': 'soft-delete-listed',
  'customers.delete.history': 'delete-cascades',
  'customers.delete.retained': 'delete-hard',
  // attachments
  'attachments.descriptor.json': 'download-file-bytes',
  'attachments.expiry': 'attachment-expiry-long',
  'attachments.unavailable': 'attachment-external-200',
  'attachments.deleted': 'attachment-deleted-downloadable',
  'attachments.scopes': 'attachments-single-scope',
  'attachments.other-workspace': 'attachment-cross-workspace',
  // assistant
  'assistant.receipt.shape': 'receipt-undo-pending',
  'assistant.turn.completed-answer': 'turn-answer-text',
  'assistant.cancel.pending': 'cancel-not-persisted',
  'assistant.cancel.repeat': 'cancel-repeat-409',
  'assistant.cancel.completed': 'cancel-completed-200',
  'assistant.owner-only': 'chat-ownership-leak',
  'assistant.admin-only': 'chat-member-allowed',
  'assistant.sessions.max-100': 'sessions-unbounded',
  'assistant.sessions.order': 'sessions-oldest-first',
  'assistant.sessions.archived': 'sessions-archived-hidden',
  'assistant.sessions.no-pagination': 'sessions-paginated',
  'assistant.sessions.this-conversation': 'sessions-cross-conversation',
  'assistant.sessions.unexpired': 'sessions-expired-listed',
  'assistant.cancel.admin-only': 'cancel-member-allowed',
  'assistant.cancel.response': 'cancel-unwrapped',
  // helpcenter
  'helpcenter.revision-advances': 'collection-revision-static',
  'helpcenter.expected-revision': 'collection-stale-accepted',
  'helpcenter.replaces': 'collection-description-ignored',
  'helpcenter.body-limit': 'write-body-limit-ignored',
  'helpcenter.delegation': 'collection-undelegated',
  'helpcenter.owner-admin': 'collection-membership-unchecked',
  'helpcenter.idempotency.replay': 'idempotency-double-effect',
  'helpcenter.idempotency.conflict': 'idempotency-ignores-body',
  'helpcenter.idempotency.revoked-no-replay': 'idempotency-before-auth',
  'helpcenter.idempotency.key-pattern': 'collection-key-pattern-lenient',
  'helpcenter.parent-kept': 'collection-parent-null-clears',
  'helpcenter.parent-root': 'collection-parent-empty-ignored',
  // limits
  'limits.read-body': 'body-limit-ignored',
  'limits.write-body': 'write-body-limit-ignored',
  'limits.read-body-routes': 'read-body-limit-customers-only',
  'limits.write-body-routes': 'write-body-limit-assign-only',
  'limits.headers': 'ratelimit-headers-missing-on-errors',
  'limits.remaining-decreases': 'ratelimit-remaining-stuck',
  'limits.limit-constant': 'ratelimit-limit-drifts',
  'limits.classes-isolated': 'ratelimit-shared-classes',
  'limits.429': 'ratelimit-no-retry-after',
  'limits.429-read': 'ratelimit-no-retry-after',
};

/**
 * How a check runs under its fault (every-check.test.ts, worlds-faults, bench/matrix/faults-under-load.ts):
 * reads never wait, and the write budget stays small enough for limits.429 to drive it to a 429.
 */
export const CHECK_FAULT_BUDGETS = { read: 1_000_000, write: 300, windowSeconds: 5 } as const;
/** Checks that drive the read budget to a 429 run on a server whose read budget they can spend. */
export const SMALL_READ_BUDGET: ReadonlySet<string> = new Set(['limits.429-read']);
/** The read budget of that server. */
export const SMALL_READ = 300;
/** Checks that compare RateLimit-Reset over about a second: they start with at least 3 s left in the window. */
export const NEEDS_WINDOW_ROOM: ReadonlySet<string> = new Set(['limits.remaining-decreases', 'limits.classes-isolated']);

/** Waits, if needed, until the current rate-limit window (aligned to multiples of its length) has 3 s left. */
export async function roomInWindow(windowSeconds: number = CHECK_FAULT_BUDGETS.windowSeconds): Promise<void> {
  const w = windowSeconds * 1000;
  const left = w - (Date.now() % w);
  if (left < 3000) await new Promise((r) => setTimeout(r, left + 20));
}
