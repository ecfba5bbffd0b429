/**
 * When is the budget full again, from the headers alone? Every attempt of a shrink or a repeated replay
 * must start from a full budget, or attempts are not comparable. Each response claims its budget is full
 * `RateLimit-Reset` seconds after it arrived (a 429 also `Retry-After`); the latest claim of each budget is
 * when the next attempt may start. Nothing is guessed: a budget that announces no Reset has no claim, and
 * the caller says so. Whether an attempt really started full is checked from its first response. Pure.
 */
import { groupSamples } from '../ratelimit/group.js';
import { resetCountsMs } from '../ratelimit/model.js';
import { parseSamples } from '../ratelimit/parsed.js';
import type { TraceRecord } from '../trace/record.js';
import { traceToSamples } from '../trace/samples.js';

/** A little past the claim: clocks differ by a few ms between client and server. */
const MARGIN_MS = 50;

/** One budget: the key role (when named) and the route class. */
export function budgetId(r: Pick<TraceRecord, 'key' | 'class'>): string {
  return r.key ? `${r.class} (key ${r.key})` : r.class;
}

/** A header's whole number (RateLimit-Reset, Retry-After, …), or null when absent or not one. */
export const wholeNumber = (v: string | undefined): number | null => (v !== undefined && /^\d+$/.test(v.trim()) ? Number(v) : null);

/**
 * Budgets whose RateLimit-Reset visibly counts milliseconds (it falls by the milliseconds that pass, the
 * analyzer's own test): their claims are read in ms, else a wait would be a thousand times too long.
 */
export function msResetBudgets(records: readonly TraceRecord[]): Set<string> {
  const out = new Set<string>();
  for (const [id, unit] of resetUnits(records)) if (unit === 'ms') out.add(id);
  return out;
}

/**
 * The unit each budget's Reset counts, where the records can tell: three or more ordered falls of Reset
 * (fewer say nothing either way, and the caller keeps what it knew). A limiter fixed between attempts
 * switches back to seconds this way.
 */
export function resetUnits(records: readonly TraceRecord[]): Map<string, 'ms' | 's'> {
  const out = new Map<string, 'ms' | 's'>();
  for (const g of groupSamples(parseSamples(traceToSamples(records)))) {
    let falls = 0;
    let last: { reset: number; receivedAt: number } | undefined;
    for (const s of g.bySent) {
      if (s.reset === null || (last && s.sentAt < last.receivedAt)) continue;
      if (last && last.reset > s.reset) falls += 1;
      last = { reset: s.reset, receivedAt: s.receivedAt };
    }
    if (falls >= 3) out.set(g.key ? `${g.class} (key ${g.key})` : g.class, resetCountsMs(g) ? 'ms' : 's');
  }
  return out;
}

export interface FullAgain {
  /** Latest claim over every budget, ms on the records' clock; null when no budget made a claim. */
  atMs: number | null;
  /** The budget whose claim is latest, and the claim in seconds as announced (for messages). */
  latest?: { budget: string; claimSeconds: number; unit: 's' | 'ms' };
  /** Budgets with responses but no usable Reset or Retry-After: nothing says when they are full. */
  unclaimed: string[];
}

/** The moment (on the records' clock) at which every budget the records touched is full again. */
export function fullAgainAt(records: readonly TraceRecord[], msReset: ReadonlySet<string> = new Set()): FullAgain {
  const claims = new Map<string, { at: number; seconds: number; unit: 's' | 'ms' }>();
  const seen = new Set<string>();
  for (const r of records) {
    if (r.status === 0) continue;
    const id = budgetId(r);
    seen.add(id);
    const received = r.t + r.latency;
    const unit = msReset.has(id) ? 'ms' : 's';
    const reset = wholeNumber(r.reset);
    const retry = r.status === 429 ? wholeNumber(r.retryAfter) : null;
    for (const v of [reset, retry]) {
      if (v === null) continue;
      // Retry-After is always seconds (RFC 9110); only Reset may count ms.
      const ms = v === reset && unit === 'ms' ? v : v * 1000;
      const at = received + ms + MARGIN_MS;
      const prev = claims.get(id);
      if (!prev || at > prev.at) claims.set(id, { at, seconds: v, unit: v === reset ? unit : 's' });
    }
  }
  let best: (FullAgain['latest'] & { at: number }) | undefined;
  for (const [budget, c] of claims) if (!best || c.at > best.at) best = { budget, claimSeconds: c.seconds, unit: c.unit, at: c.at };
  const unclaimed = [...seen].filter((b) => !claims.has(b));
  return best
    ? { atMs: best.at, latest: { budget: best.budget, claimSeconds: best.claimSeconds, unit: best.unit }, unclaimed }
    : { atMs: null, unclaimed };
}

/**
 * Budgets an attempt did not start with full, judged from each budget's first response: a 429, or a
 * Remaining lower than Limit − 1 by more than the requests (of any budget: a limiter may share one) that
 * could have been counted before it. Responses without the headers say nothing and are not held against it.
 */
export function notStartedFull(records: readonly TraceRecord[]): string[] {
  const answered = records.filter((r) => r.status !== 0).sort((a, b) => a.t - b.t);
  const out: string[] = [];
  for (const [id, r] of firstAnswers(answered)) {
    if (r.status === 429) {
      out.push(id);
      continue;
    }
    const limit = wholeNumber(r.limit);
    const remaining = wholeNumber(r.remaining);
    if (limit === null || remaining === null) continue;
    const received = r.t + r.latency;
    const before = answered.filter((x) => x !== r && x.t < received).length;
    if (remaining + before < limit - 1) out.push(id);
  }
  return out;
}

/** Each budget's first answer (records with a status, in send order), by budgetId. */
export function firstAnswers(records: readonly TraceRecord[]): Map<string, TraceRecord> {
  const first = new Map<string, TraceRecord>();
  for (const r of [...records].filter((x) => x.status !== 0).sort((a, b) => a.t - b.t))
    if (!first.has(budgetId(r))) first.set(budgetId(r), r);
  return first;
}
