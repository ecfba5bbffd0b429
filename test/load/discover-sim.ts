/**
 * Simulated limiters on a simulated clock, for the budget probe's tests: each answers like a correct
 * limiter of its kind (RateLimit-Reset = whole seconds, rounded up, until the budget is full again).
 */
import type { ProbeIO } from '../../src/load/budget-probe.js';
import type { ProbeSample } from '../../src/load/budget-estimate.js';

type Answer = Omit<ProbeSample, 't' | 'afterWait'>;

export interface SimLimiter {
  take(now: number): Answer;
}

const answer = (admitted: boolean, L: number, remaining: number, resetMs: number): Answer => {
  const reset = Math.max(0, Math.ceil(resetMs / 1000 - 1e-9));
  return {
    status: admitted ? 200 : 429,
    limit: String(L),
    remaining: String(remaining),
    reset: String(reset),
    ...(admitted ? {} : { retryAfter: String(Math.max(1, reset)) }),
  };
};

/** Fixed windows of W s whose boundaries sit at phaseMs + k·W (so a probe can start mid-window). */
export function fixedWindow(L: number, W: number, phaseMs: number, usedBefore = 0): SimLimiter {
  const w = W * 1000;
  let start = -Infinity;
  let used = 0;
  return {
    take(now) {
      const s = Math.floor((now - phaseMs) / w) * w + phaseMs;
      if (s !== start) {
        used = start === -Infinity ? usedBefore : 0;
        start = s;
      }
      const end = start + w;
      if (used >= L) return answer(false, L, 0, end - now);
      used++;
      return answer(true, L, L - used, end - now);
    },
  };
}

/** A sliding log: a request counts for W s after it was admitted; full again W s after the newest. */
export function slidingLog(L: number, W: number): SimLimiter {
  const w = W * 1000;
  const log: number[] = [];
  return {
    take(now) {
      while (log.length && log[0]! <= now - w) log.shift();
      if (log.length >= L) return answer(false, L, 0, log[log.length - 1]! + w - now);
      log.push(now);
      return answer(true, L, L - log.length, now + w - now);
    },
  };
}

/** A token bucket of capacity L refilling L tokens per W s; full again after (L − tokens) / rate. */
export function tokenBucket(L: number, W: number, tokensBefore = L): SimLimiter {
  const rate = L / (W * 1000);
  let tokens = tokensBefore;
  let last = 0;
  return {
    take(now) {
      tokens = Math.min(L, tokens + Math.max(0, now - last) * rate);
      last = Math.max(last, now);
      if (tokens < 1) return answer(false, L, 0, (L - tokens) / rate);
      tokens -= 1;
      return answer(true, L, Math.floor(tokens), (L - tokens) / rate);
    },
  };
}

/** No rate-limit headers at all. */
export function noHeaders(): SimLimiter {
  return { take: () => ({ status: 200 }) };
}

/**
 * A ProbeIO over a simulated limiter: each request takes rttMs of simulated time. Requests sent together
 * reach the limiter spreadMs apart (a loaded client writes a burst's requests one after another).
 */
export function simIO(limiter: SimLimiter, startMs = 0, rttMs = 3, spreadMs = 0): ProbeIO & { sent: () => number; clock: () => number } {
  let now = startMs;
  let sent = 0;
  let launchedAt = Number.NaN;
  let together = 0;
  return {
    now: () => now,
    async sleep(ms) {
      now += Math.max(0, ms);
    },
    async send() {
      const n = ++sent;
      const launch = now;
      together = launch === launchedAt ? together + 1 : 0;
      launchedAt = launch;
      const lag = together * spreadMs;
      // Concurrent sends launch at the same instant and reach the limiter in order, a few µs apart.
      await Promise.resolve();
      const a = limiter.take(launch + rttMs / 2 + lag + (n % 1000) * 0.001);
      now = Math.max(now, launch + rttMs + lag);
      return a;
    },
    sent: () => sent,
    clock: () => now,
  };
}
