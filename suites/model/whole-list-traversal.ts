/**
 * pagination.traversal on a deployment without a fixtures API (spec 4.4, 4.11): it walks the workspace's
 * whole customer list, which on staging is big (tens of thousands) and busy (other clients create and
 * soft-delete customers meanwhile). So each walk is bounded by pages and time, and only what it saw is
 * judged; a difference other clients explain is not a finding. What is judged: no item twice in a walk;
 * every customer that existed throughout (listed before and after, see stayed-put.ts) and lies within the
 * walked prefix listed, in pages of a small size as in pages of 100 (an item dropped at a page boundary);
 * the items both walks list, unchanged between them, in the same order.
 */
import fc from 'fast-check';
import { runProperty } from '../../src/conformance/property.js';
import { cutWalk, duplicates, traverse, type Traversal, type WalkInput } from '../../src/conformance/paging.js';
import { missedWithin, orderChange, stayedPut } from '../../src/conformance/stayed-put.js';
import { inconclusive } from '../../src/conformance/inconclusive.js';
import type { CheckOutcome, SuiteContext } from '../../src/conformance/suite.js';
import type { Exchange } from '../../src/client/exchange.js';
import type { RequestSpec } from '../../src/client/types.js';

/** Pages walked at most on the whole customer list. */
export const WHOLE_LIST_PAGES = 40;
/** Seconds one walk of the whole list may take before it is cut (a slow or rate-limited staging). */
export const WALK_SECONDS = 20;

type Send = (spec: RequestSpec) => Promise<Exchange>;

/** Walks the unfiltered customer list within the page and time bounds, noting each item's updatedAt. */
export function walkWholeList(send: Send, limit: number, seen?: Map<string, unknown>, extra: Partial<WalkInput> = {}): Promise<Traversal> {
  return traverse(send, {
    path: '/customers',
    query: {},
    limit,
    maxPages: WHOLE_LIST_PAGES,
    deadline: Date.now() + WALK_SECONDS * 1000,
    onItems: seen && ((items) => items.forEach((c) => seen.set(String(c.id), c.updatedAt))),
    ...extra,
  });
}

/** The note of a passing outcome whose walks judged a prefix only. */
export function cutNote(walks: { all: number; cut: number }, what = 'traversals'): string | undefined {
  return walks.cut
    ? `${walks.cut} of ${walks.all} ${what} reached their bound (${WHOLE_LIST_PAGES} pages or ${WALK_SECONDS} s) before the list's end: only the items walked were judged`
    : undefined;
}

/** pagination.traversal over the whole customer list (no data created). */
export async function wholeListTraversal(ctx: SuiteContext): Promise<CheckOutcome> {
  const walks = { all: 0, cut: 0 };
  // Walks that crossed a page boundary (the one place an item can be dropped or repeated).
  let boundaries = 0;
  let listed = 0;
  let before: Traversal | undefined;
  const out = await runProperty(
    ctx,
    fc.record({ limit: fc.integer({ min: 1, max: 25 }) }),
    async ({ limit }, rec) => {
      const send = (spec: RequestSpec) => rec.send(spec);
      // A page problem fails the run, unless the walk was cut on purpose (only page rules matter then).
      const judgeWalk = (w: Traversal) => {
        const p = w.problem;
        if (p && !cutWalk(w)) rec.require(false, p.expected, () => p.actual, undefined, p.clause);
      };
      // The reference read in pages of 100: what existed before the walks, with page boundaries elsewhere.
      const ref = (before ??= await walkWholeList(send, 100));
      judgeWalk(ref);
      const firstSeen = new Map<string, unknown>();
      const a = await walkWholeList(send, limit, firstSeen);
      judgeWalk(a);
      const dupA = duplicates(a.ids);
      rec.require(dupA.length === 0, 'every item exactly once', () => `repeated: ${dupA.join(', ')}`);
      const secondSeen = new Map<string, unknown>();
      const b = await walkWholeList(send, limit, secondSeen, { maxPages: a.pages + 1 });
      judgeWalk(b);
      const dupB = duplicates(b.ids);
      rec.require(dupB.length === 0, 'every item exactly once on a second traversal', () => `repeated: ${dupB.join(', ')}`);
      // After both walks, in pages of 100 over the prefix they covered: who still exists.
      const after = await walkWholeList(send, 100, undefined, { maxPages: Math.ceil((a.ids.length + 1) / 100) + 1 });
      const stayed = stayedPut(ref.ids, after.ids);
      const dropped = missedWithin(ref.ids, a.ids, stayed);
      rec.require(
        dropped.length === 0,
        `the same items in pages of ${limit} as in pages of 100`,
        () => `missing in pages of ${limit}: ${dropped.slice(0, 5).join(', ')} (listed before and after the walk)`,
      );
      const droppedB = missedWithin(ref.ids, b.ids, stayed);
      rec.require(
        droppedB.length === 0,
        `the same items in pages of ${limit} as in pages of 100 on a second traversal`,
        () => `missing: ${droppedB.slice(0, 5).join(', ')} (listed before and after the walk)`,
      );
      // Items both walks listed and nobody changed in between keep their order (a keyset order is stable).
      const moved = orderChange(a.ids, b.ids, (id) => firstSeen.get(id) === secondSeen.get(id));
      if (moved)
        rec.require(
          false,
          'the same order on a second traversal (items listed by both walks, unchanged between them)',
          () => `${moved.first} first, then ${moved.second} in its place`,
        );
      walks.all++;
      if (cutWalk(a)) walks.cut++;
      if (a.pages > 1) boundaries++;
      listed = Math.max(listed, ref.ids.length);
    },
    { maxRuns: 5, examples: [{ limit: 7 }, { limit: 2 }] },
  );
  if (out.status === 'passed' && boundaries === 0) {
    inconclusive(
      `every walk of the whole customer list fit on one page (${listed} customers listed): no page boundary, where an item is dropped or repeated, was crossed`,
      'at least three customers in the workspace (or fixtures.api / fixtures.command, so the check creates its own list)',
    );
  }
  const note = cutNote(walks);
  return out.status === 'passed' && note ? { ...out, note } : out;
}
