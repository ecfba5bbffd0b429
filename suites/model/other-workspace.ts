/**
 * auth.other-workspace (spec 5.1 "Keys are bound to one workspace"): a valid key of another workspace must
 * not see this workspace's customers or chats, read its chat turns, or change its conversations and
 * customers (assign and resolve refused with 403 or 404; after a delete, whatever its answer, the customer is
 * still listed for the admin key; each record unchanged as the admin key reads it).
 *
 * A record "leaks" only when the other key is answered the SAME record: same id and same createdAt. Two
 * workspaces seeded by one script may legitimately hold customers with equal externalIds, names, or even
 * ids where ids are per workspace; such look-alikes are not the same record and are no finding. Whether a
 * foreign id answers 403 or 404 is not shown, so both pass.
 */
import type { Exchange } from '../../src/client/exchange.js';
import { FixtureUnavailable } from '../../src/conformance/fixtures/provider.js';
import { CheckAbort, Recorder, describeAnswer, statusOf } from '../../src/conformance/recorder.js';
import type { CheckOutcome, SuiteContext } from '../../src/conformance/suite.js';
import type { TurnRef } from '../../src/conformance/fixtures/needs.js';
import { assignRequest, getTurnRequest, resolveRequest, sessionsRequest } from './requests.js';
import { dataOf, observe } from './world.js';
import { inFullList, unfinishedWalk } from './customer-list.js';
import { foreignListing, sessionsOf } from './sessions.js';

interface CustomerRecordRef {
  id: string;
  createdAt: unknown;
  externalId: unknown;
}

const OTHER = 'otherWorkspace' as const;
const MARK = 'spgate-other-workspace';

function customersOf(x: Exchange): CustomerRecordRef[] | undefined {
  const data = (x.response?.json as { data?: unknown } | undefined)?.data;
  if (statusOf(x) !== 200 || !Array.isArray(data)) return undefined;
  return data.filter((d): d is CustomerRecordRef => !!d && typeof d === 'object' && typeof (d as { id?: unknown }).id === 'string');
}

/** The items of `seen` that are records of `mine` (same id and same createdAt). */
export function sameRecords(mine: readonly CustomerRecordRef[], seen: readonly CustomerRecordRef[]): string[] {
  const byId = new Map(mine.map((c) => [c.id, c]));
  return seen.filter((c) => {
    const m = byId.get(c.id);
    return m !== undefined && typeof m.createdAt === 'string' && m.createdAt === c.createdAt;
  }).map((c) => c.id);
}

