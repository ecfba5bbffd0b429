/**
 * Refusals that contradict what the limiter itself said. Once a response reported Remaining k, the budget
 * only shrinks through admissions (time can only give budget back), whatever the model. So a 429 after
 * fewer than k-1 admissions since that response, or a 429 that itself reports budget left, breaks:
 * - 8.ratelimit.classes-isolated when the other class's admissions in between explain it,
 * - 8.ratelimit.remaining-decreases when admitted responses never lowered Remaining (a stuck counter),
 * - 8.ratelimit.under-admission otherwise.
 */
import type { ClauseId } from '../../spec/clauses.js';
import type { BudgetContext } from '../context.js';
import { admittedPossiblyBetween } from '../group.js';
import type { ParsedSample } from '../parsed.js';
import type { ViolationSink } from '../sink.js';

const LOOKBACK = 64;

/**
 * Reports 429s that the budget announced by earlier responses (or by the 429 itself) does not allow.
 * `complete` is the span in which no sample is missing (AnalyzeOptions): a claim made before it is not
 * held against a refusal, since admissions answered before the span's start are not there to count.
 */
export function checkRefusalClaims(ctx: BudgetContext, sink: ViolationSink, complete?: { fromMs: number }): void {
  const g = ctx.group;
  for (const b of g.bySent) {
    if (!b.refused) continue;
    if (b.remaining !== null && b.remaining >= 1) {
      const rule = classify(ctx, b, 0);
      sink.add({ rule, sample: b, window: ctx.windowOf(b), message: `429 while its own RateLimit-Remaining was ${b.remaining}` });
      continue;
    }
    const a = lastAdmittedBefore(ctx, b);
    if (!a || (complete && a.sentAt < complete.fromMs)) continue;
    // Admissions possibly counted after a (a itself excluded): in-flight requests are given the benefit.
    const between = admittedPossiblyBetween(g, a.sentAt, b.receivedAt) - 1;
    // No slack for Remaining reported before the count: a limiter that says "1 left" and then refuses
    // the next request with nothing admitted in between has broken its own word (a realistic misconfiguration).
    const left = a.remaining! - between;
    if (left < 1) continue;
    const otherBetween = ctx.other ? admittedPossiblyBetween(ctx.other, a.sentAt, b.receivedAt) : 0;
    const rule = classify(ctx, b, left <= otherBetween && sharesBudget(ctx, sink, b) ? otherBetween : 0);
    const why = rule === '8.ratelimit.classes-isolated' ? `; ${otherBetween} ${otherClass(b)} request(s) were admitted in between` : '';
    sink.add({
      rule,
      sample: b,
      related: [a],
      window: ctx.windowOf(b),
      message: `429 although a response ${fmt(b.sentAt - a.receivedAt)} earlier reported RateLimit-Remaining ${a.remaining} and at most ${between} request(s) were admitted since${why}`,
    });
  }
}

/** True when the Remaining-based isolation rule already saw the other class eat into this budget. */
export function sharesBudget(ctx: BudgetContext, sink: ViolationSink, s: ParsedSample): boolean {
  return ctx.other !== undefined && sink.has('8.ratelimit.classes-isolated', s);
}

/** Names the rule a contradicted refusal breaks (see the file comment). */
export function classify(ctx: BudgetContext, b: ParsedSample, otherExplains: number): ClauseId {
  if (otherExplains > 0) return '8.ratelimit.classes-isolated';
  return remainingStuck(ctx, b) ? '8.ratelimit.remaining-decreases' : '8.ratelimit.under-admission';
}

/** True when the admitted responses before b never showed Remaining going down. */
function remainingStuck(ctx: BudgetContext, b: ParsedSample): boolean {
  const g = ctx.group;
  let decreases = 0;
  let flat = 0;
  let prev: ParsedSample | undefined;
  let seen = 0;
  for (let i = lastIndexBy(ctx, b.sentAt); i >= 0 && seen < LOOKBACK; i--) {
    const y = g.byReceived[i]!;
    if (!y.admitted || y.remaining === null) continue;
    seen += 1;
    // Walking backwards: prev is later than y.
    if (prev && y.receivedAt <= prev.sentAt) {
      if (prev.remaining! < y.remaining) decreases += 1;
      else flat += 1;
    }
    prev = y;
  }
  return decreases === 0 && flat >= 1;
}

function lastIndexBy(ctx: BudgetContext, t: number): number {
  const times = ctx.group.receivedTimes;
  let lo = 0;
  let hi = times.length;
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    if (times[mid]! <= t) lo = mid + 1;
    else hi = mid;
  }
  return lo - 1;
}

function lastAdmittedBefore(ctx: BudgetContext, b: ParsedSample): ParsedSample | undefined {
  const g = ctx.group;
  for (let i = lastIndexBy(ctx, b.sentAt), n = 0; i >= 0 && n < LOOKBACK; i--, n++) {
    const a = g.byReceived[i]!;
    if (a.admitted && a.remaining !== null && a.remaining >= 0) return a;
  }
  return undefined;
}

function otherClass(s: ParsedSample): string {
  return s.class === 'read' ? 'write' : 'read';
}

/** Formats a duration in ms for messages. */
export function fmt(ms: number): string {
  return ms >= 1000 ? `${(ms / 1000).toFixed(2)} s` : `${Math.round(ms)} ms`;
}
