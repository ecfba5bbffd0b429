/**
 * What one push sends, made from the fold's cumulative figures (load/aggregate.ts `snapshot()`): the live
 * metrics keep no count of their own. Each duration series of the fold (route class × method × status
 * family) becomes its count, its exact sum and its distribution — the non-empty buckets of its HDR
 * histogram, each as its lowest value and its count — from which the encoders derive their own buckets
 * (remote write: the explicit DURATION_BUCKETS, OTLP: an exponential histogram; see buckets.ts). The
 * distribution is read at once from the fold's live histograms, so a push that goes out later still sends
 * the figures of one moment. Pure.
 */
import type { RouteClass } from '../results/schema.js';
import type { FoldSnapshot } from '../fold/observer.js';
import type { FoldSeries } from '../fold/histograms.js';
import type { SeriesFamily } from '../fold/status-family.js';
import type { RemainingGauge } from '../fold/last-remaining.js';
import type { GeneratorLag, RunFigures } from './source.js';

export type { RemainingGauge };

/** One request series: cumulative figures of one class × family × method. */
export interface RequestSeries {
  class: RouteClass;
  family: SeriesFamily;
  method: string;
  count: number;
  /** Sum of the durations, seconds (exact: the fold keeps it). */
  sum: number;
  /**
   * The distribution: the lowest value (seconds) of each non-empty HDR bucket, ascending, and its count.
   * Every value a bucket holds is at most 1/1024 of it (HDR with 3 significant digits), or 1 µs, above it.
   */
  lows: Float64Array;
  counts: Float64Array;
}

/** Everything one push sends. */
export interface MetricsSnapshot {
  /** Epoch ms the figures are of. */
  at: number;
  requests: RequestSeries[];
  sent: Readonly<Record<RouteClass, number>>;
  dropped: Readonly<Record<RouteClass, number>>;
  remaining: RemainingGauge[];
  violations?: number;
  lag: GeneratorLag;
}

/** What an hdr-histogram-js JsHistogram answers of its counts array (the fold's histograms are JsHistograms). */
interface IndexedHistogram {
  maxValue: number;
  countsArrayIndex(value: number): number;
  getCountAtIndex(index: number): number;
  valueFromIndex(index: number): number;
}

function indexed(h: FoldSeries['histogram']): IndexedHistogram {
  const x = h as unknown as Partial<IndexedHistogram>;
  if (typeof x.getCountAtIndex !== 'function' || typeof x.valueFromIndex !== 'function' || typeof x.countsArrayIndex !== 'function') {
    throw new Error("the fold's histograms must be JsHistograms (useWebAssembly: false)");
  }
  return x as IndexedHistogram;
}

/** The distribution of one fold series, seconds. */
export function requestSeries(s: FoldSeries): RequestSeries {
  const h = indexed(s.histogram);
  const last = h.countsArrayIndex(h.maxValue);
  let n = 0;
  for (let i = 0; i <= last; i++) if (h.getCountAtIndex(i) > 0) n++;
  const lows = new Float64Array(n);
  const counts = new Float64Array(n);
  let k = 0;
  for (let i = 0; i <= last; i++) {
    const c = h.getCountAtIndex(i);
    if (c === 0) continue;
    lows[k] = h.valueFromIndex(i) / 1e6;
    counts[k++] = c;
  }
  return { class: s.class, family: s.family, method: s.method, count: s.histogram.totalCount, sum: s.sumMs / 1000, lows, counts };
}

/** The snapshot a push sends: the fold's figures read now, with the run's counters, at epoch ms `at`. */
export function metricsSnapshot(fold: FoldSnapshot, figures: RunFigures, lag: GeneratorLag, at: number): MetricsSnapshot {
  return {
    at,
    requests: fold.series.map(requestSeries),
    sent: { ...figures.sent },
    dropped: { ...figures.dropped },
    remaining: fold.remaining.map((g) => ({ ...g })),
    ...(figures.violations !== undefined ? { violations: figures.violations } : {}),
    lag,
  };
}
