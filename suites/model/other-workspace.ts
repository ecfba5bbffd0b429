/**
 * auth.other-workspace (spec 5.1 "Keys are bound to one workspace"): a valid key of another workspace must
 * not see this workspace's customers (list, external-id filter, text search, identity lookup), chats or Help
 * Center articles, be told this workspace by GET /me, read its chat turns, or change its turns, conversations
 * (a team too), customers and Help Center collections (cancel, assign, resolve, delete, collection update;
 * the articles, /me and team parts: model/other-workspace-views.ts). Each operation is one part (model/parts.ts): a part whose data or
 * control read is missing is named as untried, and the check is inconclusive when no part judged.
 *
 * A record "leaks" only when the other key is answered the SAME record: same id and same createdAt. Two
 * workspaces seeded by one script may legitimately hold customers with equal externalIds, names, or even
 * ids where ids are per workspace; such look-alikes are not the same record and are no finding. A search
 * part judges only when the admin key's own search finds the record (else it shows no leak, and not its
 * absence). Whether a foreign id answers 403 or 404 is not shown, so both pass; a foreign write may also
 * be refused as invalid (a server may check the body before the id). Effects are observed only through
 * shown operations, with this workspace's keys: the turn read, no-op assigns, the customer list, and an
 * update expecting the collection's revision as it was.
 */
import type { Exchange } from '../../src/client/exchange.js';
import { describeAnswer, isSuccess, jsonObject, statusOf, type Recorder } from '../../src/conformance/recorder.js';
import { inconclusive } from '../../src/conformance/inconclusive.js';
import type { CheckOutcome, SuiteContext } from '../../src/conformance/suite.js';
import type { TurnRef } from '../../src/conformance/fixtures/needs.js';
import { FixtureUnavailable, Moved } from '../../src/conformance/fixtures/provider.js';
import type { ConversationState } from './conversation.js';
import {
  assignRequest,
  assignValues,
  cancelTurnRequest,
  collectionRequest,
  freshKey,
  getTurnRequest,
  resolveRequest,
  sessionsRequest,
  uniqueSlug,
} from './requests.js';
import { firstUpdate, revisionOf } from './collections.js';
import { cannotJudge, dataOf, shownState } from './world.js';
import { inFullList, unfinishedWalk } from './customer-list.js';
import { foreignListing, sessionsOf } from './sessions.js';
import { Parts, unanswered } from './parts.js';
import { teamChangePart, viewParts } from './other-workspace-views.js';

interface CustomerRecordRef {
  id: string;
  createdAt: unknown;
  externalId: unknown;
  email?: unknown;
  name?: unknown;
}

const OTHER = 'otherWorkspace' as const;
const WRITES = 'allowWrites: true in the target file';

function customersOf(x: Exchange): CustomerRecordRef[] | undefined {
  const data = (x.response?.json as { data?: unknown } | undefined)?.data;
  if (statusOf(x) !== 200 || !Array.isArray(data)) return undefined;
  return data.filter((d): d is CustomerRecordRef => !!d && typeof d === 'object' && typeof (d as { id?: unknown }).id === 'string');
}

/** The items of `seen` that are records of `mine` (same id and same createdAt). */
export function sameRecords(mine: readonly CustomerRecordRef[], seen: readonly CustomerRecordRef[]): string[] {
  const byId = new Map(mine.map((c) => [c.id, c]));
  return seen
    .filter((c) => {
      const m = byId.get(c.id);
      return m !== undefined && typeof m.createdAt === 'string' && m.createdAt === c.createdAt;
    })
    .map((c) => c.id);
}

/** A listing by the other key: 200 without any of `mine`, or 403 (the key may lack customers:read). */
function expectNotListed(rec: Recorder, x: Exchange, mine: readonly CustomerRecordRef[], what: string): void {
  if (unanswered(x)) return cannotJudge(rec, `${what} answered ${describeAnswer(x)}`);
  const seen = customersOf(x);
  rec.expect(statusOf(x) === 403 || seen !== undefined, `${what}: HTTP 200 with a data array, or 403`, () => describeAnswer(x), [x]);
  const leaked = seen ? sameRecords(mine, seen) : [];
  rec.expect(
    leaked.length === 0,
    `${what}: none of this workspace's customers`,
    () => `${leaked.length} of them listed: ${leaked.slice(0, 3).join(', ')}`,
    [x],
  );
}

/**
 * The same customer query with the admin key, then the other key. Judges only when the admin's answer lists
 * some record (`want`, when given, among them): otherwise the other key's answer can show no leak.
 */
