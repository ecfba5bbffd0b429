/**
 * The buckets each encoder writes, derived from a request series' distribution (the fold's HDR histogram,
 * model.ts): Prometheus's cumulative `le` counts over DURATION_BUCKETS, and OpenTelemetry's exponential
 * histogram. Each HDR bucket counts at its lowest value; the values it holds lie at most 1/1024 (0.098 %)
 * of it, or 1 µs, above that (3 significant digits), so a duration that close above a bucket bound may be
 * counted at or below it — the only difference from bucketing the exact durations. Counts are exact. Pure.
 */
import type { RequestSeries } from './model.js';

/** Cumulative counts at or below each bound (seconds, ascending); the +Inf bucket is the series' count. */
export function leBuckets(s: Pick<RequestSeries, 'lows' | 'counts'>, bounds: readonly number[]): number[] {
  const out: number[] = [];
  let acc = 0;
  let k = 0;
  for (const b of bounds) {
    while (k < s.lows.length && s.lows[k]! <= b) acc += s.counts[k++]!;
    out.push(acc);
  }
  return out;
}

/** An OpenTelemetry exponential histogram of positive values (no zero or negative ones: HDR holds ≥ 1 µs). */
export interface Exponential {
  scale: number;
  offset: number;
  bucketCounts: number[];
}

/** The largest scale OpenTelemetry's SDK uses, and its default number of buckets. */
export const MAX_SCALE = 20;
export const MAX_BUCKETS = 160;
const MIN_SCALE = -10;

/** The bucket index of v at `scale`: bucket i holds (base^i, base^(i+1)], base = 2^(2^-scale). */
function indexAt(v: number, scale: number): number {
  return Math.ceil(Math.log2(v) * 2 ** scale) - 1;
}

/**
 * The exponential histogram of a distribution, at the largest scale (≤ 20) whose buckets span it in at most
 * `maxBuckets`, as the SDK's own aggregation chooses (it depends on the smallest and largest value only).
 */
export function exponentialOf(s: Pick<RequestSeries, 'lows' | 'counts'>, maxBuckets = MAX_BUCKETS): Exponential {
  const n = s.lows.length;
  if (n === 0) return { scale: MAX_SCALE, offset: 0, bucketCounts: [] };
  const lo = s.lows[0]!;
  const hi = s.lows[n - 1]!;
  let scale = MAX_SCALE;
  while (scale > MIN_SCALE && indexAt(hi, scale) - indexAt(lo, scale) + 1 > maxBuckets) scale--;
  const offset = indexAt(lo, scale);
  const bucketCounts = new Array<number>(indexAt(hi, scale) - offset + 1).fill(0);
  const factor = 2 ** scale;
  for (let i = 0; i < n; i++) bucketCounts[Math.ceil(Math.log2(s.lows[i]!) * factor) - 1 - offset]! += s.counts[i]!;
  return { scale, offset, bucketCounts };
}
