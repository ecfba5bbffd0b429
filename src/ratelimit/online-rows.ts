/**
 * The violation rows of a chunked rate-limit analysis (online.ts), merged across chunks. Each chunk's
 * analysis starts with the previous chunk's tail (the overlap), so it reports some rows again:
 * - a window row citing only samples an earlier chunk judged is that chunk's (or, near this chunk's start
 *   where context is cut, an artefact of the cut) and is dropped; one citing the chunk's last moments
 *   waits for the next chunk, which holds the requests that were still in flight;
 * - window-less rows aggregate one rule over the run: their new occurrences are the chunk's count minus
 *   the overlap's own count (exact for per-response rules);
 * - rows of one rule, key and class with overlapping windows (or the same message shape) merge, their
 *   cited samples identified by global index.
 * Rows are capped per rule, key and class; the rest are counted in the last row.
 */
import type { RateLimitAnalysis, RateLimitViolation } from '../results/schema.js';

type Model = RateLimitAnalysis['classes'][number]['model'];

interface Entry {
  v: RateLimitViolation;
  occurrences: number;
  cited: Set<number>;
  /** Message with digits blanked: identifies a window-less row across chunks. */
  shape: string;
  extra: number;
  /**
   * Found by the per-window count, which only runs on a budget classified fixed-window: a chunk can see a
   * token bucket's refills all look full, so the row stands only if the whole stream's model agrees.
   */
  fixedOnly: boolean;
}

/** Where a chunk's samples stand: `judgedBefore` = first global index no chunk judged; `ownTo` = first left to the next. */
export interface ChunkBounds {
  judgedBefore: number;
  ownTo: number;
}

const OCCURRENCES = / \((\d+) occurrences\)$/;
const MAX_CITED = 5;

/** The key by which a cited sample is found again among the chunk's samples. */
export const sampleKey = (t: number, cls: string, status: number, requestId: string | undefined): string =>
  `${t}|${cls}|${status}|${requestId ?? ''}`;

/** A budget's id: key and class. */
export const budgetId = (key: string | undefined, cls: string): string => `${key ?? ''}\u0000${cls}`;

function occurrencesOf(v: RateLimitViolation): { base: string; n: number } {
  const m = OCCURRENCES.exec(v.message);
  return m ? { base: v.message.slice(0, m.index), n: Number(m[1]) } : { base: v.message, n: 1 };
}

const shapeOf = (base: string): string => base.replace(/\d+(\.\d+)?/g, '#');
const sameRow = (a: RateLimitViolation, aShape: string, b: RateLimitViolation, bShape: string): boolean =>
  a.rule === b.rule &&
  a.class === b.class &&
  a.key === b.key &&
  (a.window && b.window ? a.window.start < b.window.end && b.window.start < a.window.end : !a.window && !b.window && aShape === bShape);

/** Violation rows merged across chunks. */
export class ViolationRows {
  private readonly entries: Entry[] = [];

  constructor(private readonly maxPerRule = 100) {}

  /** Rows kept so far (for live outputs: violations seen in the chunks analysed so far). */
  get size(): number {
    return this.entries.length;
  }

  /** Every cited sample of the analysis, as sampleKey strings (to resolve to global indexes). */
  static citedKeys(a: RateLimitAnalysis): Set<string> {
    const keys = new Set<string>();
    for (const v of a.violations) for (const c of v.samples) keys.add(sampleKey(c.t, c.class ?? v.class ?? 'read', c.status, c.requestId));
    return keys;
  }

  /** Merges one chunk's rows; `old` are the overlap's own rows, `ids` resolves cited samples (-1: unknown). */
  merge(a: RateLimitAnalysis, old: RateLimitViolation[], ids: Map<string, number>, at: ChunkBounds): void {
    const models = new Map(a.classes.map((c) => [budgetId(c.key, c.class), c.model]));
    // Rows of one analysis are distinct by construction: only rows of earlier chunks can be the same row.
    const earlier = this.entries.length;
    const oldRows = old.map((v) => {
      const o = occurrencesOf(v);
      return { v, shape: shapeOf(o.base), n: o.n, used: false };
    });
    for (const v of a.violations) {
      const { base, n } = occurrencesOf(v);
      const shape = shapeOf(base);
      const cited = v.samples.map((c) => ids.get(sampleKey(c.t, c.class ?? v.class ?? 'read', c.status, c.requestId)) ?? -1);
      const twin = oldRows.find((o) => !o.used && sameRow(o.v, o.shape, v, shape));
      if (twin) twin.used = true;
      const fresh = Math.max(0, n - (twin?.n ?? 0));
      const allOld = cited.every((g) => g >= 0 && g < at.judgedBefore);
      if (v.window && (allOld || cited.some((g) => g >= at.ownTo))) continue;
      if (!v.window && fresh === 0) continue;
      const candidates = this.entries.slice(0, earlier).filter((e) => sameRow(e.v, e.shape, v, shape));
      const entry = candidates.find((e) => cited.some((g) => e.cited.has(g))) ?? candidates[0];
      if (entry) {
        entry.occurrences += fresh;
        if (v.window && entry.v.window)
          entry.v.window = { start: Math.min(entry.v.window.start, v.window.start), end: Math.max(entry.v.window.end, v.window.end) };
        v.samples.forEach((c, i) => {
          const g = cited[i]!;
          if (entry.v.samples.length >= MAX_CITED || (g >= 0 && entry.cited.has(g))) return;
          entry.cited.add(g);
          entry.v.samples.push(c);
        });
        continue;
      }
      const same = this.entries.filter((e) => e.v.rule === v.rule && e.v.class === v.class && e.v.key === v.key);
      if (same.length >= this.maxPerRule) {
        same[same.length - 1]!.extra += 1;
        continue;
      }
      const windowRule =
        v.rule === '8.ratelimit.over-admission' ||
        (v.rule === '8.ratelimit.under-admission' && base.includes('in a window that admitted at most'));
      const fixedOnly = windowRule && models.get(budgetId(v.key, v.class ?? 'read')) === 'fixed-window';
      this.entries.push({
        v: { ...v, message: base, samples: [...v.samples] },
        occurrences: twin ? fresh || n : n,
        cited: new Set(cited.filter((g) => g >= 0)),
        shape,
        extra: 0,
        fixedOnly,
      });
    }
  }

  /** The merged rows, as analyzeRateLimits words them; `modelOf` gives each budget's whole-stream model. */
  list(modelOf: (key: string | undefined, cls: string) => Model | undefined): RateLimitViolation[] {
    return this.entries
      .filter((e) => !e.fixedOnly || modelOf(e.v.key, e.v.class ?? 'read') === 'fixed-window')
      .map((e) => {
        const more = e.extra > 0 ? `; ${e.extra} more rows of this rule not listed` : '';
        const extra = e.occurrences > 1 ? ` (${e.occurrences} occurrences)` : '';
        return { ...e.v, message: e.v.message + extra + more, samples: [...e.v.samples].sort((p, q) => p.t - q.t) };
      });
  }
}
