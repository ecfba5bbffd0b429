/**
 * Model-free bounds: what ANY legitimate limiter with a budget of L per window W can admit (or give back)
 * within an interval of length T. A fixed window touches at most ⌈T/W⌉ + 1 windows of L each; a token
 * bucket holds L and refills L per W (L + L·T/W); a sliding log admits at most L per W-long stretch; a
 * sliding-window counter at most L per grid window. All of them stay within L × (⌈T/W⌉ + 1), and so
 * does the budget they give back (a refill returns only what was spent). The rules built on these bounds
 * need no model, so they judge every run, whatever the classifier says.
 */
import { CLOCK_EPS_MS } from './context.js';
import type { ParsedSample } from './parsed.js';

/** One request of slack on every bound, for a decision that sits exactly on an interval's edge. */
export const BOUND_TOLERANCE = 1;

/** Smallest window the bounds assume when only a Reset of 1 s announces it (whole-second Reset). */
export const MIN_ANNOUNCED_WINDOW_MS = 500;

/** The most any legitimate limiter of `limit` per `windowMs` admits (or refills) within `spanMs`. */
export function legitimateMax(limit: number, windowMs: number, spanMs: number): number {
  // Server clocks tick in whole ms and client and server clocks differ by up to CLOCK_EPS_MS.
  return limit * (Math.ceil((spanMs + 2 * CLOCK_EPS_MS + 1) / windowMs) + 1);
}

/**
 * A window length no longer than the true one, from the largest Reset seen. Reset is "seconds until the
 * budget is full again", so no model announces more than its window: rounded up, the window is longer
 * than R − 1 s; rounded down or to nearest (roundingSlackMs > 0), at least R − ½ s. A Reset of 1 s bounds nothing from
 * below; the bounds then assume a window of at least MIN_ANNOUNCED_WINDOW_MS (docs/rate-limits.md).
 */
export function announcedWindowLowerBound(maxResetSeconds: number | null, roundingSlackMs: number): number | null {
  if (maxResetSeconds === null || maxResetSeconds <= 0) return null;
  if (roundingSlackMs > 0) return Math.max(MIN_ANNOUNCED_WINDOW_MS, maxResetSeconds * 1000 - 500);
  return Math.max(MIN_ANNOUNCED_WINDOW_MS, (maxResetSeconds - 1) * 1000);
}

/**
 * Interval lengths to test: just under k windows for k = 1, 2, 3, 4, 6, 8, 12, … up to the span of the
 * samples. Just under, so that ⌈T/W⌉ = k and the bound is (k + 1) × L; geometric, so the whole check
 * stays O(n log(span / W)). Longer intervals catch smaller over-admission (the +1 window matters less).
 */
export function intervalLengths(windowMs: number, spanMs: number): number[] {
  const ks = new Set<number>();
  for (let p = 1; p * windowMs <= spanMs + windowMs; p *= 2) {
    ks.add(p);
    if (p >= 2 && (p * 3 * windowMs) / 2 <= spanMs + windowMs) ks.add((p * 3) / 2);
  }
  return [...ks]
    .sort((a, b) => a - b)
    .map((k) => k * windowMs - 2 * CLOCK_EPS_MS - 2)
    .filter((T) => T > 0);
}

/**
 * The interval of length T holding the most samples certainly inside it, by a two-pointer sweep: with
 * every latency ≤ T, "sent ≥ x and received ≤ x + T" counts as #(received ≤ x + T) − #(sent < x), both
 * monotone in x. Samples slower than T cannot be certainly inside any such interval and are left out.
 * `bySent` and `byReceived` are the same samples sorted by sentAt and by receivedAt.
 */
export function densestInterval(
  bySent: readonly ParsedSample[],
  byReceived: readonly ParsedSample[],
  T: number,
): { count: number; start: number } {
  const fast = (s: ParsedSample) => s.receivedAt - s.sentAt <= T;
  const S = bySent.filter(fast);
  const R = byReceived.filter(fast);
  let best = { count: 0, start: 0 };
  let p = 0;
  let firstOfValue = 0;
  for (let i = 0; i < S.length; i++) {
    const x = S[i]!.sentAt;
    if (i === 0 || S[i - 1]!.sentAt !== x) firstOfValue = i;
    else continue;
    while (p < R.length && R[p]!.receivedAt <= x + T) p++;
    const count = p - firstOfValue;
    if (count > best.count) best = { count, start: x };
  }
  return best;
}

/** The samples certainly inside [start, start + length], in sentAt order (for citing one interval). */
export function samplesInside(bySent: readonly ParsedSample[], start: number, length: number): ParsedSample[] {
  const out: ParsedSample[] = [];
  for (const s of bySent) {
    if (s.sentAt < start) continue;
    if (s.sentAt > start + length) break;
    if (s.receivedAt <= start + length) out.push(s);
  }
  return out;
}
