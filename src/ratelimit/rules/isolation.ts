/**
 * 8.ratelimit.classes-isolated, seen from Remaining: between two responses of one class, Remaining can
 * fall by at most the admissions of that class after the first, up to and including the second (with
 * Remaining reported before or after counting alike). A larger fall that the other class's admissions account for means the classes share a budget.
 * (Refusals explained by the other class are reported by the claim rules.)
 */
import type { BudgetContext } from '../context.js';
import { admittedPossiblyBetween } from '../group.js';
import type { ViolationSink } from '../sink.js';

/** Reports Remaining falls of one class that only the other class's traffic explains (within the span where no sample is missing). */
export function checkClassIsolation(ctx: BudgetContext, sink: ViolationSink, complete?: { fromMs: number; toMs: number }): void {
  const other = ctx.other;
  if (!other) return;
  const g = ctx.group;
  let j = 0;
  for (const b of g.bySent) {
    while (j < g.byReceived.length && g.byReceived[j]!.receivedAt <= b.sentAt) j++;
    // A 429's Remaining of 0 is a refusal, not consumption; the refusal rules judge it.
    if (!b.admitted || b.remaining === null || b.remaining < 0 || j === 0) continue;
    const a = g.byReceived[j - 1]!;
    // Requests missing from the samples (answered before them, in flight after) could account for the fall.
    if (complete && (a.sentAt < complete.fromMs || b.receivedAt > complete.toMs)) continue;
    if (a.remaining === null || a.remaining < 0) continue;
    const drop = a.remaining - b.remaining;
    const same = admittedPossiblyBetween(g, a.sentAt, b.receivedAt) - (a.admitted ? 1 : 0);
    // Before or after counting, the fall between two admitted responses equals the admissions after a
    // up to and including b, so no extra slack is needed.
    const excess = drop - same;
    if (excess <= 0) continue;
    const others = admittedPossiblyBetween(other, a.sentAt, b.receivedAt);
    if (others < excess) continue;
    sink.add({
      rule: '8.ratelimit.classes-isolated',
      sample: b,
      related: [a],
      window: ctx.windowOf(b),
      message: `${b.class} RateLimit-Remaining fell from ${a.remaining} to ${b.remaining} with at most ${same} ${b.class} request(s) admitted in between, but ${others} ${b.class === 'read' ? 'write' : 'read'} request(s)`,
    });
  }
}