async function queryBoth(rec: Recorder, query: Record<string, string | number>, what: string, want?: string): Promise<void> {
  const a = await rec.send({ method: 'GET', path: '/customers', query, role: 'admin' });
  const mine = customersOf(a);
  if (!mine?.length || (want !== undefined && !mine.some((c) => c.id === want))) {
    inconclusive(`the admin key's ${what} ${mine ? `lists ${want ? `no ${want}` : 'no customer'}` : `answered ${describeAnswer(a)}`}`);
  }
  expectNotListed(
    rec,
    await rec.send({ method: 'GET', path: '/customers', query, role: OTHER }),
    mine!,
    `the ${what} with the otherWorkspace key`,
  );
}

/** A foreign write's answer: refused with 403 or 404, or as invalid (its effect is judged apart). */
function expectRefused(ctx: SuiteContext, rec: Recorder, x: Exchange, what: string): void {
  if (unanswered(x)) return; // no refusal to judge; the effect still is
  const ok = [403, 404, 400, 422, ctx.target.assumptions.statuses.validation].includes(statusOf(x)!);
  rec.expect(ok, `HTTP 403 or 404 (or a validation refusal) for ${what} with the otherWorkspace key`, () => describeAnswer(x), [x]);
}

/** The conversation's state as the admin key's no-op assign shows it (the team cleared, as observe() does). */
async function stateOf(rec: Recorder, id: string, when: string): Promise<{ state: ConversationState; x: Exchange } | undefined> {
  const x = await rec.send(assignRequest(id, { team: '' }));
  const state = shownState(x);
  if (!state) cannotJudge(rec, `the admin key's assign that reads conversation ${id}'s state ${when} answered ${describeAnswer(x)}`);
  return state && { state, x };
}

/** A turn's status as the admin key reads it, or undefined. */
function turnStatus(x: Exchange): unknown {
  const data = jsonObject(x)?.data;
  return statusOf(x) === 200 && data && typeof data === 'object' ? (data as { status?: unknown }).status : undefined;
}

/** A turn of this workspace's admin key: the completed one, else the pending one (both only read). */
async function someTurn(ctx: SuiteContext): Promise<TurnRef> {
  try {
    return await dataOf(ctx).get('completedTurn');
  } catch (err) {
    if (!(err instanceof FixtureUnavailable)) throw err;
    return dataOf(ctx).get('readPendingTurn');
  }
}

/** The foreign reads: listings, search, identity lookup, a turn, a conversation's chats. */
async function readParts(ctx: SuiteContext, parts: Parts): Promise<void> {
  const p = ctx.target.assumptions.params;
  let mine: CustomerRecordRef[] = [];
  await parts.run('the customer list', async (rec) => {
    const list = { method: 'GET', path: '/customers', query: { limit: 100 } } as const;
    const a = await rec.send({ ...list, role: 'admin' });
    mine = customersOf(a) ?? [];
    if (!mine.length) inconclusive(`the admin key's customer list ${customersOf(a) ? 'is empty' : `answered ${describeAnswer(a)}`}`);
    expectNotListed(rec, await rec.send({ ...list, role: OTHER }), mine, 'GET /customers with the otherWorkspace key');
  });
  const withExternal = mine.find((c) => typeof c.externalId === 'string' && c.externalId !== '');
  if (withExternal)
    await parts.run('the external-id filter', (rec) =>
      queryBoth(rec, { [p.externalId]: String(withExternal.externalId), limit: 100 }, 'external-id filter', withExternal.id),
    );
  else parts.untry('the external-id filter', 'no customer the admin key lists has an externalId');
  const term =
    mine.find((c) => typeof c.email === 'string' && c.email !== '') ?? mine.find((c) => typeof c.name === 'string' && c.name !== '');
  if (term)
    await parts.run('the text search', (rec) =>
      queryBoth(rec, { [p.search]: String(term.email || term.name), limit: 100 }, 'text search', term.id),
    );
  else parts.untry('the text search', 'no customer the admin key lists has an email or a name to search for');
  await parts.run('the identity lookup', async (rec) => {
    const { identifier, customerId } = await dataOf(ctx).get('identity');
    await queryBoth(
      rec,
      { [p.identityType]: ctx.target.assumptions.identityTypeValue, identityIdentifier: identifier },
      'identity lookup',
      customerId,
    );
  });
  await parts.run('a chat turn read', async (rec) => {
    const t = await someTurn(ctx);
    const x = await rec.send(getTurnRequest(t.sessionId, t.turnId, OTHER));
    if (unanswered(x)) return cannotJudge(rec, `the turn read with the otherWorkspace key answered ${describeAnswer(x)}`);
    rec.expect(
      [403, 404].includes(statusOf(x)!),
      "HTTP 403 or 404 for this workspace's chat turn with the otherWorkspace key",
      () => describeAnswer(x),
      [x],
    );
  });
  await parts.run('the chats list', async (rec) => {
    const id = await dataOf(ctx).get('sessionsConversation');
    const a = await rec.send(sessionsRequest(id));
    // Without the admin's own chats there is nothing to compare against: a listing it cannot read shows no leak.
    const own = sessionsOf(a)?.map((s) => s.id);
    if (!own?.length) inconclusive(`the admin key's listing of conversation ${id} answered ${own ? 'no chats' : describeAnswer(a)}`);
    const x = await rec.send(sessionsRequest(id, OTHER));
    if (unanswered(x)) return cannotJudge(rec, `the chats list with the otherWorkspace key answered ${describeAnswer(x)}`);
    const { ok, leaked } = foreignListing(x, own!);
    rec.expect(
      ok,
      "this workspace's conversation's chats listed with the otherWorkspace key: 403, 404, or 200 with a data array holding none of them",
      () => (leaked.length ? `${leaked.length} listed: ${leaked.slice(0, 3).join(', ')}` : describeAnswer(x)),
      [x],
    );
  });
}

