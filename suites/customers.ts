/**
 * Customer soft delete (spec 3 Customer, 4.4, 4.5): delete is idempotent, a deleted customer leaves every
 * list (unfiltered, text search, external-id filter) and stays resolvable from its conversations.
 * Filter parameter names are the target's assumptions (4.4: "not shown").
 */
import { defineSuite, type SuiteContext } from '../src/conformance/suite.js';
import type { Exchange } from '../src/client/exchange.js';
import { describeAnswer, isSuccess, jsonObject, runCase, statusOf, type Recorder } from '../src/conformance/recorder.js';
import { FixtureUnavailable } from '../src/conformance/fixtures/provider.js';
import { NEEDS } from '../src/conformance/fixtures/needs.js';
import { cannotJudge, dataOf, observe } from './model/world.js';
import { cutBySize, inFullList, listed, ownFilters, unfinishedWalk } from './model/customer-list.js';

const WRITES = { writes: true, data: { customer: 1 } } as const;

/** A customer this check may delete (a pool item). */
function disposableCustomer(ctx: SuiteContext): Promise<string> {
  return dataOf(ctx).get('customer');
}

/**
 * Walks the unfiltered list after a delete: found is true when the customer is in it, false when the whole
 * list was read without it. A walk stopped by its bound on a big list (`cut`) shows neither: when a filter
 * judged the delete already that is a note, else the check cannot judge. A page that could not be read
 * makes it inconclusive with the reason, unless it failed already on something else (then that is its verdict).
 */
async function listedAfterDelete(
  rec: Recorder,
  id: string,
  judgedByFilters: boolean,
): Promise<{ found: boolean; xs: Exchange[]; cut?: boolean } | undefined> {
  const full = await inFullList(rec, id);
  const gap = unfinishedWalk(full);
  if (!gap) return full;
  if (judgedByFilters && cutBySize(full)) return { ...full, cut: true };
  cannotJudge(rec, `whether the deleted customer is still listed is unknown: ${gap}`);
  return undefined;
}

function deleteRequest(id: string) {
  return { method: 'DELETE', path: `/customers/${encodeURIComponent(id)}`, role: 'admin' as const };
}

/** A pool customer that owns a channel identity, and the filters that find it by its own fields. */
async function identityCustomer(ctx: SuiteContext, rec: Recorder) {
  const { customerId: id, identifier } = await dataOf(ctx).get('identityCustomer');
  const p = ctx.target.assumptions.params;
  const lookup = { [p.identityType]: ctx.target.assumptions.identityTypeValue, identityIdentifier: identifier };
  // The lookup answers a list of 0 or 1 items (4.4): the pool item's own record, however big the workspace.
  const before = await listed(rec, lookup, id);
  if (before.found === undefined) return cannotJudge(rec, `the identity lookup before the delete answered ${describeAnswer(before.x)}`);
  if (!before.found) {
    throw new FixtureUnavailable(
      `the identity lookup (${p.identityType}=${ctx.target.assumptions.identityTypeValue}) does not find pool customer ${id} by its identifier before the delete (${before.x.id})`,
      `list in ${NEEDS.identityCustomer.field} customers that own a channel identity of type assumptions.identityTypeValue with that identifier`,
    );
  }
  return { id, lookup, before, filters: ownFilters(p, before.record!) };
}

/** The note of a delete check whose unfiltered walk stopped at its bound (judged through the filters). */
function walkNote(cut: boolean): { note?: string } {
  return cut
    ? {
        note: 'the unfiltered customer list was walked up to its bound only (a big workspace): the delete was judged through the filters that find the customer',
      }
    : {};
}

