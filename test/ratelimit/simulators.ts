/**
 * Rate-limiter simulators for property tests: correct fixed-window, sliding-log and token-bucket
 * limiters, plus named bugs. Requests arrive at random times with random latency; the server decides at a
 * random moment between send and receive, so responses are reordered like a concurrent client sees them.
 */
import type { RateLimitSample } from '../../src/ratelimit/sample.js';
import type { RouteClass } from '../../src/results/schema.js';
import { prng } from '../support/prng.js';

export type LimiterModel = 'fixed' | 'sliding' | 'bucket';
export type Bug =
  | 'none'
  | 'over-admit'
  | 'early-429'
  | 'stuck'
  | 'negative'
  | 'no-restore'
  | 'retry-after-short'
  | 'no-retry-after'
  | 'code'
  | 'headers-missing-on-429'
  | 'reset-ms'
  | 'limit-changes'
  | 'shared-classes'
  // Issue 10: two in-memory stores behind one port (each request lands on either), a fixed window that
  // refills every W/2 while announcing W, and a counter stuck at Limit − 1 that admits everything.
  | 'two-stores'
  | 'fast-refill'
  | 'stuck-over';

export interface SimOptions {
  model: LimiterModel;
  limit: number;
  windowMs: number;
  /** Requests to send (per class). */
  count: number;
  /** Mean gap between sends in ms. */
  meanGapMs: number;
  /** Latency range in ms. */
  minLatencyMs: number;
  maxLatencyMs: number;
  /** Remaining reported before counting the request (some limiters do). */
  reportBefore: boolean;
  /** Fixed windows start at the first request after expiry (express-rate-limit) instead of on a grid. */
  lazyWindows: boolean;
  /** Offset of the first request relative to the window grid. */
  startOffsetMs: number;
  classes: RouteClass[];
  bug: Bug;
  seed: number;
  /** Fixed windows: requests other clients spent in the window that was open when the run began. */
  preSpent?: number;
}

interface Decision {
  admitted: boolean;
  remaining: number;
  resetMs: number;
  retryAfterMs: number;
  limit: number;
}

interface Limiter {
  decide(now: number): Decision;
}

function fixedWindow(o: SimOptions): Limiter {
  const { limit: L, windowMs: W, bug } = o;
  let start = -Infinity;
  let count = 0;
  let first = true;
  const span = bug === 'no-restore' ? 2 * W : bug === 'fast-refill' ? W / 2 : W;
  const budget = bug === 'over-admit' ? L + 5 : bug === 'early-429' ? Math.floor(L * 0.8) : bug === 'stuck-over' ? Infinity : L;
  let n = 0;
  return {
    decide(now) {
      n += 1;
      if (now >= start + span) {
        start = o.lazyWindows && !(first && o.preSpent !== undefined) ? now : Math.floor(now / span) * span;
        count = first ? Math.min(L, o.preSpent ?? 0) : 0;
        first = false;
      }
      const before = L - count;
      const admitted = count < budget;
      if (admitted) count += 1;
      let remaining = o.reportBefore ? (admitted ? before : 0) : L - count;
      if (bug !== 'negative') remaining = Math.max(0, remaining);
      if (bug === 'negative' && !admitted) remaining = L - ++count;
      if (bug === 'stuck' || bug === 'stuck-over') remaining = L - 1;
      const claimedEnd = (bug === 'no-restore' && now < start + W) || bug === 'fast-refill' ? start + W : start + span;
      const resetMs = claimedEnd - now;
      const retryAfterMs = bug === 'retry-after-short' ? 0 : start + span - now;
      return { admitted, remaining, resetMs, retryAfterMs, limit: bug === 'limit-changes' && n % 7 === 3 ? L + 10 : L };
    },
  };
}

function slidingLog(o: SimOptions): Limiter {
  const { limit: L, windowMs: W } = o;
  const log: number[] = [];
  return {
    decide(now) {
      while (log.length > 0 && log[0]! <= now - W) log.shift();
      const before = L - log.length;
      const admitted = log.length < L;
      if (admitted) log.push(now);
      const remaining = o.reportBefore ? (admitted ? before : 0) : L - log.length;
      const resetMs = log.length === 0 ? 0 : log[log.length - 1]! + W - now;
      const retryAfterMs = admitted ? 0 : log[0]! + W - now;
      return { admitted, remaining, resetMs, retryAfterMs, limit: L };
    },
  };
}