/** The foreign writes, each judged by its answer and by its effect as this workspace's keys observe it. */
async function writeParts(ctx: SuiteContext, parts: Parts): Promise<void> {
  await parts.run('cancel', async (rec) => {
    const { pending, completed } = ctx.target.assumptions.turnStatus;
    const { before, x, after } = await dataOf(ctx).confirmed('pendingTurn', async (t) => {
      const before = await rec.send(getTurnRequest(t.sessionId, t.turnId));
      if (turnStatus(before) !== pending)
        return new Moved(
          `pool turn ${t.turnId} is not pending for the admin key (HTTP ${statusOf(before) ?? 'none'}, status ${String(turnStatus(before))})`,
        );
      const x = await rec.send(cancelTurnRequest(t.sessionId, t.turnId, OTHER));
      const after = await rec.send(getTurnRequest(t.sessionId, t.turnId));
      // A refused cancel and a turn now completed: it finished by itself (the foreign cancel would have cancelled it).
      if (!isSuccess(x) && turnStatus(after) === completed) return new Moved(`pool turn ${t.turnId} completed by itself during the check`);
      return { before, x, after };
    });
    if (!unanswered(x))
      rec.expect(
        [403, 404].includes(statusOf(x)!),
        "HTTP 403 or 404 for cancelling this workspace's chat turn with the otherWorkspace key",
        () => describeAnswer(x),
        [x],
      );
    if (turnStatus(after) === undefined)
      return cannotJudge(rec, `the admin key's read of the turn after the cancel answered ${describeAnswer(after)}`);
    rec.expect(
      turnStatus(after) === pending,
      "the turn still pending after the otherWorkspace key's cancel",
      () => `status ${String(turnStatus(after))}`,
      [before, x, after],
    );
  });
  await parts.run('resolve', async (rec) => {
    const id = await dataOf(ctx).get('conversation');
    const before = await stateOf(rec, id, 'before the resolve');
    if (!before) return;
    // A resolve into the status the conversation already has would change nothing, on any server.
    const a = ctx.target.assumptions;
    const status = [a.defaultCompletedStatus, ...a.completedStatuses].find((s) => s !== before.state.status);
    if (!status)
      inconclusive(
        `conversation ${id} is in the only known completed status`,
        'assumptions.completedStatuses: a second completed-type status',
      );
    const x = await rec.send(resolveRequest(ctx.target, id, { status }, undefined, OTHER));
    expectRefused(ctx, rec, x, "resolving this workspace's conversation");
    const after = await stateOf(rec, id, 'after the resolve');
    if (!after) return;
    rec.expect(
      after.state.status === before.state.status,
      "the conversation's status unchanged by the otherWorkspace key's resolve",
      () => `status ${before.state.status} → ${after.state.status}`,
      [before.x, x, after.x],
    );
  });
  await parts.run('customer delete', async (rec) => {
    const id = await dataOf(ctx).get('customer');
    const before = await inFullList(rec, id);
    if (!before.found)
      inconclusive(
        `pool customer ${id} is not in the customer list (${unfinishedWalk(before) ?? 'the whole list read'})`,
        'fixtures.ids.pools.customers: a listed customer',
      );
    // Delete is idempotent (4.5) and its answer for an id the key's workspace does not hold is not
    // shown: a success there is legitimate. Only the effect is judged, through the admin's list.
    const x = await rec.send({ method: 'DELETE', path: `/customers/${encodeURIComponent(id)}`, role: OTHER });
    const after = await inFullList(rec, id);
    // A list the admin could not read to its end (a 5xx mid-walk, the page bound) shows nothing about the delete.
    const gap = unfinishedWalk(after);
    if (gap) return cannotJudge(rec, `the customer list could not be read after the delete (${gap})`);
    rec.expect(
      after.found,
      "this workspace's customer still listed after deleting it with the otherWorkspace key",
      () => `${id} no longer in the list`,
      [x, ...after.xs.slice(-1)],
    );
  });
  await parts.run('assign', async (rec) => {
    const id = await dataOf(ctx).get('conversation');
    const before = await stateOf(rec, id, 'before the assign');
    if (!before) return;
    // Values this workspace accepts, so a server that lets the foreign key through applies them.
    const v = assignValues(ctx.target);
    const assignee = v.assigneeIds.find((a) => a !== before.state.assigneeId) ?? v.assigneeIds[0]!;
    const x = await rec.send(assignRequest(id, { assignee: { id: assignee }, team: v.teams[0]! }, undefined, OTHER));
    expectRefused(ctx, rec, x, "assigning this workspace's conversation");
    const after = await stateOf(rec, id, 'after the assign');
    if (!after) return;
    const same = (['assigneeId', 'team', 'status'] as const).every((k) => after.state[k] === before.state[k]);
    rec.expect(
      same,
      "the conversation unchanged by the otherWorkspace key's assign (assignee, team and status as before)",
      () =>
        `assignee ${before.state.assigneeId} → ${after.state.assigneeId}, team ${before.state.team} → ${after.state.team}, status ${before.state.status} → ${after.state.status}`,
      [before.x, x, after.x],
    );
  });
  if (ctx.target.secrets.helpDelegated === undefined)
    parts.untry('collection update', 'no helpDelegated key to observe the collection with', 'keys.helpDelegated');
  else await parts.run('collection update', (rec) => collectionPart(ctx, rec));
}

