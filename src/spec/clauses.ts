/**
 * The clause registry: one stable id for every normative statement of the spec that spgate checks.
 * Suites, findings and reports refer to clauses by these ids only.
 *
 * basis: `spec`     — the API document states it;
 *        `standard` — an RFC / IETF draft states it (the spec is silent);
 *        `assumed`  — the spec says "not shown"; the target file's assumptions supply the value.
 */

export type Basis = 'spec' | 'standard' | 'assumed';

export interface Clause {
  id: string;
  /** Section of the spec, as printed in reports: "§4.4". */
  section: string;
  summary: string;
  basis: Basis;
}

const c = (id: string, section: string, basis: Basis, summary: string): Clause => ({ id, section, basis, summary });

export const CLAUSES = [
  // Part 2: resources
  c('2.customer.shape', '§2 Customer', 'spec', 'Customer list items have the fields and types of part 2'),
  c(
    '2.conversation.shape',
    '§2 Conversation',
    'spec',
    'Every conversation key is always present; unset optional values are null (routingNotes may be absent)',
  ),
  c('2.conversation.key-pattern', '§2 Conversation', 'spec', 'status and priority keys match ^[a-z0-9][a-z0-9_-]{0,62}$'),
  c('2.turn.shape', '§2 Assistant chat turn', 'spec', 'A chat turn has its required fields; answer and action proposals have their shapes'),
  c(
    '2.receipt.shape',
    '§2 Action receipt',
    'spec',
    'Action receipts have their required fields; undo.status is available|changed|unavailable|undone',
  ),
  c('2.session.shape', '§2 Assistant chat session', 'spec', 'Chat sessions have id, conversationId, title, status and their timestamps'),
  c(
    '2.descriptor.shape',
    '§2 Attachment download descriptor',
    'spec',
    'The download descriptor has url, expiresAt, filename, contentType and integer sizeBytes',
  ),
  c(
    '2.collection.shape',
    '§2 Help Center collection',
    'spec',
    'A collection has its fields and translations of {locale, slug, name, description, revision}',
  ),
  // "date-time format (ISO 8601)" is the spec's word: an ISO 8601 extended date-time conforms with or without
  // an offset. RFC 3339 (JSON Schema's and OpenAPI's date-time) is what asks for seconds and an offset: the
  // standard's basis, reported as a warning only (checks/shape.ts).
  c('2.datetime', '§2', 'spec', 'All timestamps are ISO 8601 date-time strings (extended format; offset, seconds and fraction optional)'),
  c(
    '2.datetime.rfc3339',
    '§2 RFC 3339',
    'standard',
    'Timestamps are RFC 3339 date-times (seconds and Z or ±hh:mm); a warning, the spec asks only for ISO 8601',
  ),
  c('2.id-prefixes', '§2', 'assumed', 'Ids carry the prefixes seen: cus_, conv_, cid_, req_'),

  // Part 3: states and transitions
  c('3.resolve.default-status', '§3 Conversation status', 'spec', 'Resolve without status moves to the default completed status'),
  c('3.resolve.completed-key', '§3 Conversation status', 'spec', 'Resolve with a completed-type key moves to that key'),
  c(
    '3.resolve.any-state',
    '§3 Conversation status',
    'spec',
    'The resolve rows start from state "any": from every status, active-type or completed-type, resolve without status moves to the default completed status and with a completed-type key to that key',
  ),
  c(
    '3.resolve.active-key-rejected',
    '§3 Conversation status',
    'spec',
    'Resolve with an active-type key is rejected with conversations.invalid_resolution_status and the status is unchanged',
  ),
  c('3.assign.status-unchanged', '§3 Conversation status', 'spec', 'Assign never changes the status'),
  c('3.assign.sets-and-clears', '§4.7', 'spec', 'Assign sets assignee/team; assignee.id "" and team "" clear them'),
  c('3.turn.cancel-pending', '§3 Assistant chat turn', 'spec', 'Cancelling a pending turn moves it to cancelled'),
  c('3.turn.cancel-repeat-safe', '§3 Assistant chat turn', 'spec', 'An identical repeat of a cancel is safe'),
  c('3.turn.cancel-completed-409', '§3 Assistant chat turn', 'spec', 'Cancelling a completed turn returns 409 and leaves it unchanged'),
  c('3.turn.completed-has-answer', '§3 Assistant chat turn', 'spec', 'A completed turn has its answer populated'),
  // "The enumerated values of a turn's status: not shown": the values compared are the target's turnStatus.
  c('3.turn.status-values', '§3 Assistant chat turn', 'assumed', 'Turn status values are the assumed pending/completed/cancelled values'),
  c('3.customer.soft-delete-unlisted', '§3 Customer', 'spec', 'A deleted customer no longer appears in lists'),
  c('3.customer.soft-delete-history', '§3 Customer', 'spec', 'A deleted customer is retained so conversation history still resolves'),

  // Part 4: endpoints
  c('4.1.turn.get', '§4.1', 'spec', 'GET turn returns 200 { data: <chat turn> }'),
  c('4.1.chat.owner-only', '§4.1', 'spec', 'Chats are accessible only to the key that owns them; other connections are isolated'),
  c('4.1.chat.admin-only', '§4.1', 'spec', 'Chat access requires current owner/admin membership'),
  c('4.3.sessions.max-100', '§4.3', 'spec', 'At most 100 unexpired chats are returned'),
  c('4.3.sessions.order', '§4.3', 'spec', 'Sessions are listed newest activity first'),
  c('4.3.sessions.archived-included', '§4.3', 'spec', 'Archived chats are included in the listing'),
  c('4.3.sessions.no-pagination', '§4.3', 'spec', 'The sessions list has no pagination keys'),
  c(
    '4.3.sessions.this-conversation',
    '§4.3',
    'spec',
    "Only chats of that conversation are listed: every listed chat's conversationId is the listed conversation",
  ),
  c(
    '4.3.sessions.unexpired',
    '§4.3',
    'spec',
    "Only unexpired chats are listed: no listed chat's retentionExpiresAt lies before the answer's time (Date header, RFC 9110; 60 s tolerance)",
  ),
  c(
    '4.2.cancel.admin-only',
    '§4.2 §5',
    'spec',
    'Cancel has the access rules of 4.1: a key whose holder is no longer owner/admin cannot cancel its own turn (403)',
  ),
  c('4.2.cancel.response', '§4.2', 'spec', 'Cancelling a pending turn answers 200 { data: <chat turn> } with that turn'),
  c('4.4.limit.default', '§4.4', 'spec', 'The default page size is 25'),
  c('4.4.limit.max', '§4.4', 'spec', 'A page never holds more than limit items, and limit is at most 100'),
  c('4.4.limit.out-of-range', '§4.4', 'assumed', 'limit outside 1..100 or not an integer is rejected with 400'),
  c('4.4.cursor.tampered', '§4.4', 'spec', 'A malformed or tampered cursor returns 400'),
  c('4.4.cursor.traversal', '§4.4', 'spec', 'Following nextCursor yields every item exactly once in a stable order'),
  c(
    '4.4.cursor.stable-under-writes',
    '§4.4',
    'spec',
    'Keyset traversal neither repeats nor skips items that existed throughout when items are created or deleted between pages',
  ),
  c(
    '4.4.cursor.filter-bound',
    '§4.4',
    'assumed',
    'A cursor presented with different filters, or to another endpoint, is rejected with 400',
  ),
  c('4.4.has-more', '§4.11', 'spec', 'hasMore is true exactly when nextCursor is a string'),
  c('4.4.search', '§4.4', 'spec', 'Text search is a case-insensitive substring match over name, email and company'),
  c('4.4.external-id', '§4.4', 'spec', 'The external-id filter returns exactly the customers with that externalId'),
  c('4.4.identity.pair', '§4.4', 'spec', 'Identity type and identityIdentifier must be given together (one alone is rejected)'),
  // 4.4 says "both must be given together" but shows no status for a request that gives one.
  c('4.4.identity.pair-status', '§4.4', 'assumed', 'A lone identity type or identifier is rejected with the assumed validation status'),
  c('4.4.identity.result', '§4.4', 'spec', 'An identity lookup returns a list of 0 or 1 items'),
  c('4.5.delete.idempotent', '§4.5', 'spec', 'Deleting a customer is idempotent'),
  c('4.5.delete.status', '§4.5', 'assumed', 'Customer delete answers with the assumed success status'),
  c('4.6.descriptor', '§4.6', 'spec', 'Download returns a descriptor, no file bytes'),
  c('4.6.expiry', '§4.6', 'spec', 'The signed URL expires five minutes after issue'),
  // 4.6 "temporary signed URL" of the descriptor, which names the file's sizeBytes: within its five minutes it serves that file
  c('4.6.url-served', '§4.6', 'spec', 'Within its five minutes the signed URL serves the file the descriptor describes (sizeBytes)'),
  c('4.6.scopes', '§4.6', 'spec', 'Download requires both attachments:read and conversations:read (else 403)'),
  c('4.6.unavailable-422', '§4.6', 'spec', 'External URLs and provider attachments still being fetched return 422'),
  c('4.6.deleted', '§4.6', 'spec', 'Attachments of deleted messages are not downloadable'),
  // 4.6 "files outside the workspace are not downloadable": the refusal's status is not shown, so any 4xx.
  c(
    '4.6.other-workspace',
    '§4.6 §5',
    'spec',
    "Files outside the workspace are not downloadable: a key of another workspace gets a 4xx for this workspace's attachment",
  ),
  c('4.7.assign.body-required', '§4.7', 'spec', 'Assign without assignee and team is rejected'),
  c('4.7.idempotency.conflict', '§4.7', 'spec', 'Assign: reusing an Idempotency-Key with a different body returns 409'),
  c('4.7.idempotency.key-length', '§4.7', 'spec', 'Assign/resolve Idempotency-Key length is 8..255'),
  c('4.8.idempotency.conflict', '§4.8', 'spec', 'Resolve: reusing an Idempotency-Key with a different body returns 409'),
  c('4.9.idempotency.conflict', '§4.9', 'spec', 'Collection update: a changed payload under a used key conflicts (409)'),
  c('4.9.idempotency.key-pattern', '§4.9', 'spec', 'Collection update Idempotency-Key matches ^[!-~]{8,128}$'),
  c('4.9.idempotency.replay', '§4.9', 'spec', 'Retrying the identical collection update with the same key is safe (one effect)'),
  c(
    '4.9.idempotency.revoked-no-replay',
    '§4.9 §5',
    'spec',
    'Revoked or expired grants cannot replay: an identical collection update under a used key from a revoked or expired key answers 401, not the stored answer',
  ),
  c(
    'idempotency.replay',
    '§4.7 §4.8',
    'standard',
    'An identical retry under the same key succeeds and takes effect once: it answers the first response or the resource as it stands, never a new write',
  ),
  // The IETF Idempotency-Key draft recommends (SHOULD) replaying the first response; the spec asks only that
  // a retry be safe, so a replay showing the resource as it stands is not even a warning.
  c(
    'idempotency.replay.same-response',
    '§4.7 §4.8 §4.9',
    'standard',
    'A retry under the same key answers the first response as it was (IETF Idempotency-Key draft: SHOULD), or the resource as it now stands',
  ),
  c('idempotency.concurrent', '§4.7 §4.8 §4.9', 'standard', 'Concurrent identical requests under one key take effect once'),
  c('idempotency.per-connection', '§4.7 §4.8 §4.9', 'assumed', 'Idempotency keys are scoped to the connection that used them'),
  // 4.9 asks the caller to read the revision and supply it, but states neither the rejection of a stale one
  // nor that an update advances it: both are the usual optimistic-concurrency reading, hence assumed.
  c('4.9.collection.expected-revision', '§4.9', 'assumed', 'An update with a stale expectedRevision is rejected'),
  c('4.9.collection.revision-advances', '§4.9', 'assumed', 'A successful update advances the revision'),
  c('4.9.collection.replaces', '§4.9', 'spec', 'The update replaces the editable fields with those sent'),
  c('4.9.collection.body-limit', '§4.9', 'spec', 'A collection update body above 64 KiB returns 413'),
  c('4.9.collection.delegation', '§4.9 §5', 'spec', 'Authoring changes require an explicitly delegated connection (else 403)'),
  c(
    '4.9.collection.owner-admin',
    '§4.9 §5',
    'spec',
    'Collection updates require a current workspace owner/admin: a delegated connection of a demoted holder is refused (403)',
  ),
  c('4.9.collection.parent-kept', '§4.9', 'spec', 'parentId omitted or null keeps the parent ("omitted or null keeps the parent")'),
  c(
    '4.9.collection.parent-root',
    '§4.9',
    'spec',
    'parentId "" moves the collection to the root ("empty string moves the collection to the root")',
  ),
  c('4.10.me', '§4.10', 'spec', 'GET /me answers 200 with JSON'),
  c('4.10.statuses', '§4.10', 'spec', 'GET /statuses lists keys that match the key pattern'),
  // Seeded keys exist in seeded workspaces only; which keys a real workspace has is the target file's word.
  c('4.10.keys.known', '§4.10 §3', 'assumed', 'GET /statuses lists the status keys the target assumes (activeStatuses, completedStatuses)'),
  c('4.10.priorities', '§4.10', 'spec', 'GET /priorities lists keys that match the key pattern, including the seeded ones'),
  c('4.10.articles.after', '§4.10', 'spec', 'The articles list pages with `after`, returns data and nextCursor and no hasMore'),
  c('4.11.cursor.url-encoded', '§4.11', 'spec', 'Cursors round-trip when URL-encoded'),

  // Part 5: authentication
  c('5.auth.missing', '§5', 'spec', 'A request without Authorization returns 401'),
  c('5.auth.scheme', '§5', 'spec', 'A non-Bearer Authorization header returns 401'),
  c('5.auth.bad-secret', '§5', 'spec', 'A malformed or unknown key returns 401'),
  c('5.auth.expired', '§5', 'spec', 'An expired key returns 401'),
  c('5.auth.revoked', '§5', 'spec', 'A revoked key returns 401'),
  c('5.auth.prefixes', '§5', 'spec', 'Keys with prefixes pk_, pk_live_ and pk_test_ are accepted'),
  c('5.auth.legacy-no-isolation', '§5', 'spec', 'pk_live_ and pk_test_ mark mode only: they see the same workspace data'),
  // 5.8 "403: missing scope"; which scope an operation needs comes only from the spec's own words: 4.6 (download:
  // attachments:read and conversations:read) and the 5.4 scope table's purposes (read customers: customers:read;
  // manage customers: customers:write; manage conversations: conversations:write; read Help Center articles:
  // help:read). Operations whose scope the text does not name (chats, /me, /statuses, collection update) are left out.
  c(
    '5.scope.missing',
    '§5 §4.6',
    'spec',
    'A key missing a scope an operation needs gets 403: customers list (customers:read), customer delete (customers:write), assign and resolve (conversations:write), download (attachments:read, conversations:read), articles (help:read)',
  ),
  // 5.1 "Keys are bound to one workspace": whether another workspace's id answers 403 or 404 is not shown.
  c(
    '5.workspace-bound',
    '§5',
    'spec',
    "A key is bound to one workspace: a key of another workspace does not list or find (search, identity lookup) this workspace's customers or chats, and is refused its chat turns and writes (cancel, assign, resolve, delete, collection update), which change nothing",
  ),
  c('5.workspace-header', '§5', 'spec', 'X-Workspace-Id is not needed'),

  // Part 7: errors
  c('7.request-id.header', '§7', 'spec', 'Every response carries X-Request-Id'),
  c('7.request-id.matches', '§7', 'spec', 'X-Request-Id equals error.requestId on error responses'),
  c('7.error.envelope', '§7', 'spec', 'Every error body is the envelope { error: { code, message, requestId } }'),
  c('7.route.not-found', '§7', 'spec', 'An unknown route or resource answers error code route.not_found'),
  // Part 7 gives route.not_found no HTTP status (its status table has no 404 row): the status is assumed.
  c('7.route.not-found-status', '§7', 'assumed', 'route.not_found answers the assumed HTTP status (404 by default)'),
  c('7.unknown-status', '§7', 'spec', 'An undefined status key is rejected with conversations.unknown_status'),
  c('7.error.status-codes', '§7', 'assumed', 'The conversations.* errors use the assumed HTTP statuses'),

  // Part 8: limits
  c(
    '8.ratelimit.headers',
    '§8',
    'spec',
    'RateLimit-Limit, RateLimit-Remaining and RateLimit-Reset are present and integral on every /v1 response',
  ),
  c('8.ratelimit.remaining-bounds', '§8', 'standard', '0 <= RateLimit-Remaining <= RateLimit-Limit'),
  c('8.ratelimit.remaining-decreases', '§8', 'standard', 'Within a window, Remaining decreases as requests are admitted'),
  // "RateLimit-Limit (budget of the route class, integer)": the spec's own words make it one value per class.
  c(
    '8.ratelimit.limit-constant',
    '§8',
    'spec',
    'RateLimit-Limit is the budget of the route class: one integer for every response of a class and key',
  ),
  c('8.ratelimit.over-admission', '§8', 'spec', 'No more requests are admitted in a window than the class budget'),
  c('8.ratelimit.under-admission', '§8', 'standard', 'No 429 while the budget had requests remaining'),
  c('8.ratelimit.reset-restores', '§8', 'spec', 'The budget is full again when RateLimit-Reset said'),
  c(
    '8.ratelimit.reset-plausible',
    '§8',
    'spec',
    'RateLimit-Reset counts seconds until the budget is full again: a delta (at most a year, never an epoch time) that falls no faster than time',
  ),
  c('8.ratelimit.reset-window', '§8', 'assumed', 'RateLimit-Reset is no longer than the window the target file states'),
  c('8.ratelimit.retry-after', '§8', 'spec', 'A 429 carries an integer Retry-After'),
  c('8.ratelimit.retry-after-honoured', '§8', 'standard', 'A request sent after Retry-After elapsed is not refused for the same budget'),
  c('8.ratelimit.classes-isolated', '§8', 'spec', 'Read and write route classes each have their own budget'),
  c('8.ratelimit.429-code', '§7 §8', 'spec', 'A 429 body is the envelope with code rate_limit.exceeded'),
  c(
    '8.ratelimit.remaining-rises',
    '§8',
    'standard',
    'RateLimit-Remaining rises only as budget comes back: by no more than the budget can refill',
  ),
  c('8.ratelimit.stated-budget', '§8', 'assumed', 'The budget the target file states agrees with the announced RateLimit-Limit and window'),
  c('8.body.read-limit', '§8', 'spec', 'A read request body above 1 KB returns 413'),
  c('8.body.write-limit', '§8', 'spec', 'A write request body above 64 KB returns 413'),
  c('8.body.code', '§7 §8', 'spec', '413 answers carry code request.body_too_large'),
] as const satisfies readonly Clause[];

export type ClauseId = (typeof CLAUSES)[number]['id'];

const BY_ID = new Map<string, Clause>(CLAUSES.map((cl) => [cl.id, cl]));

/** Looks up a clause by id; throws on an unknown id (a programming error, caught by tests). */
export function clause(id: ClauseId): Clause {
  const found = BY_ID.get(id);
  if (!found) throw new Error(`unknown clause id ${id}`);
  return found;
}

/** True when the id names a registered clause. */
export function isClauseId(id: string): id is ClauseId {
  return BY_ID.has(id);
}
