/** 8.ratelimit.limit-constant: RateLimit-Limit is one value for a route class (and key). */
import type { BudgetContext } from '../context.js';
import type { ViolationSink } from '../sink.js';

/** Reports responses whose Limit differs from the budget's usual (most frequent) Limit. */
export function checkLimitConstant(ctx: BudgetContext, sink: ViolationSink, usual: number | null): void {
  if (usual === null) return;
  for (const s of ctx.group.bySent) {
    if (s.limit === null || s.limit === usual) continue;
    sink.add({
      rule: '8.ratelimit.limit-constant',
      sample: s,
      bucket: s.limit,
      message: `RateLimit-Limit changed from ${usual} to ${s.limit}`,
    });
  }
}
