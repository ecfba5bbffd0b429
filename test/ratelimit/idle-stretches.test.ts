/**
 * 8.ratelimit.remaining-rises judges each stretch of the ordered chain between idle gaps of a window or more
 * as a trace of its own (src/ratelimit/rules/remaining-rises.ts, idleSeparated): a regression profile's
 * copies of a schedule, each after a wait for a full budget, show several counters as each copy alone does,
 * where the whole chain's span counted a refill for every window of every wait. A legitimate counter that
 * others spend is not blamed in any stretch. Analyzer alone, samples built step by step.
 */
import { describe, expect, it } from 'vitest';
import { analyzeRateLimits } from '../../src/ratelimit/analyze.js';
import type { RateLimitSample } from '../../src/ratelimit/sample.js';

/** Fixed-window counters of `limit` per 1 s, each window starting at a request that finds none (express-rate-limit's way). */
function counters(n: number, limit: number): (k: number, t: number) => { remaining: number; reset: number; admitted: boolean } {
  const state = Array.from({ length: n }, () => ({ start: -Infinity, used: 0 }));
  return (k, t) => {
    const c = state[k]!;
    if (t >= c.start + 1000) [c.start, c.used] = [t, 0];
    c.used += 1;
    return { remaining: Math.max(0, limit - c.used), reset: Math.ceil((c.start + 1000 - t) / 1000), admitted: c.used <= limit };
  };
}

/**
 * Three copies of one request per `route` entry (the counter that answers it), 25 ms apart and each answered
 * 2 ms later, with `gapMs` between copies; `foreign` requests of another client counted on counter 0 before each.
 */
function copies(route: readonly number[], gapMs: number, nCounters: number, foreign = 0): RateLimitSample[] {
  const answer = counters(nCounters, 20);
  const out: RateLimitSample[] = [];
  for (let c = 0; c < 3; c++) {
    const t0 = c * (route.length * 25 + gapMs);
    route.forEach((k, i) => {
      const t = t0 + i * 25;
      for (let f = 0; f < foreign; f++) answer(0, t - 1);
      const a = answer(k, t);
      out.push({
        sentAt: t,
        receivedAt: t + 2,
        class: 'read',
        status: a.admitted ? 200 : 429,
        limit: '20',
        remaining: String(a.remaining),
        reset: String(a.reset),
        key: 'admin',
        ...(a.admitted ? {} : { retryAfter: String(a.reset), errorCode: 'rate_limit.exceeded' }),
      });
    });
  }
  return out;
}

// Counter 0 three times, then the two in turn: 19 18 17 | 19 16 18 15 17 — three rises and two falls of
// three where one request was counted, within 200 ms.
const TWO_COUNTERS = [0, 0, 0, 1, 0, 1, 0, 1];

describe('remaining-rises, stretch by stretch', () => {
  it('three copies of a schedule 3 s apart on two counters: each copy shows the jumps, the whole chain alone does not', () => {
    const a = analyzeRateLimits(copies(TWO_COUNTERS, 3000, 2));
    const jumps = a.violations.filter((v) => v.rule === '8.ratelimit.remaining-rises');
    expect(jumps.map((v) => v.message)).toEqual([
      expect.stringMatching(
        /^RateLimit-Remaining jumps between sequences: it fell from 19 to 16 with at most 1 request\(s\) admitted in between \(2 such falls\) and rose 3 times within \d+ ms: several counters/,
      ),
    ]);
    // Judged whole, the chain rose 11 times over 6.6 s, against 14 refills of windows of at least 0.5 s (the
    // rule before it judged stretches found nothing); one copy alone, a replay's attempt, shows it.
    const one = analyzeRateLimits(copies(TWO_COUNTERS, 0, 2).slice(0, TWO_COUNTERS.length));
    expect(one.violations.map((v) => v.rule)).toContain('8.ratelimit.remaining-rises');
  });

  it('one counter that another client spends before every request, in the same copies: nothing in any stretch', () => {
    const route = TWO_COUNTERS.map(() => 0);
    const a = analyzeRateLimits(copies(route, 3000, 1, 1));
    expect(a.violations.map((v) => `${v.rule}: ${v.message}`)).toEqual([]);
    expect(a.classes[0]!.spentByOthers).toBeGreaterThanOrEqual(2);
  });
});
