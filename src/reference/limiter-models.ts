/**
 * The limiter models a dialect can pick: a fixed window aligned to the epoch, a sliding-window log and a
 * token bucket. Each bucket answers in its own terms (admitted or not, remaining budget, time until the
 * budget is full again, time until one more request is admitted); rate-limiter.ts turns that into headers
 * and applies the rate-limit faults. `slow` is the ratelimit-no-restore bug: the budget comes back at half
 * the speed the reported times promise.
 */
import type { LimiterModel } from './dialect.js';

export interface ModelDecision {
  allowed: boolean;
  /** Budget left after this request (unclamped; the caller bounds it to 0..limit). */
  remaining: number;
  /** Milliseconds until the whole budget is available again. */
  fullInMs: number;
  /** Milliseconds until one more request would be admitted (meaningful on refusals). */
  retryInMs: number;
}

export interface BucketModel {
  /** Counts one request; `ceiling` is how many the bucket admits (the limit, unless a fault changes it). */
  take(now: number, limit: number, ceiling: number, slow: boolean): ModelDecision;
  /** Gives back the charge of the last admitted request (a limiter that charges only accepted requests). */
  refund(now: number, limit: number, ceiling: number): Refunded;
}

/** The budget after a refund, in the terms of ModelDecision. */
export type Refunded = Pick<ModelDecision, 'remaining' | 'fullInMs'>;

/** Creates an empty bucket of a model for a window of `windowMs`. */
export function createBucket(model: LimiterModel, windowMs: number): BucketModel {
  if (model === 'sliding-window') return new SlidingLog(windowMs);
  if (model === 'token-bucket') return new TokenBucket(windowMs);
  return new FixedWindow(windowMs);
}

/** Windows aligned to multiples of the window length, so every bucket resets at the same moment. */
class FixedWindow implements BucketModel {
  private start = -Infinity;
  private admitted = 0;

  constructor(private readonly w: number) {}

  take(now: number, limit: number, ceiling: number, slow: boolean): ModelDecision {
    const aligned = now - (now % this.w);
    if (this.start + (slow ? 2 * this.w : this.w) <= now) {
      this.start = aligned;
      this.admitted = 0;
    }
    const fullInMs = aligned + this.w - now;
    const allowed = this.admitted < ceiling;
    if (allowed) this.admitted++;
    return { allowed, remaining: limit - this.admitted, fullInMs, retryInMs: fullInMs };
  }

  refund(now: number, limit: number): Refunded {
    this.admitted = Math.max(0, this.admitted - 1);
    const fullInMs = this.admitted === 0 ? 0 : now - (now % this.w) + this.w - now;
    return { remaining: limit - this.admitted, fullInMs };
  }
}

/** The times of the admitted requests of the last window: a request is admitted while fewer than ceiling are. */
class SlidingLog implements BucketModel {
  private log: number[] = [];
  private head = 0;

  constructor(private readonly w: number) {}

  take(now: number, limit: number, ceiling: number, slow: boolean): ModelDecision {
    const life = slow ? 2 * this.w : this.w;
    while (this.head < this.log.length && this.log[this.head]! + life <= now) this.head++;
    if (this.head > 1024 && this.head * 2 > this.log.length) {
      this.log = this.log.slice(this.head);
      this.head = 0;
    }
    const count = this.log.length - this.head;
    const allowed = count < ceiling;
    if (allowed) this.log.push(now);
    const used = this.log.length - this.head;
    // full again when the newest entry leaves the window; one slot frees when the oldest does
    const fullInMs = used === 0 ? 0 : this.log[this.log.length - 1]! + this.w - now;
    const retryInMs = used === 0 ? 0 : this.log[this.head]! + this.w - now;
    return { allowed, remaining: limit - used, fullInMs, retryInMs };
  }

  refund(now: number, limit: number): Refunded {
    // the request being refunded is the newest entry of the log
    if (this.log.length > this.head) this.log.pop();
    const used = this.log.length - this.head;
    return { remaining: limit - used, fullInMs: used === 0 ? 0 : this.log[this.log.length - 1]! + this.w - now };
  }
}

/** Capacity `ceiling`, refilled continuously at limit per window; a request takes one token. */
class TokenBucket implements BucketModel {
  private tokens = NaN;
  private last = 0;

  constructor(private readonly w: number) {}

  take(now: number, limit: number, ceiling: number, slow: boolean): ModelDecision {
    const rate = limit / this.w;
    if (Number.isNaN(this.tokens)) this.tokens = ceiling;
    else this.tokens = Math.min(ceiling, this.tokens + (now - this.last) * (slow ? rate / 2 : rate));
    this.last = now;
    const allowed = this.tokens >= 1;
    if (allowed) this.tokens -= 1;
    return {
      allowed,
      remaining: Math.floor(this.tokens),
      fullInMs: Math.max(0, (ceiling - this.tokens) / rate),
      retryInMs: Math.max(0, (1 - this.tokens) / rate),
    };
  }

  refund(_now: number, limit: number, ceiling: number): Refunded {
    this.tokens = Math.min(ceiling, this.tokens + 1);
    return { remaining: Math.floor(this.tokens), fullInMs: Math.max(0, (ceiling - this.tokens) / (limit / this.w)) };
  }
}
