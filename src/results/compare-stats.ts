/**
 * The statistics `spgate compare` gates on: distribution-free confidence intervals for a latency percentile
 * (order statistics of the run's HDR histogram, binomial ranks by the normal approximation) and for a
 * throughput (a Poisson count over the run's duration), and the one rule that turns two intervals into a
 * verdict. Pure: a regression is claimed only when the intervals are apart by more than the allowed percent
 * and the point estimates by more than an absolute floor; a figure with too few samples to bound is
 * "not enough data", never a pass or a regression.
 */
import * as hdr from 'hdr-histogram-js';

/** Two-sided 95 % normal quantile: each run's interval covers its true figure 95 % of the time. */
export const Z95 = 1.959964;

/** A figure with its confidence interval; `lower`/`upper` are null when the samples cannot bound it. */
export interface Interval {
  value: number;
  lower: number | null;
  upper: number | null;
  samples: number;
}

/** How one compared figure came out. */
export type FigureVerdict = 'regression' | 'improvement' | 'no-change' | 'not-enough-data';

/** What the gate needs to call a difference a regression. */
export interface GateRule {
  /** The head's interval must clear the base's by this percentage of the base's bound. */
  pct: number;
  /** And the point estimates must differ by more than this, in the figure's unit. */
  floor: number;
  /**
   * How much each run's figure may be inflated by its own measurement (a latency timed by a generator whose
   * event loop was held up reads high, never low): a claim that a run is worse also needs a change above
   * that run's inflation. The other run's cannot make the claim: it only makes that run look worse too.
   */
  inflation?: { base: number; head: number };
  /** And both runs must have at least this many samples of the figure. */
  minSamples: number;
}

/**
 * The 1-based order-statistic ranks (lo, hi) whose values bracket quantile q of n samples with ~95 %
 * confidence; a rank outside 1..n means that side cannot be bounded with n samples.
 */
export function quantileRanks(n: number, q: number, z = Z95): { lo: number; hi: number } {
  const mid = n * q;
  const sd = Math.sqrt(n * q * (1 - q));
  return { lo: Math.floor(mid - z * sd), hi: Math.ceil(mid + z * sd) + 1 };
}

/** The fewest samples for which quantile q has both bounds (the rule behind "not enough data"). */
export function samplesToBound(q: number, z = Z95): number {
  let n = 1;
  while (n < 1e7) {
    const r = quantileRanks(n, q, z);
    if (r.lo >= 1 && r.hi <= n) return n;
    n = Math.max(n + 1, Math.ceil(n * 1.05));
  }
  return n;
}

/** Decodes a LatencySummary's compressed histogram (values in µs, as recorded). */
export function decodeHistogram(encoded: string): hdr.Histogram {
  return hdr.decodeFromCompressedBase64(encoded, 32, false);
}

/** The percentile `pct` (0–100) of a histogram in ms, with the interval of its order statistics. */
export function percentileInterval(h: hdr.Histogram, pct: number, z = Z95): Interval {
  const n = h.totalCount;
  const ms = (us: number): number => Math.round(us) / 1000;
  if (n === 0) return { value: 0, lower: null, upper: null, samples: 0 };
  // The value at rank r is the histogram's value at percentile 100·r/n (HDR counts ranks the same way).
  const atRank = (r: number): number => ms(h.getValueAtPercentile((100 * r) / n));
  const { lo, hi } = quantileRanks(n, pct / 100, z);
  return {
    value: ms(h.getValueAtPercentile(pct)),
    lower: lo >= 1 ? atRank(lo) : null,
    upper: hi <= n ? atRank(hi) : null,
    samples: n,
  };
}

/** A rate (per second) from `count` events over `seconds`, with its Poisson interval (normal approximation). */
export function rateInterval(count: number, seconds: number, z = Z95): Interval {
  const s = Math.max(seconds, 1e-3);
  // At least one event's spread above: a run that answered nothing still has an upper bound.
  const half = z * Math.sqrt(Math.max(count, 1));
  const round = (x: number): number => Math.round(x * 100) / 100;
  return { value: round(count / s), lower: round(Math.max(0, count - half) / s), upper: round((count + half) / s), samples: count };
}

/**
 * Judges one figure: for latency (higher is worse) a regression when head's lower bound exceeds base's upper
 * bound by more than rule.pct and head's value exceeds base's by more than rule.floor; for throughput
 * (higher is better) when head's upper bound is below base's lower bound by more than rule.pct and the
 * value fell by more than rule.floor.
 */
export function judge(base: Interval, head: Interval, rule: GateRule, higherIsWorse = true): FigureVerdict {
  // A throughput that fell to a few answers is the finding itself: only the base needs its samples there.
  if (base.samples < rule.minSamples || (higherIsWorse && head.samples < rule.minSamples)) return 'not-enough-data';
  // Each claim needs one bound of each run: "head is worse" needs the side of base towards head and the
  // side of head towards base. A run too short to bound its far side can still show (or rule out) a change.
  const apart = (worse: Interval, better: Interval, floor: number): boolean | null => {
    const w = higherIsWorse ? worse.lower : worse.upper;
    const b = higherIsWorse ? better.upper : better.lower;
    if (w === null || b === null) return null;
    // Latency may rise by pct before it counts; throughput may fall by pct (a fall of 100 % never counts).
    return higherIsWorse
      ? w > b * (1 + rule.pct / 100) && worse.value - better.value > floor
      : w < b * (1 - rule.pct / 100) && better.value - worse.value > floor;
  };
  const worse = apart(head, base, claimFloor(rule, 'head'));
  if (worse === null) return 'not-enough-data';
  if (worse) return 'regression';
  return apart(base, head, claimFloor(rule, 'base')) ? 'improvement' : 'no-change';
}

/** The change a claim that `worse` is the worse run must exceed: the rule's floor, raised to that run's inflation. */
export function claimFloor(rule: GateRule, worse: 'base' | 'head'): number {
  return Math.max(rule.floor, rule.inflation?.[worse] ?? 0);
}
