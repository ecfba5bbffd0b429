/**
 * Fixed-window rate limiting per key (connection) and route class. Windows are aligned to multiples of the
 * window length, so RateLimit-Reset is the same for every bucket at a given moment. Refused requests do not
 * consume budget. The rate-limit faults live here, each at the line where the bug would be.
 */
import type { FaultSet } from './fault-set.js';

export type RouteClass = 'read' | 'write';

export interface Budgets {
  read: number;
  write: number;
  windowSeconds: number;
}

export interface RateDecision {
  allowed: boolean;
  limit: number;
  remaining: number;
  /** RateLimit-Reset value: whole seconds until the window ends, rounded up. */
  reset: number;
  /** Retry-After value on refusals. */
  retryAfter?: number;
}

interface Bucket {
  start: number;
  admitted: number;
  attempts: number;
}

export class RateLimiter {
  private buckets = new Map<string, Bucket>();
  private readonly windowMs: number;

  constructor(private readonly budgets: Budgets, private readonly faults: FaultSet, private readonly clock: () => number) {
    this.windowMs = Math.max(1, Math.round(budgets.windowSeconds * 1000));
  }

  /** The configured budgets. */
  get config(): Budgets {
    return this.budgets;
  }

  /** Counts one request of a class against a bucket and says whether it is admitted. */
  take(bucketKey: string, cls: RouteClass): RateDecision {
    const f = this.faults;
    const w = this.windowMs;
    const now = this.clock();
    const start = now - (now % w);
    const key = f.has('ratelimit-shared-classes') ? bucketKey : cls === 'read' ? bucketKey + '|r' : bucketKey + '|w';
    let b = this.buckets.get(key);
    const lifetime = f.has('ratelimit-no-restore') ? 2 * w : w;
    if (!b) this.buckets.set(key, (b = { start, admitted: 0, attempts: 0 }));
    else if (b.start + lifetime <= now) {
      b.start = start;
      b.admitted = 0;
      b.attempts = 0;
    }
    const limit = cls === 'read' ? this.budgets.read : this.budgets.write;
    const resetMs = start + w - now;
    const resetSeconds = Math.ceil(resetMs / 1000);
    const reset = f.has('ratelimit-reset-ms') ? resetMs : resetSeconds;
    const ceiling = f.has('ratelimit-over-admit') ? limit + 5 : f.has('ratelimit-early-429') ? Math.floor(limit * 0.8) : limit;
    b.attempts++;
    if (b.admitted >= ceiling) {
      const remaining = f.has('ratelimit-remaining-negative') ? limit - b.attempts : 0;
      const retryAfter = f.has('ratelimit-retry-after-short') ? Math.max(0, resetSeconds - 2) : resetSeconds;
      return { allowed: false, limit, remaining, reset, retryAfter: f.has('ratelimit-no-retry-after') ? undefined : retryAfter };
    }
    b.admitted++;
    const remaining = f.has('ratelimit-remaining-stuck') ? limit : Math.max(0, limit - b.admitted);
    return { allowed: true, limit, remaining, reset };
  }

  /** Forgets every bucket (fixtures API: ratelimit/reset). */
  reset(): void {
    this.buckets.clear();
  }
}
