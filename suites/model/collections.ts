/**
 * Pool collections and their revision. The spec shows no read of a collection (4.9 says "read the collection
 * first", but names no operation), so a pool item's revision is confirmed by the check's own first update:
 * an answer refusing it as stale (assumptions.statuses.staleRevision) shows the collection was edited since
 * the seed, by someone else. That item moved on by itself: it is passed over and the next one taken.
 */
import type { Exchange } from '../../src/client/exchange.js';
import { Moved } from '../../src/conformance/fixtures/provider.js';
import { statusOf } from '../../src/conformance/recorder.js';
import type { SuiteContext } from '../../src/conformance/suite.js';
import { dataOf } from './world.js';

export interface PoolCollection {
  id: string;
  /** The revision the pool (or the fixtures API) names for it. */
  revision: number;
}

/** The revision a 200 answer shows, or undefined. */
export function revisionOf(x: Exchange): number | undefined {
  const r = (x.response?.json as { revision?: unknown } | undefined)?.revision;
  return statusOf(x) === 200 && typeof r === 'number' ? r : undefined;
}

/**
 * Takes the first pool collection whose revision `first` (the check's first update(s) at `c.revision`) finds
 * current: every answer of `first` refused as stale moves on to the next item. Returns the item and the
 * exchanges of its first update(s).
 */
export function firstUpdate(
  ctx: SuiteContext,
  first: (c: PoolCollection) => Promise<Exchange[]>,
): Promise<{ c: PoolCollection; xs: Exchange[] }> {
  const stale = ctx.target.assumptions.statuses.staleRevision;
  return dataOf(ctx).confirmed('collection', async (c) => {
    const xs = await first(c);
    if (xs.length > 0 && xs.every((x) => statusOf(x) === stale)) {
      return new Moved(`collection ${c.id}: revision ${c.revision} was refused as stale (HTTP ${stale}), edited since the seed`);
    }
    return { c, xs };
  });
}
