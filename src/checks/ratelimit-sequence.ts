/**
 * Rate-limit checks over a short sequence of responses sent one after another with the same key and
 * route class: Remaining decreases within a window, and RateLimit-Reset counts down in seconds.
 */
import type { Exchange } from '../client/exchange.js';
import { parseIntHeader } from '../spec/headers.js';
import type { ClauseViolation } from './envelope.js';

interface Point {
  x: Exchange;
  at: number;
  remaining: number;
  reset: number;
}

function points(xs: readonly Exchange[]): Point[] {
  const out: Point[] = [];
  for (const x of xs) {
    if (!x.response || x.response.status === 429) continue;
    const remaining = parseIntHeader(x.response.headers, 'RateLimit-Remaining');
    const reset = parseIntHeader(x.response.headers, 'RateLimit-Reset');
    if (!remaining.ok || !reset.ok) continue; // reported by checkResponseHeaders
    out.push({ x, at: x.timings.start + (x.timings.headers ?? x.timings.total), remaining: remaining.value, reset: reset.value });
  }
  return out;
}

// Reset is rounded to whole seconds and responses take time: allow this much slack when comparing.
const SLACK_S = 1.5;

/**
 * Admitted responses in sequence must show Remaining strictly decreasing, unless the window may have
 * rolled over (the time since the previous response reached its Reset).
 */
export function checkRemainingDecreases(xs: readonly Exchange[]): ClauseViolation | undefined {
  const ps = points(xs);
  for (let i = 1; i < ps.length; i++) {
    const a = ps[i - 1]!;
    const b = ps[i]!;
    const elapsedS = (b.at - a.at) / 1000;
    if (elapsedS + SLACK_S >= a.reset) continue; // possibly a new window
    if (b.remaining < a.remaining) continue;
    return {
      clause: '8.ratelimit.remaining-decreases',
      expected: 'RateLimit-Remaining to decrease with each admitted request within a window',
      actual: `Remaining ${a.remaining} (${a.x.id}) then ${b.remaining} (${b.x.id}) ${Math.round(elapsedS * 1000)} ms later, with Reset ${a.reset}`,
    };
  }
  return undefined;
}

/**
 * The moment the budget is full again (now + Reset) never moves earlier, whatever the limiter model, so
 * Reset cannot fall by more than the time elapsed. A Reset that falls faster is not counted in seconds.
 */
export function checkResetCountsSeconds(xs: readonly Exchange[]): ClauseViolation | undefined {
  const ps = points(xs);
  for (let i = 1; i < ps.length; i++) {
    const a = ps[i - 1]!;
    const b = ps[i]!;
    const elapsedS = Math.max(0, (b.at - a.at) / 1000);
    const fell = a.reset - b.reset;
    if (fell <= elapsedS + SLACK_S) continue;
    return {
      clause: '8.ratelimit.reset-plausible',
      expected: `RateLimit-Reset in seconds: it may fall by at most the elapsed ${elapsedS.toFixed(1)} s (+${SLACK_S} s rounding)`,
      actual: `Reset ${a.reset} (${a.x.id}) then ${b.reset} (${b.x.id}): fell by ${fell}`,
    };
  }
  return undefined;
}
