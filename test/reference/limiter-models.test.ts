/**
 * The limiter models of the dialects (fixed window, sliding-window log, token bucket) over a few windows of a
 * small budget, on a fake clock: each model's RateLimit-Remaining, RateLimit-Reset and Retry-After must be
 * true for that model (Reset = whole seconds until the budget is full again, Retry-After = until one more
 * request is admitted), and every rate-limit fault of the limiter must show in every model.
 */
import { describe, expect, it } from 'vitest';
import type { LimiterModel } from '../../src/reference/dialect.js';
import { FaultSet } from '../../src/reference/fault-set.js';
import type { FaultName } from '../../src/reference/faults.js';
import { Prng } from '../../src/reference/prng.js';
import { RateLimiter, type RateDecision } from '../../src/reference/rate-limiter.js';

const MODELS: LimiterModel[] = ['fixed-window', 'sliding-window', 'token-bucket'];
/** A moment aligned to the 2 s window, so fixed windows start exactly here. */
const T0 = 1_700_000_000_000;

function limiter(model: LimiterModel, faults: FaultName[] = [], budget = 4) {
  const clock = { now: T0 };
  const rl = new RateLimiter({ read: budget, write: budget, windowSeconds: 2, model }, new FaultSet(faults), () => clock.now);
  const at = (ms: number, cls: 'read' | 'write' = 'read'): RateDecision => {
    clock.now = T0 + ms;
    return rl.take('con_test', cls);
  };
  return { at };
}

describe('fixed window aligned to the epoch', () => {
  it('admits the budget per window, Reset and Retry-After name the window end', () => {
    const { at } = limiter('fixed-window');
    expect([at(0), at(100), at(200), at(300)].map((d) => d.remaining)).toEqual([3, 2, 1, 0]);
    const refused = at(1100);
    expect(refused).toMatchObject({ allowed: false, remaining: 0, reset: 1, retryAfter: 1 });
    expect(at(2000)).toMatchObject({ allowed: true, remaining: 3, reset: 2 });
    for (let i = 0; i < 3; i++) at(2100 + i);
    expect(at(3999).allowed).toBe(false);
    expect(at(4000)).toMatchObject({ allowed: true, remaining: 3 });
  });
});

describe('sliding-window log', () => {
  it('frees one slot when the oldest request leaves the window; full when the newest does', () => {
    const { at } = limiter('sliding-window');
    expect([at(0), at(500), at(1000), at(1500)].map((d) => d.remaining)).toEqual([3, 2, 1, 0]);
    // oldest leaves at 2000 (0.4 s away), newest at 3500 (1.9 s away)
    expect(at(1600)).toMatchObject({ allowed: false, remaining: 0, retryAfter: 1, reset: 2 });
    expect(at(2000)).toMatchObject({ allowed: true, remaining: 0 });
    expect(at(2100).allowed).toBe(false);
    // 500, 1000 and 1500 have left by 3600; 2000 is still in the window
    expect(at(3600)).toMatchObject({ allowed: true, remaining: 2, reset: 2 });
  });
});

describe('token bucket', () => {
  it('refills continuously at budget per window; Reset is the time to refill completely', () => {
    const { at } = limiter('token-bucket');
    expect([at(0), at(0), at(0), at(0)].map((d) => d.remaining)).toEqual([3, 2, 1, 0]);
    // 2 tokens per second: one token in 0.5 s, four in 2 s
    expect(at(0)).toMatchObject({ allowed: false, remaining: 0, retryAfter: 1, reset: 2 });
    expect(at(500)).toMatchObject({ allowed: true, remaining: 0 });
    expect(at(600).allowed).toBe(false);
    expect(at(3000)).toMatchObject({ allowed: true, remaining: 3, reset: 1 });
  });
});

