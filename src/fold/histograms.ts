/**
 * The run's HDR latency histograms, the one place a response's duration is kept: uncorrected (from the
 * actual send) per route class × method × status family — transport failures too, in family `error` —
 * with the exact sum of the durations beside each; corrected (from the intended send, open model only) per
 * class × family. The results' latency summaries and the thresholds read class × family views (methods
 * added together; `error` is no latency family of the results), the live metrics read the per-method
 * series (FoldSeries). Values are recorded in microseconds. Histograms are made on their first response,
 * so the memory is that of the label combinations seen, whatever the run's length.
 */
import type * as hdr from 'hdr-histogram-js';
import type { LatencySummary, RouteClass } from '../results/schema.js';
import { STATUS_FAMILIES, type StatusFamily } from '../results/schema.js';
import { ROUTE_CLASSES } from '../spec/routes.js';
import { newHistogram, summarize, toMicros } from './hdr.js';
import { SERIES_FAMILIES, seriesFamilyIndex, type SeriesFamily } from './status-family.js';

/** One duration series of the fold: a live view, to be read at once (it goes on folding responses). */
export interface FoldSeries {
  class: RouteClass;
  method: string;
  family: SeriesFamily;
  /** Durations (µs) of the series' responses; `totalCount` is the series' count. */
  histogram: hdr.Histogram;
  /** Exact sum of the durations, ms. */
  sumMs: number;
}

/** The (class, method) pairs of a plan's routes, each route's slot among them. */
interface Slots {
  pairs: { class: RouteClass; method: string }[];
  ofRoute: Int32Array;
}

function slotsOf(routes: readonly { class: RouteClass; method: string }[]): Slots {
  const pairs: Slots['pairs'] = [];
  const ofRoute = new Int32Array(routes.length);
  routes.forEach((r, i) => {
    let k = pairs.findIndex((p) => p.class === r.class && p.method === r.method);
    if (k < 0) k = pairs.push({ class: r.class, method: r.method }) - 1;
    ofRoute[i] = k;
  });
  return { pairs, ofRoute };
}

export class FoldHistograms {
  private readonly slots: Slots;
  /** Uncorrected, by slot × family (SERIES_FAMILIES order); undefined until the first response. */
  private readonly uncorrected: (hdr.Histogram | undefined)[];
  private readonly sums: Float64Array;
  /** Corrected, by class × family (STATUS_FAMILIES order), when the run has intended send times. */
  private readonly corrected: hdr.Histogram[] | undefined;

  constructor(
    routes: readonly { class: RouteClass; method: string }[],
    readonly hasCorrected: boolean,
  ) {
    this.slots = slotsOf(routes);
    this.uncorrected = new Array<hdr.Histogram | undefined>(this.slots.pairs.length * 4).fill(undefined);
    this.sums = new Float64Array(this.slots.pairs.length * 4);
    this.corrected = hasCorrected ? ROUTE_CLASSES.flatMap(() => STATUS_FAMILIES.map(() => newHistogram())) : undefined;
  }

  /** Records one response of route `route` (its index in the plan): latencies in ms. */
  record(route: number, cls: RouteClass, status: number, latencyMs: number, correctedMs: number): void {
    const fam = seriesFamilyIndex(status);
    const i = this.slots.ofRoute[route]! * 4 + fam;
    const ms = latencyMs > 0 ? latencyMs : 0;
    (this.uncorrected[i] ?? (this.uncorrected[i] = newHistogram())).recordValue(toMicros(ms));
    this.sums[i]! += ms;
    if (this.corrected && fam !== 3) this.corrected[(cls === 'read' ? 0 : 3) + fam]!.recordValue(toMicros(correctedMs));
  }

  /** A merged histogram over the selected classes and families (the corrected view when there is one). */
  merged(cls?: RouteClass, family?: StatusFamily, corrected = this.hasCorrected): hdr.Histogram {
    const out = newHistogram();
    const fams = family ? [STATUS_FAMILIES.indexOf(family)] : [0, 1, 2];
    if (corrected && this.corrected) {
      for (const c of cls ? [ROUTE_CLASSES.indexOf(cls)] : [0, 1]) for (const f of fams) out.add(this.corrected[c * 3 + f]!);
      return out;
    }
    this.slots.pairs.forEach((p, k) => {
      if (cls && p.class !== cls) return;
      for (const f of fams) {
        const h = this.uncorrected[k * 4 + f];
        if (h) out.add(h);
      }
    });
    return out;
  }

  /** One summary per non-empty class × family × view (the results' latency). */
  summaries(): LatencySummary[] {
    const out: LatencySummary[] = [];
    for (const c of ROUTE_CLASSES) {
      for (const f of STATUS_FAMILIES) {
        for (const corr of this.hasCorrected ? [true, false] : [false]) {
          const h = this.merged(c, f, corr);
          if (h.totalCount > 0) out.push(summarize(h, c, f, corr));
        }
      }
    }
    return out;
  }

  /** The non-empty uncorrected series per class × method × family: live views (see FoldSeries). */
  series(): FoldSeries[] {
    const out: FoldSeries[] = [];
    this.slots.pairs.forEach((p, k) => {
      SERIES_FAMILIES.forEach((family, f) => {
        const h = this.uncorrected[k * 4 + f];
        if (h && h.totalCount > 0) out.push({ class: p.class, method: p.method, family, histogram: h, sumMs: this.sums[k * 4 + f]! });
      });
    });
    return out;
  }
}
