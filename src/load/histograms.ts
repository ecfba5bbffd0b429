/**
 * HDR latency histograms of a run, split by route class × status family, corrected (from the intended
 * send time) and uncorrected (from the actual send). Values are recorded in microseconds and reported in
 * milliseconds; each summary carries the compressed histogram so runs can be merged later. Responses are
 * recorded as they arrive: the memory is that of the histograms, whatever the run's length.
 */
import * as hdr from 'hdr-histogram-js';
import type { LatencySummary, RouteClass } from '../results/schema.js';
import type { Family } from './threshold.js';

const CURVE = [0, 50, 75, 90, 95, 99, 99.9, 99.99, 100];
/** The route classes and status families every run keeps a histogram of. */
export const CLASSES: RouteClass[] = ['read', 'write'];
export const FAMILIES: Family[] = ['2xx', '429', 'other'];

/** The status family a response belongs to; 0 (transport failure) has none. */
export function familyOf(status: number): Family | undefined {
  if (status === 0) return undefined;
  if (status >= 200 && status < 300) return '2xx';
  if (status === 429) return '429';
  return 'other';
}

/** A fresh histogram sized for anything from 1 µs up (it grows as needed). */
export function newHistogram(): hdr.Histogram {
  return hdr.build({ lowestDiscernibleValue: 1, highestTrackableValue: 60_000_000, numberOfSignificantValueDigits: 3, autoResize: true, useWebAssembly: false });
}

/** The map key of one class × family × view. */
export const histogramKey = (cls: string, fam: string, corrected: boolean): string => `${cls}|${fam}|${corrected ? 'c' : 'u'}`;

export class LatencyHistograms {
  private readonly map = new Map<string, hdr.Histogram>();
  /** The same histograms by class (read, write) then family (2xx, 429, other): no key string per response. */
  private readonly uncorrected: hdr.Histogram[][];
  private readonly corrected: hdr.Histogram[][] | undefined;

  /** Empty histograms; the corrected view only when the run has intended send times (open model). */
  constructor(readonly hasCorrected: boolean) {
    for (const c of CLASSES) for (const f of FAMILIES) for (const corr of hasCorrected ? [false, true] : [false]) this.map.set(histogramKey(c, f, corr), newHistogram());
    const table = (corr: boolean): hdr.Histogram[][] => CLASSES.map((c) => FAMILIES.map((f) => this.map.get(histogramKey(c, f, corr))!));
    this.uncorrected = table(false);
    this.corrected = hasCorrected ? table(true) : undefined;
  }

  /** Records one response's latencies (ms); transport failures (status 0) are not recorded. */
  record(cls: RouteClass, status: number, latencyMs: number, correctedMs: number): void {
    if (status === 0) return;
    // The family index as familyOf names it: 2xx, 429, other.
    const fam = status >= 200 && status < 300 ? 0 : status === 429 ? 1 : 2;
    const c = cls === 'read' ? 0 : 1;
    this.uncorrected[c]![fam]!.recordValue(toMicros(latencyMs));
    if (this.corrected) this.corrected[c]![fam]!.recordValue(toMicros(correctedMs));
  }

  /** A merged histogram over the selected classes and families (the corrected view when there is one). */
  merged(cls?: RouteClass, family?: Family, corrected = this.hasCorrected): hdr.Histogram {
    const out = newHistogram();
    for (const c of cls ? [cls] : CLASSES) for (const f of family ? [family] : FAMILIES) out.add(this.map.get(histogramKey(c, f, corrected && this.hasCorrected))!);
    return out;
  }

  /** One summary per non-empty class × family × view. */
  summaries(): LatencySummary[] {
    const out: LatencySummary[] = [];
    for (const c of CLASSES) {
      for (const f of FAMILIES) {
        for (const corr of this.hasCorrected ? [true, false] : [false]) {
          const h = this.map.get(histogramKey(c, f, corr))!;
          if (h.totalCount === 0) continue;
          out.push(summarize(h, c, f, corr));
        }
      }
    }
    return out;
  }
}

/** ms → integral µs, at least 1 (HDR cannot hold 0 with lowestDiscernibleValue 1). */
export function toMicros(ms: number): number {
  return Math.max(1, Math.round(ms * 1000));
}

const ms = (us: number): number => Math.round(us) / 1000;

/** The summary of one histogram (ms, the percentile curve and the compressed histogram for merging). */
export function summarize(h: hdr.Histogram, cls: RouteClass, family: Family, corrected: boolean): LatencySummary {
  return {
    class: cls,
    family,
    corrected,
    count: h.totalCount,
    min: ms(h.minNonZeroValue),
    mean: ms(h.mean),
    max: ms(h.maxValue),
    p50: ms(h.getValueAtPercentile(50)),
    p90: ms(h.getValueAtPercentile(90)),
    p95: ms(h.getValueAtPercentile(95)),
    p99: ms(h.getValueAtPercentile(99)),
    p999: ms(h.getValueAtPercentile(99.9)),
    curve: CURVE.map((p) => [p, ms(h.getValueAtPercentile(p))] as [number, number]),
    hdr: hdr.encodeIntoCompressedBase64(h),
  };
}
