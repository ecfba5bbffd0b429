/**
 * HDR latency histograms: how one is made, keyed and summarized (values recorded in microseconds, reported
 * in milliseconds; each summary carries the compressed histogram so runs can be merged later). A live
 * run's histograms are the fold's (src/fold/histograms.ts); a merge of shards decodes the summaries'.
 */
import * as hdr from 'hdr-histogram-js';
import type { LatencySummary, RouteClass, StatusFamily } from '../results/schema.js';

const CURVE = [0, 50, 75, 90, 95, 99, 99.9, 99.99, 100];

/** A fresh histogram sized for anything from 1 µs up (it grows as needed). */
export function newHistogram(): hdr.Histogram {
  return hdr.build({
    lowestDiscernibleValue: 1,
    highestTrackableValue: 60_000_000,
    numberOfSignificantValueDigits: 3,
    autoResize: true,
    useWebAssembly: false,
  });
}

/** The map key of one class × family × view. */
export const histogramKey = (cls: string, fam: string, corrected: boolean): string => `${cls}|${fam}|${corrected ? 'c' : 'u'}`;

/** ms → integral µs, at least 1 (HDR cannot hold 0 with lowestDiscernibleValue 1). */
export function toMicros(ms: number): number {
  return Math.max(1, Math.round(ms * 1000));
}

const ms = (us: number): number => Math.round(us) / 1000;

/** The summary of one histogram (ms, the percentile curve and the compressed histogram for merging). */
export function summarize(h: hdr.Histogram, cls: RouteClass, family: StatusFamily, corrected: boolean): LatencySummary {
  // A percentile is the highest value of its HDR bucket, which can lie above the largest value recorded:
  // clamped to that maximum, so no report shows a p99 above its max.
  const at = (p: number): number => ms(Math.min(h.getValueAtPercentile(p), h.maxValue));
  return {
    class: cls,
    family,
    corrected,
    count: h.totalCount,
    min: ms(h.minNonZeroValue),
    mean: ms(h.mean),
    max: ms(h.maxValue),
    p50: at(50),
    p90: at(90),
    p95: at(95),
    p99: at(99),
    p999: at(99.9),
    curve: CURVE.map((p) => [p, at(p)] as [number, number]),
    hdr: hdr.encodeIntoCompressedBase64(h),
  };
}
