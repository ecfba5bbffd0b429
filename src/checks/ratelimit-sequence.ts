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
  limit: number | undefined;
}

function points(xs: readonly Exchange[]): Point[] {
  const out: Point[] = [];
  for (const x of xs) {
    if (!x.response || x.response.status === 429) continue;
    const remaining = parseIntHeader(x.response.headers, 'RateLimit-Remaining');
    const reset = parseIntHeader(x.response.headers, 'RateLimit-Reset');
    if (!remaining.ok || !reset.ok) continue; // reported by checkResponseHeaders
    const limit = parseIntHeader(x.response.headers, 'RateLimit-Limit');
    out.push({
      x,
      at: x.timings.start + (x.timings.headers ?? x.timings.total),
      remaining: remaining.value,
      reset: reset.value,
      limit: limit.ok ? limit.value : undefined,
    });
  }
  return out;
}

/**
 * The answers of `xs` these checks leave out: no response, a 429, or RateLimit-Remaining / RateLimit-Reset
 * missing or unreadable. What they would have shown is unknown, so a sequence of fewer than two others
 * judges nothing.
 */
export function unreadableAnswers(xs: readonly Exchange[]): Exchange[] {
  return xs.filter((x) => points([x]).length === 0);
}

// Reset is rounded to whole seconds and responses take time: allow this much slack when comparing.
const SLACK_S = 1.5;

/**
 * Admitted responses sent one after another must use up budget: from the first to the last, Remaining
 * falls by the admissions in between, less what the limiter can have given back meanwhile. A window gives
 * nothing back before its Reset; a token bucket or sliding log that announces "full again in Reset s" from
 * Remaining r gives back (Limit − r) over those seconds, so over `e` s at most (Limit − r) × e / Reset,
 * rounded up (a bucket refilling while it is drained can show the same Remaining twice in a row). Skipped when the budget may have been full again in between (the time reached the first Reset).
 */
/**
 * The RateLimit-Reset (seconds) after which the sequence's first answer says the budget may be full again,
 * when the sequence lasted that long (with rounding slack): then a Remaining that did not fall proves
 * nothing, and checkRemainingDecreases judges nothing. Undefined when the sequence can be judged.
 */
export function refillWithin(xs: readonly Exchange[]): number | undefined {
  const ps = points(xs);
  if (ps.length < 2) return undefined;
  const a = ps[0]!;
  const elapsedS = Math.max(0, (ps[ps.length - 1]!.at - a.at) / 1000);
  return elapsedS + SLACK_S >= a.reset ? a.reset : undefined;
}

export function checkRemainingDecreases(xs: readonly Exchange[]): ClauseViolation | undefined {
  const ps = points(xs);
  if (ps.length < 2) return undefined;
  const a = ps[0]!;
  const b = ps[ps.length - 1]!;
  const elapsedS = Math.max(0, (b.at - a.at) / 1000);
  if (elapsedS + SLACK_S >= a.reset) return undefined; // possibly a new window, or a full bucket again
  const admissions = ps.length - 1;
  const limit = a.limit ?? Math.max(...ps.map((p) => p.remaining));
  // Tokens given back meanwhile (with a little timing slack); a fraction of one already hides a fall.
  const givenBack = a.reset > 0 ? Math.max(0, limit - a.remaining) * ((elapsedS + SLACK_S / 10) / a.reset) : 0;
  const mustFall = admissions - Math.ceil(givenBack);
  if (mustFall <= 0 || a.remaining - b.remaining >= mustFall) return undefined;
  return {
    clause: '8.ratelimit.remaining-decreases',
    expected: `RateLimit-Remaining to fall by at least ${mustFall} over ${admissions} admitted requests in ${Math.round(elapsedS * 1000)} ms (at most ${Math.ceil(givenBack)} given back meanwhile)`,
    actual: `Remaining ${a.remaining} (${a.x.id}) then ${b.remaining} (${b.x.id}) ${Math.round(elapsedS * 1000)} ms later, with Reset ${a.reset}`,
  };
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
