/**
 * 8.ratelimit.reset-restores: the budget is full again when RateLimit-Reset said. After a response a's
 * claim time, the budget can only be short by what was admitted since a (for a fixed window, a token
 * bucket and a sliding log alike). So a later response b that is refused, or reports less Remaining than
 * Limit minus the admissions since a, shows the budget did not come back.
 */
import { claimedFullAt, type BudgetContext } from '../context.js';
import { admittedPossiblyBetween } from '../group.js';
import type { ParsedSample } from '../parsed.js';
import type { ViolationSink } from '../sink.js';
import { fmt, sharesBudget } from './claims.js';

/** Reports responses that show the budget still spent after a Reset claim had passed. */
export function checkResetRestores(ctx: BudgetContext, sink: ViolationSink): void {
  const L = ctx.announcedLimit ?? ctx.limit;
  if (L === null) return;
  const g = ctx.group;
  // Claims in (time, input order). Taken in receivedAt order, they are already in that order while Reset
  // holds steady (a full-speed run's usual case): the sort only runs when the check finds them not.
  const claims: Array<{ s: ParsedSample; at: number }> = [];
  let ordered = true;
  for (const s of g.byReceived) {
    if (s.reset === null) continue;
    const c = { s, at: claimedFullAt(ctx, s.receivedAt, s.reset) };
    const prev = claims[claims.length - 1];
    if (prev && (prev.at > c.at || (prev.at === c.at && prev.s.index > c.s.index))) ordered = false;
    claims.push(c);
  }
  if (!ordered) claims.sort((x, y) => x.at - y.at || x.s.index - y.s.index);
  let i = 0;
  let best: { s: ParsedSample; at: number } | undefined;
  for (const b of g.bySent) {
    while (i < claims.length && claims[i]!.at <= b.sentAt) {
      const c = claims[i++]!;
      if (!best || c.s.sentAt > best.s.sentAt) best = c;
    }
    if (!best) continue;
    const a = best.s;
    const since = admittedPossiblyBetween(g, a.sentAt, b.receivedAt);
    const other = ctx.other ? admittedPossiblyBetween(ctx.other, a.sentAt, b.receivedAt) : 0;
    let problem: string | undefined;
    let explainedByOther = false;
    if (b.refused && since < L) {
      problem = `429 ${fmt(b.sentAt - a.receivedAt)} after a response said the budget would be full in ${a.reset} s, with at most ${since} request(s) admitted since`;
      explainedByOther = other > 0 && since + other >= L && sharesBudget(ctx, sink, b);
    } else if (b.admitted && b.remaining !== null && b.remaining >= 0 && b.remaining < L - since - 1) {
      problem = `RateLimit-Remaining ${b.remaining} ${fmt(b.sentAt - a.receivedAt)} after a response said the budget of ${L} would be full in ${a.reset} s, with at most ${since} request(s) admitted since`;
      explainedByOther = other > 0 && b.remaining >= L - since - other - 1 && sharesBudget(ctx, sink, b);
    }
    if (!problem) continue;
    sink.add({
      rule: explainedByOther ? '8.ratelimit.classes-isolated' : '8.ratelimit.reset-restores',
      sample: b,
      related: [a],
      window: ctx.windowOf(b),
      message: explainedByOther ? `${problem}; ${other} request(s) of the other class were admitted in between` : problem,
    });
  }
}
