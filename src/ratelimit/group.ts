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
  // Consecutive samples nearly always share a budget: its list is looked up only when the budget changes.
  let last: ParsedSample[] | undefined;
  let lastKey: string | undefined;
  let lastClass: RouteClass | undefined;
  for (const s of samples) {
    if (last && s.key === lastKey && s.class === lastClass) {
      last.push(s);
      continue;
    }
    const id = `${s.key}\u0000${s.class}`;
    let list = map.get(id);
    if (list) list.push(s);
    else map.set(id, (list = [s]));
    last = list;
    lastKey = s.key;
    lastClass = s.class;
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
 * A copy of `list` sorted by the time (sentAt or receivedAt), then input order. A stream arrives in
 * completion order, so the receivedAt order holds already and the sentAt order is off by a few places
 * (requests in flight on other connections): an insertion sort does either in a few moves per sample. Its
 * moves are capped, past which the general sort takes over, so an adversarial trace costs no more than a
 * sort. The times are copied into a typed array first: the inner loop reads no object.
 */
function sortedBy(list: readonly ParsedSample[], field: 'sentAt' | 'receivedAt'): ParsedSample[] {
  const n = list.length;
  const out = list.slice();
  const t = new Float64Array(n);
  const ix = new Float64Array(n);
  for (let i = 0; i < n; i++) {
    const s = list[i]!;
    t[i] = field === 'sentAt' ? s.sentAt : s.receivedAt;
    ix[i] = s.index;
  }
  let budget = 16 * n + 64;
  for (let i = 1; i < n; i++) {
    const v = t[i]!;
    const k = ix[i]!;
    let j = i - 1;
    if (t[j]! < v || (t[j] === v && ix[j]! < k)) continue;
    const x = out[i]!;
    while (j >= 0 && (t[j]! > v || (t[j] === v && ix[j]! > k))) {
      out[j + 1] = out[j]!;
      t[j + 1] = t[j]!;
      ix[j + 1] = ix[j]!;
      j--;
    }
    out[j + 1] = x;
    t[j + 1] = v;
    ix[j + 1] = k;
    budget -= i - 1 - j;
    if (budget < 0) return list.slice().sort(field === 'sentAt' ? bySentAt : byReceivedAt);
  }
  return out;
}

const bySentAt = (a: ParsedSample, b: ParsedSample): number => a.sentAt - b.sentAt || a.index - b.index;
const byReceivedAt = (a: ParsedSample, b: ParsedSample): number => a.receivedAt - b.receivedAt || a.index - b.index;

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
