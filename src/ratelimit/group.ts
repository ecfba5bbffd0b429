/**
 * One budget's view of the samples: a (key, class) group, sorted the ways the rules need, with counting
 * helpers. Times are uncertain by design: a response was counted by the server somewhere between sentAt
 * and receivedAt, so every count here is either "possibly" or "definitely" within an interval.
 */
import type { RouteClass } from '../results/schema.js';
import type { ParsedSample } from './parsed.js';

export interface Group {
  key: string;
  class: RouteClass;
  /** Samples sorted by sentAt (then input order). */
  bySent: ParsedSample[];
  /** Samples sorted by receivedAt (then input order). */
  byReceived: ParsedSample[];
  /** receivedAt of byReceived, for binary search. */
  receivedTimes: number[];
  /** Admitted samples' sentAt and receivedAt, each sorted ascending. */
  admittedSent: number[];
  admittedReceived: number[];
}

/** Builds the (key, class) groups, in a deterministic order (key, then read before write). */
export function groupSamples(samples: readonly ParsedSample[]): Group[] {
  const map = new Map<string, ParsedSample[]>();
  for (const s of samples) {
    const id = `${s.key}\u0000${s.class}`;
    const list = map.get(id);
    if (list) list.push(s);
    else map.set(id, [s]);
  }
  return [...map.keys()].sort().map((id) => {
    const list = map.get(id)!;
    const first = list[0]!;
    return buildGroup(first.key, first.class, list);
  });
}

/** Builds one group from its samples. */
export function buildGroup(key: string, cls: RouteClass, list: ParsedSample[]): Group {
  const bySent = [...list].sort((a, b) => a.sentAt - b.sentAt || a.index - b.index);
  const byReceived = [...list].sort((a, b) => a.receivedAt - b.receivedAt || a.index - b.index);
  const admitted = list.filter((s) => s.admitted);
  return {
    key,
    class: cls,
    bySent,
    byReceived,
    receivedTimes: byReceived.map((s) => s.receivedAt),
    admittedSent: admitted.map((s) => s.sentAt).sort((a, b) => a - b),
    admittedReceived: admitted.map((s) => s.receivedAt).sort((a, b) => a - b),
  };
}

/** Number of values < x in an ascending array. */
export function countBelow(sorted: readonly number[], x: number): number {
  let lo = 0;
  let hi = sorted.length;
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    if (sorted[mid]! < x) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}

/** Number of values <= x in an ascending array. */
export function countAtMost(sorted: readonly number[], x: number): number {
  let lo = 0;
  let hi = sorted.length;
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    if (sorted[mid]! <= x) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}

/**
 * Admitted requests that may have been counted inside (x, y): received after x and sent before y.
 * Requires x < y (then every request received by x was also sent before y).
 */
export function admittedPossiblyBetween(g: Group, x: number, y: number): number {
  if (!(x < y)) return 0;
  return countBelow(g.admittedSent, y) - countAtMost(g.admittedReceived, x);
}

/** Index in byReceived of the last sample received at or before t, or -1. */
export function lastReceivedBy(g: Group, t: number): number {
  return countAtMost(g.receivedTimes, t) - 1;
}
