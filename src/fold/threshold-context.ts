/**
 * The one ThresholdContext of a load run, from its folded figures: latency from the run's histograms,
 * counts and the error rate from its status tally, `ratelimit.violations` from its findings, rps over its
 * duration, whether a budget was spent from its Remaining series. A live run, local workers and a merge of
 * shards evaluate thresholds through it alike. Pure.
 */
import type { FindingRecord, ProfileResult, RouteClass, StatusFamily } from '../results/schema.js';
import { budgetSpent } from './budget-spent.js';
import { generatorMetric, type GeneratorLike, type LatencyMetric, type ThresholdContext } from './threshold.js';
import type { StatusTally } from './tally.js';

/** What a histogram view answers (hdr-histogram-js's Histogram, or anything that reads like one). */
export interface LatencyHistogram {
  totalCount: number;
  minNonZeroValue: number;
  maxValue: number;
  mean: number;
  getValueAtPercentile(p: number): number;
}

export interface FoldFigures {
  tally: StatusTally;
  /** One histogram (µs) over the selected classes and families (the corrected view when the run has one). */
  histogram(cls?: RouteClass, family?: StatusFamily): LatencyHistogram;
  /** Exact min and max (ms), when known better than the histogram's buckets (a merge of decoded histograms). */
  range?(cls?: RouteClass, family?: StatusFamily): { min: number; max: number } | null;
  findings: readonly FindingRecord[];
  sent(cls?: RouteClass): number;
  dropped(cls?: RouteClass): number;
  /** The run's length (s), at least a millisecond. */
  seconds: number;
  /** The generator's own lag and verdict (a merge: the worst of the shards'), when measured. */
  generator?: GeneratorLike;
  /** RateLimit-Remaining per class in time buckets: whether the run spent a budget (budget-spent.ts). */
  rateLimitSeries?: ProfileResult['rateLimitSeries'];
}

/** Rate-limit violations, as the `ratelimit.violations` threshold counts them: findings of a rate-limit clause. */
export function rateLimitViolations(findings: readonly FindingRecord[]): number {
  return findings.filter((f) => f.clause.startsWith('8.ratelimit')).length;
}

/** The value of a latency metric (ms) of a histogram, or null when it holds nothing. */
export function latencyMetric(h: LatencyHistogram, metric: LatencyMetric, range?: { min: number; max: number } | null): number | null {
  if (h.totalCount === 0) return null;
  if ((metric === 'min' || metric === 'max') && range) return range[metric];
  const v =
    metric === 'min'
      ? h.minNonZeroValue
      : metric === 'max'
        ? h.maxValue
        : metric === 'mean'
          ? h.mean
          : h.getValueAtPercentile(metric === 'p999' ? 99.9 : Number(metric.slice(1)));
  return v / 1000;
}

/** The ThresholdContext of a run's folded figures. */
export function thresholdContext(f: FoldFigures): ThresholdContext {
  return {
    latency: (metric, cls, family) => latencyMetric(f.histogram(cls, family), metric, f.range?.(cls, family)),
    count: (metric, cls) => {
      if (metric === 'ratelimit.violations') return rateLimitViolations(f.findings);
      if (metric === 'sent') return f.sent(cls);
      if (metric === 'dropped') return f.dropped(cls);
      return f.tally.count(metric, cls);
    },
    errorRate: (cls) => f.tally.errorRate(cls),
    // Throughput is answers other than 429 (src/fold/throughput.ts): refusals are not work done.
    rps: (cls) => (f.tally.count('completed', cls) - f.tally.count('429', cls)) / f.seconds,
    generator: (metric) => generatorMetric(f.generator, metric),
    ...(f.rateLimitSeries ? { budgetSpent: (cls?: RouteClass) => budgetSpent(f.rateLimitSeries, cls) } : {}),
  };
}
