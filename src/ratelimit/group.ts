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
  const bySent = sortedBy(list, 'sentAt');
  const byReceived = sortedBy(list, 'receivedAt');
  const receivedTimes = new Array<number>(byReceived.length);
  const admittedSent: number[] = [];
  const admittedReceived: number[] = [];
  // Filtering the sorted lists gives the admitted times already in ascending order.
  for (let i = 0; i < byReceived.length; i++) {
    const s = byReceived[i]!;
    receivedTimes[i] = s.receivedAt;
    if (s.admitted) admittedReceived.push(s.receivedAt);
  }
  for (const s of bySent) if (s.admitted) admittedSent.push(s.sentAt);
  return { key, class: cls, bySent, byReceived, receivedTimes, admittedSent, admittedReceived };
}

/**
 * A copy of `list` sorted by the field, then input order. A stream arrives in completion order, so the
 * receivedAt order usually holds already: one linear check then spares the comparison sort.
 */
function sortedBy(list: readonly ParsedSample[], field: 'sentAt' | 'receivedAt'): ParsedSample[] {
  let sorted = true;
  for (let i = 1; i < list.length; i++) {
    const a = list[i - 1]!;
    const b = list[i]!;
    if (a[field] > b[field] || (a[field] === b[field] && a.index > b.index)) {
      sorted = false;
      break;
    }
  }
  return sorted ? list.slice() : [...list].sort((a, b) => a[field] - b[field] || a.index - b.index);
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
