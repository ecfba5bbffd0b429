/**
 * Issue 10, the analyzer's cases "seen, tried as a new user would". Each failed before the model-free
 * bounds, the anchored windows and the stated-vs-announced budget: over-admission passed whenever the
 * limiter was not classed fixed-window, and two stores behind one port were blamed on under-admission.
 */
import { describe, expect, it } from 'vitest';
import { analyzeRateLimits } from '../../src/ratelimit/analyze.js';
import { simulate, type SimOptions } from './simulators.js';

const base: SimOptions = {
  model: 'fixed',
  bug: 'none',
  limit: 10,
  windowMs: 5000,
  count: 200,
  meanGapMs: 50,
  minLatencyMs: 1,
  maxLatencyMs: 8,
  reportBefore: false,
  lazyWindows: false,
  startOffsetMs: 0,
  classes: ['read'],
  seed: 1,
};
const rulesOf = (a: ReturnType<typeof analyzeRateLimits>) => [...new Set(a.violations.map((v) => v.rule))].sort();

describe('over-admission is judged whatever the model', () => {
  it('Limit 10 with a 5 s Reset admitting 200 in 10 s, Remaining stuck at 9', () => {
    const samples = simulate({ ...base, bug: 'stuck-over' });
    expect(samples.filter((s) => s.status === 200).length).toBe(200);
    expect(Math.max(...samples.map((s) => s.receivedAt))).toBeLessThan(11_000);
    const a = analyzeRateLimits(samples);
    expect(rulesOf(a)).toEqual(['8.ratelimit.over-admission', '8.ratelimit.remaining-decreases']);
    const over = a.violations.find((v) => v.rule === '8.ratelimit.over-admission')!;
    expect(over.message).toMatch(/^\d+ requests admitted within/);
    expect(over.samples.length).toBeGreaterThan(1);
    expect(over.samples.every((s) => s.requestId?.startsWith('req_') && s.status === 200)).toBe(true);
  });

  it('"Limit 10 per 10 s" refilling every 5 s (70 admitted in 35 s)', () => {
    const samples = simulate({ ...base, bug: 'fast-refill', windowMs: 10_000, count: 390, meanGapMs: 90 });
    const in35 = samples.filter((s) => s.status === 200 && s.receivedAt <= 35_000).length;
    expect(in35).toBeGreaterThanOrEqual(60);
    const a = analyzeRateLimits(samples);
    expect(rulesOf(a)).toContain('8.ratelimit.over-admission');
    expect(a.classes[0]!.windowSeconds).toBe(10);
  });

  for (const seed of [1, 2, 3, 4]) {
    it(`two in-memory stores behind one port are named over-admission, not under-admission (seed ${seed})`, () => {
      const a = analyzeRateLimits(simulate({ ...base, bug: 'two-stores', windowMs: 3000, count: 600, meanGapMs: 40, seed }));
      const rules = rulesOf(a);
      expect(rules).toContain('8.ratelimit.over-admission');
      for (const falseLead of [
        '8.ratelimit.under-admission',
        '8.ratelimit.reset-plausible',
        '8.ratelimit.reset-restores',
        '8.ratelimit.retry-after-honoured',
      ]) {
        expect(rules).not.toContain(falseLead);
      }
    });
  }

  for (const model of ['sliding', 'bucket'] as const) {
    it(`two ${model} stores behind one port: over-admission named, no false lead`, () => {
      for (const seed of [1, 2, 3, 4]) {
        const a = analyzeRateLimits(simulate({ ...base, model, bug: 'two-stores', windowMs: 3000, count: 600, meanGapMs: 40, seed }));
        const rules = rulesOf(a);
        expect(a.violations.some((v) => v.rule === '8.ratelimit.over-admission' || /over-admission/.test(v.message))).toBe(true);
        for (const falseLead of [
          '8.ratelimit.under-admission',
          '8.ratelimit.reset-plausible',
          '8.ratelimit.reset-restores',
          '8.ratelimit.retry-after-honoured',
        ]) {
          expect(rules).not.toContain(falseLead);
        }
      }
    });
  }

  it('the same traffic against one correct store gives no violation (the bound is not the finding)', () => {
    for (const seed of [1, 2, 3, 4]) {
      for (const model of ['fixed', 'sliding', 'bucket'] as const) {
        expect(analyzeRateLimits(simulate({ ...base, model, windowMs: 3000, count: 600, meanGapMs: 40, seed })).violations).toEqual([]);
      }
    }
  });
});