export const customersSuite = defineSuite({
  name: 'customers',
  description: 'Customer soft delete: idempotent, unlisted everywhere, history still resolves',
  checks: [
    {
      id: 'customers.delete.status',
      clause: '4.5.delete.status',
      title: 'customer delete answers with the assumed success status',
      needs: WRITES,
      run: (ctx) =>
        runCase(ctx, async (rec) => {
          const id = await disposableCustomer(ctx);
          const want = ctx.target.assumptions.customerDeleteStatus;
          const x = await rec.send(deleteRequest(id));
          rec.expect(want.includes(statusOf(x) ?? 0), `HTTP ${want.join(' or ')}`, () => describeAnswer(x));
        }),
    },
    {
      id: 'customers.delete.idempotent',
      clause: '4.5.delete.idempotent',
      title: 'deleting a deleted customer again is harmless: success or 404, and the customer stays deleted',
      // An identity customer: its lookup gives its record, so text search and the external-id filter find it
      // (and show it stays deleted) without walking a big workspace's whole list.
      needs: { writes: true, data: { identityCustomer: 1 } },
      async run(ctx) {
        let cut = false;
        const out = await runCase(ctx, async (rec) => {
          const c = await identityCustomer(ctx, rec);
          if (!c) return;
          const first = await rec.send(deleteRequest(c.id));
          rec.require(isSuccess(first), 'the first delete to succeed', () => describeAnswer(first));
          const second = await rec.send(deleteRequest(c.id));
          // Idempotent is about the effect, not the answer: 204 then 404 (already gone) leaves the same state.
          rec.expect(
            isSuccess(second) || statusOf(second) === 404 || statusOf(second) === 410,
            'the repeat delete to answer success, or 404/410 for the customer already gone',
            () => describeAnswer(second),
          );
          // One verdict on the effect: every list that still shows the customer (or could not be read) is named.
          const shown: string[] = [];
          const xs: Exchange[] = [first, second];
          for (const [what, query] of c.filters) {
            const { found, x } = await listed(rec, query, c.id);
            if (found !== false) {
              shown.push(found ? `${what} lists it (${x.id})` : `${what} answered ${describeAnswer(x)}`);
              xs.push(x);
            }
          }
          const absentFrom = (where: string[]) => `the customer to stay deleted after the repeat (absent from ${where.join(', ')})`;
          // A filter that still shows it is the verdict: an unfinished walk must not turn it into "unknown".
          if (shown.length) return void rec.expect(false, absentFrom(c.filters.map(([what]) => what)), () => shown.join('; '), xs);
          const full = await listedAfterDelete(rec, c.id, c.filters.length > 0);
          cut = full?.cut === true;
          if (full && !full.cut && full.found) {
            shown.push(`the customer list lists it (${full.xs.at(-1)?.id})`);
            xs.push(...full.xs.slice(-1));
          }
          const where = [...c.filters.map(([what]) => what), ...(full && !full.cut ? ['the customer list'] : [])];
          rec.expect(shown.length === 0, absentFrom(where), () => shown.join('; '), xs);
        });
        return out.status === 'passed' ? { ...out, ...walkNote(cut) } : out;
      },
    },
    {
      id: 'customers.delete.unlisted',
      clause: '3.customer.soft-delete-unlisted',
      title: 'a deleted customer no longer appears in the list, in text search, under its external id or in the channel-identity lookup',
      needs: { writes: true, data: { identityCustomer: 1 } },
      async run(ctx) {
        let cut = false;
        const out = await runCase(ctx, async (rec) => {
          // 3: a deleted customer "no longer appears in lists"; 4.4's identity lookup answers a list (0 or 1 items)
          const c = await identityCustomer(ctx, rec);
          if (!c) return;
          const { id, lookup, before, filters } = c;
          // Pool customers have a unique email and externalId (docs/target-file.md); search by what is there.
          for (const [what, query] of filters) {
            const { found, x } = await listed(rec, query, id);
            rec.require(found === true, `the new customer to be found by ${what} before the delete`, () => describeAnswer(x), [x]);
          }
          const del = await rec.send(deleteRequest(id));
          rec.require(isSuccess(del), 'the delete to succeed', () => describeAnswer(del));
          for (const [what, query] of filters) {
            const { found, x } = await listed(rec, query, id);
            rec.expect(
              found === false,
              `the deleted customer to be absent from ${what}`,
              () => (found ? `listed in ${x.id}` : describeAnswer(x)),
              [del, x],
            );
          }
          const after = await listed(rec, lookup, id);
          const refused = (statusOf(after.x) ?? 0) >= 400 && (statusOf(after.x) ?? 0) < 500;
          // a 4xx does not show the customer (whether it should be a list of 0 is 4.4.identity.result's concern)
          if (after.found === undefined && !refused)
            cannotJudge(rec, `the identity lookup after the delete answered ${describeAnswer(after.x)}`);
          else {
            rec.expect(
              after.found !== true,
              'the deleted customer not to be found by the channel-identity lookup (a list of 0 items)',
              () => `the lookup answered it in ${after.x.id}`,
              [before.x, del, after.x],
            );
          }
          const full = await listedAfterDelete(rec, id, true);
          cut = full?.cut === true;
          if (full && !full.cut)
            rec.expect(!full.found, 'the deleted customer to be absent from the unfiltered list', () => `listed in ${full.xs.at(-1)?.id}`, [
              del,
              ...full.xs,
            ]);
        });
        return out.status === 'passed' ? { ...out, ...walkNote(cut) } : out;
      },
    },
    {
      id: 'customers.delete.history',
      clause: '3.customer.soft-delete-history',
      title: "after delete, the customer's conversation still answers and names it",
      needs: { writes: true, data: { customerConversation: 1 } },
      run: (ctx) =>
        runCase(ctx, async (rec) => {
          const { customerId: id, conversationId } = await dataOf(ctx).get('customerConversation');
          const del = await rec.send(deleteRequest(id));
          rec.require(isSuccess(del), 'the delete to succeed', () => describeAnswer(del));
          // The spec shows no read of a conversation: an assign that keeps the team answers it.
          const seen = await observe(rec, conversationId, null);
          const shownCustomer = jsonObject(seen.x)?.customerId;
          rec.expect(
            shownCustomer === id,
            `conversation ${conversationId} to keep customerId ${id}`,
            () => `customerId ${String(shownCustomer)}`,
            [del, seen.x],
          );
        }),
    },
    {
      id: 'customers.delete.retained',
      clause: '3.customer.soft-delete-history',
      title: 'after delete, the customer record is retained behind its conversation, marked deleted (seen through a fixtures API)',
      // No operation the spec shows reads a customer by id, and lists leave deleted ones out (3): a hard delete
      // that keeps a dangling customerId is told apart from a soft delete only by a fixtures API.
      needs: { writes: true, fixtures: true, data: { customerConversation: 1 } },
      run: (ctx) =>
        runCase(ctx, async (rec) => {
          const { customerId: id, conversationId } = await dataOf(ctx).get('customerConversation');
          const del = await rec.send(deleteRequest(id));
          rec.require(isSuccess(del), 'the delete to succeed', () => describeAnswer(del));
          const after = await ctx.fixtures!.getConversation(conversationId);
          const customer = after?.customer ?? null;
          rec.expect(
            customer !== null && customer.id === id && customer.deleted,
            `conversation ${conversationId} to still resolve customer ${id}, marked deleted`,
            () => (customer ? `customer ${customer.id}, deleted ${String(customer.deleted)}` : 'no customer'),
            [del],
          );
        }),
    },
  ],
});

export default customersSuite;
