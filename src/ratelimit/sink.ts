/**
 * Collects violations and aggregates repeats: a broken limiter breaks the same rule on thousands of
 * responses, and a readable report has one row per rule, class and window, citing a few samples and
 * saying how many more there were.
 */
import type { RateLimitViolation } from '../results/schema.js';
import type { ClauseId } from '../spec/clauses.js';
import type { ParsedSample } from './parsed.js';

export const MAX_CITED = 5;

export interface ViolationInput {
  rule: ClauseId;
  sample: ParsedSample;
  /** Other samples that make the case (the earlier response whose claim was broken, ...). */
  related?: ParsedSample[];
  /** Window the violation falls in, ms since start; omitted for per-response rules. */
  window?: { start: number; end: number };
  /** One sentence about this occurrence; the first occurrence's message is kept. */
  message: string;
  /** Aggregation bucket inside (rule, key, class); defaults to the window start or the whole run. */
  bucket?: string | number;
  /** The finding is about the spec's own headers even though the sample carries another dialect. */
  specFields?: boolean;
  /** Responses this occurrence stands for (per-response rules pass the sample's weight; default 1). */
  responses?: number;
}

interface Entry {
  v: RateLimitViolation;
  occurrences: number;
  cited: Set<number>;
  order: number;
}

/** A violation collector with per-(rule, key, class, bucket) aggregation. */
export class ViolationSink {
  private readonly entries = new Map<string, Entry>();
  private seq = 0;

  /**
   * `seen`: the (rule, key, class) triples recorded so far, shared with earlier analyses of the same run (the
   * online analyzer's chunks), so that has() knows what an earlier chunk found; add() adds to it.
   */
  constructor(private readonly seen: Set<string> = new Set()) {}

  /** Records one occurrence. */
  add(input: ViolationInput): void {
    const s = input.sample;
    const bucket = input.bucket ?? input.window?.start ?? 'run';
    const id = `${input.rule}|${s.key}|${s.class}|${bucket}`;
    this.seen.add(`${input.rule}|${s.key}|${s.class}`);
    let e = this.entries.get(id);
    if (!e) {
      const v: RateLimitViolation = { rule: input.rule, class: s.class, message: input.message, samples: [] };
      if (s.key !== '') v.key = s.key;
      if (input.window) v.window = { start: round(input.window.start), end: round(input.window.end) };
      // Findings read from another API's headers are about the IETF draft's semantics, not the spec.
      if (!input.specFields && s.raw.dialect !== undefined && s.raw.dialect !== 'spec') v.dialect = s.raw.dialect;
      e = { v, occurrences: 0, cited: new Set(), order: this.seq++ };
      this.entries.set(id, e);
    } else if (input.window && e.v.window) {
      e.v.window = { start: Math.min(e.v.window.start, round(input.window.start)), end: Math.max(e.v.window.end, round(input.window.end)) };
    }
    e.occurrences += input.responses ?? 1;
    for (const c of [...(input.related ?? []), s]) {
      if (e.v.samples.length >= MAX_CITED || e.cited.has(c.index)) continue;
      e.cited.add(c.index);
      e.v.samples.push(cite(c));
    }
  }

  /** True when a violation of `rule` was recorded for the sample's key and class (here or in an earlier chunk). */
  has(rule: ClauseId, s: ParsedSample): boolean {
    return this.seen.has(`${rule}|${s.key}|${s.class}`);
  }

  /** The aggregated violations, in a deterministic order (first occurrence first). */
  list(): RateLimitViolation[] {
    return [...this.entries.values()]
      .sort((a, b) => a.order - b.order)
      .map((e) => {
        const extra = e.occurrences > 1 ? ` (${e.occurrences} occurrences)` : '';
        const v = { ...e.v, message: e.v.message + extra };
        v.samples = [...v.samples].sort((a, b) => a.t - b.t);
        return v;
      });
  }
}

function round(ms: number): number {
  return Math.round(ms * 1000) / 1000;
}

function cite(s: ParsedSample): RateLimitViolation['samples'][number] {
  const ref: RateLimitViolation['samples'][number] = { t: round(s.sentAt), status: s.status, class: s.class };
  if (s.raw.requestId !== undefined) ref.requestId = s.raw.requestId;
  return ref;
}