describe.each(MODELS)('%s: the headers keep their promises', (model) => {
  it('a request sent Retry-After seconds after a refusal is admitted; after Reset seconds of quiet the whole budget is there', () => {
    const rng = new Prng(7);
    const { at } = limiter(model);
    let t = 0;
    let checkedRetry = 0;
    let checkedReset = 0;
    for (let round = 0; round < 40; round++) {
      let d = at(t);
      // a burst until refused
      while (d.allowed) d = at((t += rng.int(80)));
      expect(d.remaining).toBe(0);
      expect(d.retryAfter).toBeGreaterThanOrEqual(1);
      const afterRetry = at((t += d.retryAfter! * 1000));
      expect(afterRetry.allowed, `${model} round ${round}: admitted after Retry-After`).toBe(true);
      checkedRetry++;
      if (round % 2 === 0) {
        // quiet for Reset seconds, then the whole budget must be admitted in a row
        t += afterRetry.reset * 1000;
        const burst = Array.from({ length: 4 }, () => at(t));
        expect(
          burst.every((x) => x.allowed),
          `${model} round ${round}: budget full after Reset`,
        ).toBe(true);
        expect(burst.map((x) => x.remaining)).toEqual([3, 2, 1, 0]);
        checkedReset++;
      }
      t += rng.int(1500);
    }
    expect(checkedRetry).toBe(40);
    expect(checkedReset).toBe(20);
  });

  it('never admits more than the budget in any window (fixed, sliding) or budget plus refill (token bucket)', () => {
    const rng = new Prng(11);
    const { at } = limiter(model);
    const admitted: number[] = [];
    let t = 0;
    for (let i = 0; i < 400; i++) if (at((t += rng.int(150))).allowed) admitted.push(t);
    for (let i = 0; i < admitted.length; i++) {
      const inWindow = admitted.filter((x) => x >= admitted[i]! && x < admitted[i]! + 2000).length;
      // a token bucket may admit its capacity plus what refills during the span (2 per second)
      expect(inWindow).toBeLessThanOrEqual(model === 'token-bucket' ? 4 + 4 : model === 'fixed-window' ? 8 : 4);
    }
    if (model === 'fixed-window') {
      // aligned windows: at most the budget inside each [k*2000, (k+1)*2000)
      const perWindow = new Map<number, number>();
      for (const x of admitted) perWindow.set(Math.floor(x / 2000), (perWindow.get(Math.floor(x / 2000)) ?? 0) + 1);
      expect(Math.max(...perWindow.values())).toBeLessThanOrEqual(4);
    }
    expect(admitted.length).toBeGreaterThan(40);
  });
});

/** Each limiter fault as an observation on a fresh limiter: true when the bug shows. */
const LIMITER_FAULTS: Partial<Record<FaultName, (l: ReturnType<typeof limiter>) => boolean>> = {
  'ratelimit-over-admit': ({ at }) => Array.from({ length: 6 }, () => at(0)).filter((d) => d.allowed).length > 4,
  'ratelimit-early-429': ({ at }) => Array.from({ length: 4 }, () => at(0)).some((d) => !d.allowed),
  'ratelimit-reset-ms': ({ at }) => at(0).reset > 2,
  'ratelimit-limit-drifts': ({ at }) => at(0).limit !== at(0).limit,
  'ratelimit-reset-epoch': ({ at }) => at(0).reset > 1e9,
  'ratelimit-remaining-stuck': ({ at }) => at(0).remaining === at(10).remaining,
  'ratelimit-remaining-negative': ({ at }) => Array.from({ length: 6 }, () => at(0)).at(-1)!.remaining < 0,
  'ratelimit-no-retry-after': ({ at }) => Array.from({ length: 5 }, () => at(0)).at(-1)!.retryAfter === undefined,
  'ratelimit-retry-after-short': ({ at }) => {
    const refused = Array.from({ length: 5 }, () => at(0)).at(-1)!;
    return !at((refused.retryAfter ?? 0) * 1000).allowed;
  },
  'ratelimit-no-restore': ({ at }) => {
    const refused = Array.from({ length: 5 }, () => at(0)).at(-1)!;
    const t = refused.reset * 1000;
    return Array.from({ length: 4 }, () => at(t)).some((d) => !d.allowed);
  },
  'ratelimit-shared-classes': ({ at }) => {
    for (let i = 0; i < 4; i++) at(0, 'read');
    return !at(0, 'write').allowed;
  },
};

describe.each(MODELS)('%s: limiter faults', (model) => {
  it.each(Object.keys(LIMITER_FAULTS) as FaultName[])('%s: absent without the fault, present with it', (fault) => {
    const probe = LIMITER_FAULTS[fault]!;
    expect(probe(limiter(model)), 'clean').toBe(false);
    expect(probe(limiter(model, [fault])), 'with the fault').toBe(true);
  });
});
