/**
 * Lossless merge of the shards' latency histograms: every LatencySummary carries its HDR histogram
 * compressed (`hdr`), so merging is decode, add, summarise again — the merged percentiles are those of
 * one histogram holding every shard's responses, not an average of the shards' percentiles. Pure.
 */
import * as hdr from 'hdr-histogram-js';
import { STATUS_FAMILIES, type LatencySummary, type RouteClass, type StatusFamily } from '../results/schema.js';
import { ROUTE_CLASSES } from '../spec/routes.js';
import { histogramKey as key, newHistogram, summarize } from '../fold/hdr.js';

/** Decodes one summary's histogram (values in µs, as recorded). */
export function decodeSummary(s: LatencySummary): hdr.Histogram {
  const h = hdr.decodeFromCompressedBase64(s.hdr, 32, false);
  // Decoded histograms keep their recorded range; the sum must grow as needed.
  h.autoResize = true;
  return h;
}

/** The shards' histograms added per class × family × view. */
export class MergedHistograms {
  private readonly map = new Map<string, hdr.Histogram>();
  /** Exact min and max (ms) per key, from the summaries: a decoded histogram knows them only to its bucket. */
  private readonly extremes = new Map<string, { min: number; max: number }>();
  readonly hasCorrected: boolean;

  constructor(shards: LatencySummary[][]) {
    let corrected = false;
    for (const list of shards) {
      for (const s of list) {
        if (s.corrected) corrected = true;
        const k = key(s.class, s.family, s.corrected);
        let h = this.map.get(k);
        if (!h) this.map.set(k, (h = newHistogram()));
        h.add(decodeSummary(s));
        const e = this.extremes.get(k);
        this.extremes.set(k, e ? { min: Math.min(e.min, s.min), max: Math.max(e.max, s.max) } : { min: s.min, max: s.max });
      }
    }
    this.hasCorrected = corrected;
  }

  /** One histogram over the selected classes and families (the corrected view when the run had one). */
  merged(cls?: RouteClass, family?: StatusFamily): hdr.Histogram {
    const out = newHistogram();
    for (const c of cls ? [cls] : ROUTE_CLASSES) {
      for (const f of family ? [family] : STATUS_FAMILIES) {
        const h = this.map.get(key(c, f, this.hasCorrected));
        if (h) out.add(h);
      }
    }
    return out;
  }

  /** Exact min and max (ms) over the selected classes and families, or null when nothing was recorded. */
  range(cls?: RouteClass, family?: StatusFamily): { min: number; max: number } | null {
    let out: { min: number; max: number } | null = null;
    for (const c of cls ? [cls] : ROUTE_CLASSES) {
      for (const f of family ? [family] : STATUS_FAMILIES) {
        const e = this.extremes.get(key(c, f, this.hasCorrected));
        if (e) out = out ? { min: Math.min(out.min, e.min), max: Math.max(out.max, e.max) } : { ...e };
      }
    }
    return out;
  }

  /** Summaries in the order a single run lists them (class, family, corrected view first). */
  summaries(): LatencySummary[] {
    const out: LatencySummary[] = [];
    for (const c of ROUTE_CLASSES) {
      for (const f of STATUS_FAMILIES) {
        for (const corr of [true, false]) {
          const h = this.map.get(key(c, f, corr));
          if (!h || h.totalCount === 0) continue;
          const e = this.extremes.get(key(c, f, corr))!;
          out.push({ ...summarize(h, c, f, corr), min: e.min, max: e.max });
        }
      }
    }
    return out;
  }
}