/** A listing by the other key: 200 without any of `mine`, or 403 (the key may lack customers:read). */
function expectNotListed(rec: Recorder, x: Exchange, mine: readonly CustomerRecordRef[], what: string): void {
  const s = statusOf(x);
  const seen = customersOf(x);
  rec.expect(s === 403 || seen !== undefined, `${what}: HTTP 200 with a data array, or 403`, () => describeAnswer(x), [x]);
  const leaked = seen ? sameRecords(mine, seen) : [];
  rec.expect(leaked.length === 0, `${what}: none of this workspace's customers`, () => `${leaked.length} of them listed: ${leaked.slice(0, 3).join(', ')}`, [x]);
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

/** Runs the parts the target's data allows; the parts it cannot try are named in the note. */
export async function runOtherWorkspace(ctx: SuiteContext): Promise<CheckOutcome> {
  const rec = new Recorder(ctx);
  const untried: string[] = [];
  const optional = async (what: string, part: () => Promise<void>): Promise<void> => {
    try {
      await part();
    } catch (err) {
      if (!(err instanceof FixtureUnavailable)) throw err;
      untried.push(`${what} (${err.message})`);
    }
  };
  try {
    const list = { method: 'GET', path: '/customers', query: { limit: 100 } } as const;
    const a = await rec.send({ ...list, role: 'admin' });
    const mine = customersOf(a);
    rec.require(mine !== undefined, 'the admin key to list this workspace\'s customers (200, to compare against)', () => describeAnswer(a), [a]);
    expectNotListed(rec, await rec.send({ ...list, role: OTHER }), mine!, 'GET /customers with the otherWorkspace key');
    const known = mine!.find((c) => typeof c.externalId === 'string' && c.externalId !== '');
    if (known) {
      const q = { [ctx.target.assumptions.params.externalId]: String(known.externalId), limit: 100 };
      expectNotListed(rec, await rec.send({ method: 'GET', path: '/customers', query: q, role: OTHER }), mine!, 'the external-id filter for a customer of this workspace, with the otherWorkspace key');
    } else untried.push('the external-id filter (no listed customer has an externalId)');

    await optional('a chat turn', async () => {
      const t = await someTurn(ctx);
      const x = await rec.send(getTurnRequest(t.sessionId, t.turnId, OTHER));
      rec.expect([403, 404].includes(statusOf(x) ?? 0), 'HTTP 403 or 404 for this workspace\'s chat turn with the otherWorkspace key', () => describeAnswer(x), [x]);
    });

    await optional('the chats list', async () => {
      const id = await dataOf(ctx).get('sessionsConversation');
      const a = await rec.send(sessionsRequest(id));
      // Without the admin's own chats there is nothing to compare against: a listing it cannot read shows no leak.
      const mine = sessionsOf(a)?.map((s) => s.id);
      if (!mine?.length) throw new FixtureUnavailable(`the admin key's listing of conversation ${id} answered ${mine ? 'no chats' : describeAnswer(a)}`);
      const x = await rec.send(sessionsRequest(id, OTHER));
      const { ok, leaked } = foreignListing(x, mine);
      rec.expect(ok,
        'this workspace\'s conversation\'s chats listed with the otherWorkspace key: 403, 404, or 200 with a data array holding none of them',
        () => (leaked.length ? `${leaked.length} listed: ${leaked.slice(0, 3).join(', ')}` : describeAnswer(x)), [x]);
    });

    if (!ctx.target.allowWrites) untried.push('assign, resolve and customer delete (need allowWrites)');
    else {
      await optional('resolve', async () => {
        const id = await dataOf(ctx).get('conversation');
        const before = await observe(rec, id, null);
        const x = await rec.send(resolveRequest(ctx.target, id, {}, undefined, OTHER));
        rec.expect([403, 404].includes(statusOf(x) ?? 0), 'HTTP 403 or 404 for resolving this workspace\'s conversation with the otherWorkspace key', () => describeAnswer(x), [x]);
        const after = await observe(rec, id, null);
        rec.expect(after.state.status === before.state.status, 'the conversation\'s status unchanged by the refused resolve',
          () => `status ${before.state.status} → ${after.state.status}`, [before.x, x, after.x]);
      });
      await optional('customer delete', async () => {
        const id = await dataOf(ctx).get('customer');
        const before = await inFullList(rec, id);
        if (!before.found) throw new FixtureUnavailable(`pool customer ${id} is not in the customer list`);
        // Delete is idempotent (4.5) and its answer for an id the key's workspace does not hold is not
        // shown: a success there is legitimate. Only the effect is judged, through the admin's list.
        const x = await rec.send({ method: 'DELETE', path: `/customers/${encodeURIComponent(id)}`, role: OTHER });
        const after = await inFullList(rec, id);
        // A list the admin could not read to its end (a 5xx mid-walk, the page bound) shows nothing about the delete.
        const gap = unfinishedWalk(after);
        if (gap) throw new FixtureUnavailable(`the customer list could not be read after the delete (${gap})`);
        rec.expect(after.found, 'this workspace\'s customer still listed after deleting it with the otherWorkspace key', () => `${id} no longer in the list`, [x, ...after.xs.slice(-1)]);
      });
      await optional('assign', async () => {
        const id = await dataOf(ctx).get('conversation');
        const before = await observe(rec, id, null);
        const x = await rec.send(assignRequest(id, { assignee: { id: MARK }, team: MARK }, undefined, OTHER));
        rec.expect([403, 404].includes(statusOf(x) ?? 0), 'HTTP 403 or 404 for assigning this workspace\'s conversation with the otherWorkspace key', () => describeAnswer(x), [x]);
        const after = await observe(rec, id, null);
        rec.expect(after.state.assigneeId === before.state.assigneeId && after.state.status === before.state.status,
          'the conversation unchanged by the refused assign (assignee and status as before)',
          () => `assignee ${before.state.assigneeId} → ${after.state.assigneeId}, status ${before.state.status} → ${after.state.status}`, [before.x, x, after.x]);
      });
    }
  } catch (err) {
    if (!(err instanceof CheckAbort)) throw err;
    rec.failures.push(err.failure);
  }
  const out = rec.outcome();
  return out.status === 'passed' && untried.length ? { ...out, note: `not tried: ${untried.join('; ')}` } : out;
}
