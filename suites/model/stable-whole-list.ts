/**
 * pagination.stable-under-writes on a deployment without a fixtures API (spec 4.4 keyset cursor, 3 soft
 * delete): two pool customers are deleted once a walk has listed one of them, so a deleted item lies before
 * the cursor; an offset in disguise then skips the item after it, which a keyset cursor never does.
 * On a big workspace the check does not walk the whole list: it reads pages of 100 until a pool customer
 * is found (bounded by pages and time) and judges the pages from there. On a busy one it judges only the
 * customers listed before and after its walk (stayed-put.ts): others' creates and deletes are not findings.
 */
import type { Exchange } from '../../src/client/exchange.js';
import { FixtureUnavailable } from '../../src/conformance/fixtures/provider.js';
import { asPage, cutWalk, duplicates, traverse } from '../../src/conformance/paging.js';
import { describeAnswer, runCase } from '../../src/conformance/recorder.js';
import { missedWithin, stayedPut } from '../../src/conformance/stayed-put.js';
import type { CheckOutcome, SuiteContext } from '../../src/conformance/suite.js';
import { cannotJudge, dataOf } from './world.js';

/** Pages of 100 read at most to find a pool customer (60,000 customers), and the time that may take. */
const LOCATE_PAGES = 600;
const LOCATE_SECONDS = 60;
/** Customers past the deleted one that the walk under deletes reads and the check judges. */
const JUDGED_AFTER = 200;

const REMEDY = 'fixtures.ids.pools.customers: customers listed early in the customer list, before its last page';

/** pagination.stable-under-writes over the whole customer list, around the first pool customer listed. */
export async function stableWholeList(ctx: SuiteContext): Promise<CheckOutcome> {
  const victims = await dataOf(ctx).take('customer', 2);
  return runCase(ctx, async (t) => {
    let found: number | undefined;
    let read = 0;
    // Pages of 100 up to the first pool customer's page and one more (a page after it must exist).
    const locate = await traverse(ctx.send, {
      path: '/customers',
      query: {},
      limit: 100,
      maxPages: LOCATE_PAGES,
      deadline: Date.now() + LOCATE_SECONDS * 1000,
      onItems: (items) => {
        if (found === undefined && items.some((c) => victims.includes(String(c.id)))) found = read;
        read++;
      },
      stop: (p) => found !== undefined && p > found,
    });
    if (locate.problem && !cutWalk(locate)) {
      t.add({
        clause: locate.problem.clause,
        expected: locate.problem.expected,
        actual: locate.problem.actual,
        exchanges: locate.problem.exchanges,
      });
      return;
    }
    if (found === undefined) {
      if (cutWalk(locate))
        return cannotJudge(
          t,
          `no pool customer was among the first ${locate.ids.length} customers listed (the search for them stops at ${LOCATE_PAGES} pages of 100 or ${LOCATE_SECONDS} s)`,
          REMEDY,
        );
      throw new FixtureUnavailable(`fixture customers ${victims.join(', ')} are not in the customer list: give ids the target knows`);
    }
    const page = locate.exchanges[found]!;
    // Where the pool customer's page starts in what the search read (a page may hold fewer than 100).
    const start = locate.exchanges.slice(0, found).reduce((n, x) => n + (asPage(x)?.data.length ?? 0), 0);
    const onPage = locate.ids.slice(start, start + (asPage(page)?.data.length ?? 0));
    const at = Math.min(...victims.map((v) => onPage.indexOf(v)).filter((i) => i >= 0));
    // On the first page, pages that end at the pool customer (as small as the list allows); further on, pages
    // of 100 from the cursor of its page, as the search read them.
    const limit = found === 0 ? at + 1 : 100;
    const from = locate.cursors[found];
    const before = locate.ids.slice(start);
    const deleted: Exchange[] = [];
    const walk = await traverse(ctx.send, {
      path: '/customers',
      query: {},
      limit,
      from,
      maxPages: Math.ceil((at + 1 + JUDGED_AFTER) / limit) + 1,
      between: async () => {
        if (deleted.length) return;
        for (const id of victims) deleted.push(await ctx.send({ method: 'DELETE', path: `/customers/${encodeURIComponent(id)}` }));
      },
    });
    const refused = deleted.find((x) => !x.response || x.response.status >= 300);
    if (refused) {
      t.add({
        clause: '4.5.delete.status',
        expected: 'the delete of a disposable customer to succeed',
        actual: describeAnswer(refused),
        exchanges: [refused],
      });
      return;
    }
    if (walk.problem && !cutWalk(walk)) {
      t.add({
        clause: walk.problem.clause,
        expected: walk.problem.expected,
        actual: walk.problem.actual,
        exchanges: walk.problem.exchanges,
      });
      return;
    }
    if (!deleted.length) {
      return cannotJudge(
        t,
        `no pool customer was listed before the list's last page (${locate.ids.length} customers read, pages of ${limit}), so no delete went before the cursor`,
        REMEDY,
      );
    }
    const dup = duplicates(walk.ids);
    t.add(
      dup.length
        ? {
            expected: 'no item twice while items are deleted between pages',
            actual: `repeated: ${dup.join(', ')}`,
            exchanges: walk.exchanges.slice(-3),
          }
        : undefined,
    );
    // Who still exists after the walk, read from the same place: others' deletes explain an absence.
    const after = await traverse(ctx.send, {
      path: '/customers',
      query: {},
      limit: 100,
      from,
      maxPages: Math.ceil(walk.ids.length / 100) + 1,
    });
    if (after.problem && !cutWalk(after)) return cannotJudge(t, `the customer list read after the walk answered ${after.problem.actual}`);
    const skipped = missedWithin(before, walk.ids, stayedPut(before, after.ids), new Set(victims));
    t.add(
      skipped.length
        ? {
            expected: `every customer listed before and after the walk, and not deleted by it, listed once (limit ${limit})`,
            actual: `skipped ${skipped.slice(0, 5).join(', ')}`,
            exchanges: [page, ...deleted, ...walk.exchanges.slice(0, 3)],
          }
        : undefined,
    );
  });
}