/**
 * The foreign update of a pool collection between two of this workspace's own: the first tells the revision
 * as it stands (firstUpdate: an item edited since the seed is passed over), the last expects it again and
 * succeeds only if nothing changed the collection in between (4.9: a stale revision is refused). Slugs are
 * unique per run (uniqueSlug: seed and clock), so a Help Center that keeps slugs unique refuses none of them.
 * A revision moved after a refused foreign update is not blamed on it: another writer explains it as well.
 */
async function collectionPart(ctx: SuiteContext, rec: Recorder): Promise<void> {
  const body = (name: string, revision: number) => ({ name, slug: uniqueSlug(ctx.fc.seed, name), expectedRevision: revision });
  const {
    c,
    xs: [first],
  } = await firstUpdate(ctx, async (c) => [await rec.send(collectionRequest(c.id, body('spgate own before', c.revision), freshKey()))]);
  const revision = revisionOf(first!);
  if (revision === undefined)
    return cannotJudge(
      rec,
      `the helpDelegated key's own first update of collection ${c.id} answered HTTP ${statusOf(first!) ?? 'none'}, so its revision is unknown`,
    );
  const x = await rec.send(collectionRequest(c.id, body('spgate other workspace', revision), freshKey(), OTHER));
  expectRefused(ctx, rec, x, "updating this workspace's collection");
  const after = await rec.send(collectionRequest(c.id, body('spgate own workspace', revision), freshKey()));
  const s = statusOf(after);
  const stale = s === ctx.target.assumptions.statuses.staleRevision || s === 409;
  if (s !== 200 && !stale)
    return cannotJudge(rec, `the helpDelegated key's update expecting revision ${revision} answered HTTP ${s ?? 'none'}`);
  if (stale && !isSuccess(x)) {
    return cannotJudge(
      rec,
      `collection ${c.id}'s revision ${revision} moved on while the otherWorkspace key's update was refused (HTTP ${statusOf(x) ?? 'none'}): another writer explains that as well`,
      'a pool collection no one else edits during the run',
    );
  }
  rec.expect(
    s === 200,
    `the collection's revision unchanged by the otherWorkspace key's update (an update expecting revision ${revision} succeeds)`,
    () => describeAnswer(after),
    [x, after],
  );
}

/** Runs every part the target allows; see the header. */
export async function runOtherWorkspace(ctx: SuiteContext): Promise<CheckOutcome> {
  const parts = new Parts(ctx);
  await readParts(ctx, parts);
  await viewParts(parts);
  if (ctx.target.allowWrites) {
    await writeParts(ctx, parts);
    await teamChangePart(ctx, parts);
  } else
    for (const w of ['cancel', 'resolve', 'customer delete', 'assign', 'a team change', 'collection update'])
      parts.untry(w, 'needs allowWrites', WRITES);
  return parts.outcome();
}
