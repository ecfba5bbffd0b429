/**
 * Rate limiting per key (connection) and route class, in the limiter model of the dialect (fixed window
 * aligned to the epoch, sliding-window log, token bucket; see limiter-models.ts). Refused requests do not
 * consume budget; with chargeOnlyAccepted (a dialect's choice) neither do admitted requests the server then
 * refuses with a 4xx (refund). The headers follow the spec for every model: RateLimit-Remaining is the budget left,
 * RateLimit-Reset the whole seconds until it is full again, Retry-After the whole seconds until one more
 * request is admitted. The rate-limit faults live here, each at the line where the bug would be.
 */
import type { LimiterModel } from './dialect.js';
import type { FaultSet } from './fault-set.js';
import { createBucket, type BucketModel } from './limiter-models.js';

export type RouteClass = 'read' | 'write';

export interface Budgets {
  read: number;
  write: number;
  windowSeconds: number;
  /** Limiter model; fixed-window when absent. */
  model?: LimiterModel;
}

export interface RateDecision {
  allowed: boolean;
  limit: number;
  remaining: number;
  /** RateLimit-Reset value: whole seconds until the budget is full again, rounded up. */
  reset: number;
  /** Retry-After value on refusals. */
  retryAfter?: number;
}

interface Bucket {
  model: BucketModel;
  /** Refusals since the last admitted request (ratelimit-remaining-negative). */
  refused: number;
}

export class RateLimiter {
  /** Buckets by key: per class, and one shared by both classes (ratelimit-shared-classes); no key strings built per request. */
  private buckets = { read: new Map<string, Bucket>(), write: new Map<string, Bucket>(), shared: new Map<string, Bucket>() };
  private readonly windowMs: number;
  private readonly model: LimiterModel;

  constructor(
    private readonly budgets: Budgets,
    private readonly faults: FaultSet,
    private readonly clock: () => number,
  ) {
    this.windowMs = Math.max(1, Math.round(budgets.windowSeconds * 1000));
    this.model = budgets.model ?? 'fixed-window';
  }

  /** The configured budgets and model. */
  get config(): Required<Budgets> {
    return { ...this.budgets, model: this.model };
  }

  /** Counts one request of a class against a bucket and says whether it is admitted. */
  take(bucketKey: string, cls: RouteClass): RateDecision {
    const f = this.faults;
    const buckets = f.has('ratelimit-shared-classes') ? this.buckets.shared : this.buckets[cls];
    let b = buckets.get(bucketKey);
    if (!b) buckets.set(bucketKey, (b = { model: createBucket(this.model, this.windowMs), refused: 0 }));
    const { limit, ceiling } = this.sizeOf(cls);
    const d = b.model.take(this.clock(), limit, ceiling, f.has('ratelimit-no-restore'));
    const reset = this.resetOf(d.fullInMs);
    if (!d.allowed) {
      b.refused++;
      const retrySeconds = Math.max(1, Math.ceil(d.retryInMs / 1000));
      const remaining = f.has('ratelimit-remaining-negative') ? -b.refused : 0;
      const retryAfter = f.has('ratelimit-retry-after-short') ? Math.max(0, retrySeconds - 2) : retrySeconds;
      return { allowed: false, limit, remaining, reset, retryAfter: f.has('ratelimit-no-retry-after') ? undefined : retryAfter };
    }
    b.refused = 0;
    const remaining = f.has('ratelimit-remaining-stuck') ? limit : Math.min(limit, Math.max(0, d.remaining));
    return { allowed: true, limit: f.has('ratelimit-limit-drifts') ? remaining + 1 : limit, remaining, reset };
  }

  /**
   * Gives back the charge of an admitted request the server then refused with a 4xx other than 429 (a
   * limiter that charges only accepted requests, like express-rate-limit's skipFailedRequests): the
   * decision to answer it with, showing the budget as it is after the refund.
   */
  refund(bucketKey: string, cls: RouteClass, d: RateDecision): RateDecision {
    const b = (this.faults.has('ratelimit-shared-classes') ? this.buckets.shared : this.buckets[cls]).get(bucketKey);
    if (!d.allowed || !b) return d;
    const { limit, ceiling } = this.sizeOf(cls);
    const r = b.model.refund(this.clock(), limit, ceiling);
    const remaining = this.faults.has('ratelimit-remaining-stuck') ? limit : Math.min(limit, Math.max(0, r.remaining));
    return { ...d, remaining, reset: this.resetOf(r.fullInMs) };
  }

  /** RateLimit-Reset for a budget full again in `fullInMs`: whole seconds, rounded up (unless a fault changes it). */
  private resetOf(fullInMs: number): number {
    if (this.faults.has('ratelimit-reset-ms')) return Math.ceil(fullInMs);
    if (this.faults.has('ratelimit-reset-epoch')) return Math.ceil((this.clock() + fullInMs) / 1000);
    return Math.ceil(fullInMs / 1000);
  }

  /** The budget of a class and how many requests its bucket admits (the budget, unless a fault changes it). */
  private sizeOf(cls: RouteClass): { limit: number; ceiling: number } {
    const f = this.faults;
    const limit = cls === 'read' ? this.budgets.read : this.budgets.write;
    return { limit, ceiling: f.has('ratelimit-over-admit') ? limit + 5 : f.has('ratelimit-early-429') ? Math.floor(limit * 0.8) : limit };
  }

  /** Forgets every bucket (fixtures API: ratelimit/reset). */
  reset(): void {
    for (const m of Object.values(this.buckets)) m.clear();
  }
}
