/**
 * 8.ratelimit.retry-after-honoured: once a 429's Retry-After has elapsed there is budget for at least one
 * request, so a request refused later must have been preceded by an admission that may have taken it.
 * Retry-After is rounded up, so the budget may have come back up to a second before the wait ended, and
 * any admission since that earliest moment counts.
 */
import { CLOCK_EPS_MS, type BudgetContext } from '../context.js';
import { admittedPossiblyBetween } from '../group.js';
import type { ParsedSample } from '../parsed.js';
import type { ViolationSink } from '../sink.js';
import { fmt, sharesBudget } from './claims.js';

/** Reports 429s to requests sent after an earlier Retry-After had elapsed, with no admission in between. */
export function checkRetryAfterHonoured(ctx: BudgetContext, sink: ViolationSink): void {
  const g = ctx.group;
  const waits = g.bySent
    .filter((s) => s.refused && s.retryAfter !== null)
    .map((s) => ({
      s,
      at: s.receivedAt + s.retryAfter! * 1000 + ctx.roundingSlackMs + CLOCK_EPS_MS,
      earliest: s.sentAt + (s.retryAfter! - 1) * 1000 - ctx.roundingSlackMs - CLOCK_EPS_MS,
    }))
    .sort((x, y) => x.at - y.at || x.s.index - y.s.index);
  let i = 0;
  let latest: { s: ParsedSample; at: number; earliest: number } | undefined;
  for (const b of g.bySent) {
    while (i < waits.length && waits[i]!.at <= b.sentAt) {
      const w = waits[i++]!;
      if (!latest || w.earliest > latest.earliest) latest = w;
    }
    if (!latest || !b.refused) continue;
    if (admittedPossiblyBetween(g, latest.earliest, b.receivedAt) > 0) continue;
    const other = ctx.other && sharesBudget(ctx, sink, b) ? admittedPossiblyBetween(ctx.other, latest.earliest, b.receivedAt) : 0;
    const a = latest.s;
    const base = `429 to a request sent ${fmt(b.sentAt - a.receivedAt)} after a 429 with Retry-After ${a.retryAfter} s, and nothing of this class admitted in between`;
    sink.add({
      rule: other > 0 ? '8.ratelimit.classes-isolated' : '8.ratelimit.retry-after-honoured',
      sample: b,
      related: [a],
      window: ctx.windowOf(b),
      message: other > 0 ? `${base}; ${other} request(s) of the other class were` : base,
    });
  }
}
