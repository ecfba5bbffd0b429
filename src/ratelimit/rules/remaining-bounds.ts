/** 8.ratelimit.remaining-bounds: 0 <= RateLimit-Remaining <= RateLimit-Limit on every response. */
import type { BudgetContext } from '../context.js';
import type { ViolationSink } from '../sink.js';

/** Reports a negative Remaining, or one above the Limit of the same response. */
export function checkRemainingBounds(ctx: BudgetContext, sink: ViolationSink): void {
  for (const s of ctx.group.bySent) {
    if (s.remaining === null) continue;
    if (s.remaining < 0) {
      sink.add({
        rule: '8.ratelimit.remaining-bounds',
        sample: s,
        responses: s.weight,
        bucket: 'negative',
        message: `RateLimit-Remaining is negative (${s.remaining})`,
      });
    } else if (s.limit !== null && s.remaining > s.limit) {
      sink.add({
        rule: '8.ratelimit.remaining-bounds',
        sample: s,
        responses: s.weight,
        bucket: 'above-limit',
        message: `RateLimit-Remaining ${s.remaining} is above RateLimit-Limit ${s.limit}`,
      });
    }
  }
}
