/**
 * 8.ratelimit.reset-plausible: Reset counts seconds and is no longer than the window. Seconds can be told
 * from milliseconds without knowing the window: between two responses, a Reset in seconds never falls by
 * more than the time that passed (plus rounding) — in every model, time is the only thing that lowers it.
 */
import type { BudgetContext } from '../context.js';
import type { ParsedSample } from '../parsed.js';
import type { ViolationSink } from '../sink.js';
import { fmt } from './claims.js';

const LOOKBACK = 16;

/** Reports Reset values that fall faster than time or exceed the known window. */
export function checkResetPlausible(ctx: BudgetContext, sink: Pick<ViolationSink, 'add'>, expectedWindowMs: number | null): void {
  const g = ctx.group;
  let j = 0;
  for (const b of g.bySent) {
    if (b.reset === null) continue;
    if (expectedWindowMs !== null && b.reset * 1000 > Math.ceil(expectedWindowMs / 1000) * 1000 + ctx.roundingSlackMs) {
      sink.add({
        rule: '8.ratelimit.reset-plausible',
        sample: b,
        bucket: 'longer-than-window',
        message: `RateLimit-Reset ${b.reset} s is longer than the ${expectedWindowMs / 1000} s window`,
      });
      continue;
    }
    while (j < g.byReceived.length && g.byReceived[j]!.receivedAt <= b.sentAt) j++;
    const a = latestWithReset(g.byReceived, j - 1);
    if (!a) continue;
    const elapsed = b.receivedAt - a.sentAt;
    const allowed = Math.ceil(elapsed / 1000) + 1 + (ctx.roundingSlackMs > 0 ? 1 : 0);
    if (a.reset! - b.reset > allowed) {
      sink.add({
        rule: '8.ratelimit.reset-plausible',
        sample: b,
        related: [a],
        bucket: 'not-seconds',
        message: `RateLimit-Reset fell from ${a.reset} to ${b.reset} within ${fmt(elapsed)}: it does not count seconds`,
      });
    }
  }
}

function latestWithReset(byReceived: ParsedSample[], from: number): ParsedSample | undefined {
  for (let i = from, n = 0; i >= 0 && n < LOOKBACK; i--, n++) if (byReceived[i]!.reset !== null) return byReceived[i];
  return undefined;
}