function tokenBucket(o: SimOptions): Limiter {
  const { limit: L, windowMs: W } = o;
  const rate = L / W;
  let tokens = L;
  let last = 0;
  return {
    decide(now) {
      tokens = Math.min(L, tokens + (now - last) * rate);
      last = now;
      const before = Math.floor(tokens);
      const admitted = tokens >= 1;
      if (admitted) tokens -= 1;
      const remaining = o.reportBefore ? (admitted ? before : 0) : Math.floor(tokens);
      const resetMs = ((L - tokens) * W) / L;
      const retryAfterMs = admitted ? 0 : (1 - tokens) / rate;
      return { admitted, remaining, resetMs, retryAfterMs, limit: L };
    },
  };
}

function makeLimiter(o: SimOptions): Limiter {
  return o.model === 'fixed' ? fixedWindow(o) : o.model === 'sliding' ? slidingLog(o) : tokenBucket(o);
}

/** Simulates a run and returns the samples the client would record. */
export function simulate(o: SimOptions): RateLimitSample[] {
  const rnd = prng(o.seed);
  const shared = o.bug === 'shared-classes' ? makeLimiter(o) : undefined;
  const limiters = new Map(o.classes.map((c) => [c, shared ?? makeLimiter(o)]));
  // A second, independent store per class: each request is counted by one of the two at random.
  const second = new Map(o.classes.map((c) => [c, makeLimiter(o)]));
  interface Req {
    cls: RouteClass;
    sentAt: number;
    receivedAt: number;
    decideAt: number;
    id: number;
  }
  const reqs: Req[] = [];
  let id = 0;
  for (const cls of o.classes) {
    let t = o.startOffsetMs;
    for (let i = 0; i < o.count; i++) {
      t += -Math.log(1 - rnd()) * o.meanGapMs;
      const latency = o.minLatencyMs + rnd() * (o.maxLatencyMs - o.minLatencyMs);
      const sentAt = Math.round(t * 1000) / 1000;
      const decideAt = sentAt + rnd() * latency;
      reqs.push({ cls, sentAt, receivedAt: Math.round((sentAt + latency) * 1000) / 1000, decideAt, id: id++ });
    }
  }
  const out: Array<RateLimitSample & { order: number }> = [];
  for (const r of [...reqs].sort((a, b) => a.decideAt - b.decideAt)) {
    // Server clocks tick in whole ms.
    const store = o.bug === 'two-stores' && rnd() < 0.5 ? second : limiters;
    const d = store.get(r.cls)!.decide(Math.floor(r.decideAt));
    const status = d.admitted ? 200 : 429;
    const reset = o.bug === 'reset-ms' ? Math.max(0, Math.ceil(d.resetMs)) : Math.max(0, Math.ceil(d.resetMs / 1000));
    const s: RateLimitSample & { order: number } = {
      order: r.receivedAt,
      sentAt: r.sentAt,
      receivedAt: r.receivedAt,
      class: r.cls,
      status,
      limit: String(d.limit),
      remaining: String(d.remaining),
      reset: String(reset),
      requestId: `req_${r.id}`,
    };
    if (!d.admitted) {
      if (o.bug !== 'no-retry-after')
        s.retryAfter = String(Math.max(o.bug === 'retry-after-short' ? 0 : 1, Math.ceil(d.retryAfterMs / 1000)));
      s.errorCode = o.bug === 'code' ? 'too_many_requests' : 'rate_limit.exceeded';
      if (o.bug === 'headers-missing-on-429') {
        delete s.limit;
        delete s.remaining;
        delete s.reset;
      }
    }
    out.push(s);
  }
  // Recorded in the order responses arrived, as a load engine would.
  return out.sort((a, b) => a.order - b.order).map(({ order: _order, ...s }) => s);
}
