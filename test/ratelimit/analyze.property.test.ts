/**
 * Property tests of the analyzer against simulated limiters: correct fixed-window, sliding-log and
 * token-bucket limiters (random arrivals, latency, reordering, before/after counting, lazy or grid
 * windows) give no violation; each injected bug gives its violation.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { analyzeRateLimits } from '../../src/ratelimit/analyze.js';
import { simulate, type Bug, type LimiterModel, type SimOptions } from './simulators.js';

const options = (model: LimiterModel, bug: Bug) =>
  fc.record({
    limit: fc.integer({ min: 2, max: 30 }),
    windowMs: fc.constantFrom(1000, 2000, 3000),
    count: fc.integer({ min: 40, max: 250 }),
    load: fc.double({ min: 0.3, max: 4, noNaN: true }),
    maxLatencyMs: fc.integer({ min: 1, max: 60 }),
    reportBefore: fc.boolean(),
    lazyWindows: fc.boolean(),
    startOffsetMs: fc.integer({ min: 0, max: 3000 }),
    twoClasses: fc.boolean(),
    seed: fc.integer({ min: 1, max: 2 ** 31 - 1 }),
  }).map((r): SimOptions => ({
    model,
    bug,
    limit: r.limit,
    windowMs: r.windowMs,
    count: r.count,
    meanGapMs: r.windowMs / r.limit / r.load,
    minLatencyMs: 1,
    maxLatencyMs: r.maxLatencyMs,
    reportBefore: r.reportBefore,
    lazyWindows: r.lazyWindows,
    startOffsetMs: r.startOffsetMs,
    classes: r.twoClasses ? ['read', 'write'] : ['read'],
    seed: r.seed,
  }));

const rulesOf = (o: SimOptions) => [...new Set(analyzeRateLimits(simulate(o)).violations.map((v) => v.rule))].sort();

describe('correct limiters give no violation', () => {
  for (const model of ['fixed', 'sliding', 'bucket'] as const) {
    it(`${model}`, () => {
      fc.assert(fc.property(options(model, 'none'), (o) => {
        expect(rulesOf(o)).toEqual([]);
      }), { numRuns: 60 });
    });
  }
});

/** Bugs under traffic that exhausts the budget over several windows, so each one has a chance to show. */
const buggy = (bug: Bug) =>
  options('fixed', bug).map((o): SimOptions => ({
    ...o,
    limit: Math.max(8, o.limit),
    meanGapMs: o.windowMs / Math.max(8, o.limit) / 3,
    count: Math.max(o.count, 6 * 3 * Math.max(8, o.limit)),
    maxLatencyMs: Math.min(o.maxLatencyMs, 10),
    windowMs: bug === 'no-restore' || bug === 'retry-after-short' ? 3000 : o.windowMs,
    classes: bug === 'shared-classes' ? ['read', 'write'] : o.classes,
  }));

describe('each injected bug gives exactly its violation', () => {
  const exact: Array<[Bug, string]> = [
    ['no-retry-after', '8.ratelimit.retry-after'],
    ['code', '8.ratelimit.429-code'],
    ['headers-missing-on-429', '8.ratelimit.headers'],
    ['reset-ms', '8.ratelimit.reset-plausible'],
    ['limit-changes', '8.ratelimit.limit-constant'],
    ['negative', '8.ratelimit.remaining-bounds'],
    ['over-admit', '8.ratelimit.over-admission'],
    ['no-restore', '8.ratelimit.reset-restores'],
    ['retry-after-short', '8.ratelimit.retry-after-honoured'],
    ['stuck', '8.ratelimit.remaining-decreases'],
    ['shared-classes', '8.ratelimit.classes-isolated'],
  ];
  for (const [bug, rule] of exact) {
    it(`${bug} → ${rule}`, () => {
      fc.assert(fc.property(buggy(bug), (o) => {
        expect(rulesOf(o)).toEqual([rule]);
      }), { numRuns: 15 });
    });
  }
  it('early-429 → under-admission (the budget also never comes back in full: reset-restores)', () => {
    fc.assert(fc.property(buggy('early-429'), (o) => {
      const rules = rulesOf(o);
      expect(rules).toContain('8.ratelimit.under-admission');
      expect(rules.every((r) => r === '8.ratelimit.under-admission' || r === '8.ratelimit.reset-restores')).toBe(true);
    }), { numRuns: 15 });
  });
});