describe('windows are anchored at the refills the headers announce', () => {
  const cases: Array<Partial<SimOptions>> = [
    { startOffsetMs: 2300, preSpent: 40, seed: 1 },
    { startOffsetMs: 1100, preSpent: 100, seed: 2 },
    { startOffsetMs: 4100, preSpent: 0, seed: 3 },
    { startOffsetMs: 700, preSpent: 119, seed: 4 },
  ];
  for (const c of cases) {
    it(`a fixed window that began before the run (${JSON.stringify(c)}) is fixed-window with 120 per exhausted window`, () => {
      const a = analyzeRateLimits(simulate({ ...base, limit: 120, windowMs: 5000, count: 6000, meanGapMs: 2, ...c }));
      expect(a.violations).toEqual([]);
      const read = a.classes[0]!;
      expect(read.model).toBe('fixed-window');
      expect(read.explanation).toContain('; 120 admitted per exhausted window;');
      // Every window after the first (which began before the run) admitted exactly the budget.
      for (const w of read.windows.slice(1)) if (w.refused > 0) expect(w.admitted).toBe(120);
      // Windows are one window length apart (the grid), not anchored at the first response.
      const starts = read.windows.slice(1).map((w) => w.start);
      for (let i = 1; i < starts.length; i++) expect(Math.abs(starts[i]! - starts[i - 1]! - 5000)).toBeLessThan(50);
    });
  }

  it('a token bucket has its window tiles anchored at a proven refill, not at the first response', () => {
    const samples = simulate({ ...base, model: 'bucket', limit: 20, windowMs: 4000, count: 400, meanGapMs: 60, startOffsetMs: 1700 });
    const a = analyzeRateLimits(samples);
    expect(a.violations).toEqual([]);
    const w = a.classes[0]!.windows;
    const firstSent = Math.min(...samples.map((s) => s.sentAt));
    expect(w[0]!.start).toBeLessThan(firstSent);
    expect(w.every((x, i) => i === 0 || Math.abs(x.start - w[i - 1]!.end) < 1e-6)).toBe(true);
  });
});

describe('stated vs announced budget', () => {
  const correct = { ...base, limit: 20, windowMs: 5000, count: 400, meanGapMs: 40 };

  it('a stated budget the headers contradict is a finding naming both; the announced one drives', () => {
    const a = analyzeRateLimits(simulate(correct), { expected: { read: { limit: 1000, windowSeconds: 5 } } });
    expect(rulesOf(a)).toEqual(['8.ratelimit.stated-budget']);
    const v = a.violations[0]!;
    expect(v.message).toContain('1000');
    expect(v.message).toContain('RateLimit-Limit 20');
    const read = a.classes[0]!;
    expect(read).toMatchObject({ budgetSource: 'observed', statedLimit: 1000, statedWindowSeconds: 5, observedLimit: 20 });
    expect(read.explanation).toContain('stated 1000 per 5 s; the announced budget drives');
  });

  it('strict: the stated budget drives, and the limiter is judged against it', () => {
    const a = analyzeRateLimits(simulate(correct), { expected: { read: { limit: 1000, windowSeconds: 5 } }, strict: true });
    const rules = rulesOf(a);
    expect(rules).toContain('8.ratelimit.stated-budget');
    expect(rules).toContain('8.ratelimit.under-admission');
    expect(a.classes[0]!.budgetSource).toBe('stated');
  });

  it('a stated window shorter than the Reset the limiter announces is a finding', () => {
    const a = analyzeRateLimits(simulate(correct), { expected: { read: { limit: 20, windowSeconds: 2 } } });
    expect(rulesOf(a)).toEqual(['8.ratelimit.stated-budget']);
    expect(a.violations[0]!.message).toMatch(/stated window 2 s, but RateLimit-Reset reached 5 s/);
  });

  it('a stated budget that agrees gives nothing and is said to agree', () => {
    const a = analyzeRateLimits(simulate(correct), { expected: { read: { limit: 20, windowSeconds: 5 } }, strict: true });
    expect(a.violations).toEqual([]);
    expect(a.classes[0]!.explanation).toContain('stated 20 per 5 s, as announced');
  });

  it('stated "10 per 10 s" against a window in ms (refills every 10 ms) is over-admission', () => {
    const samples = simulate({ ...base, windowMs: 10, count: 300, meanGapMs: 5 });
    const a = analyzeRateLimits(samples, { expected: { read: { limit: 10, windowSeconds: 10 } } });
    expect(rulesOf(a)).toContain('8.ratelimit.over-admission');
  });
});
