import { describe, expect, it } from 'vitest';
import { BudgetMemo, discoverAndPlan, STATED_BUDGET_CLAUSE } from '../../src/load/discover.js';
import { planProfile } from '../../src/load/plan.js';
import type { BudgetEntry } from '../../src/load/budgets.js';
import { loadProfile, type Profile } from '../../src/load/profile.js';
import type { RouteClass } from '../../src/results/schema.js';
import { targetFromInput } from '../../src/target/resolve.js';
import type { TargetFileInput } from '../../src/target/schema.js';
import { fixedWindow, noHeaders, simIO, type SimLimiter } from './discover-sim.js';

const base: TargetFileInput = {
  baseUrl: 'http://127.0.0.1:9/v1',
  keys: { admin: { key: 'pk_test_discover_0123456789' } },
  allowWrites: true,
  fixtures: { ids: { conversationId: 'conv_1' } },
};
const target = (extra: Partial<TargetFileInput> = {}) => targetFromInput({ ...base, ...extra }, 'test');

/** Runs discovery with simulated limiters per class; records which classes were probed and how often. */
async function discover(
  profile: Profile,
  t: ReturnType<typeof target>,
  limiters: Partial<Record<RouteClass, SimLimiter>>,
  durationOverride?: number,
) {
  const sent: Partial<Record<RouteClass, number>> = {};
  const first = planProfile(profile, t, durationOverride);
  const d = await discoverAndPlan(first, profile, t, {
    durationOverride,
    sender: (cls) => {
      const io = simIO(limiters[cls] ?? noHeaders());
      return { io, close: async () => void (sent[cls] = io.sent()) };
    },
  });
  return { ...d, sent, budgets: d.plan.config.budgets as Record<string, BudgetEntry> };
}

describe('discoverAndPlan', () => {
  it('sizes class-isolation from observed budgets: reads at half of 20 per 3 s, writes at twice 6 per 3 s', async () => {
    const d = await discover(loadProfile('class-isolation'), target(), { read: fixedWindow(20, 3, 1700), write: fixedWindow(6, 3, 1700) });
    expect(d.budgets.read).toMatchObject({ limit: 20, windowSeconds: 3, source: 'observed', confidence: 'high' });
    expect(d.budgets.write).toMatchObject({ limit: 6, windowSeconds: 3, source: 'observed' });
    const read = d.plan.classes.find((c) => c.class === 'read')!;
    const write = d.plan.classes.find((c) => c.class === 'write')!;
    expect(read.peakRate).toBeCloseTo(20 / 3 / 2, 5);
    expect(write.peakRate).toBeCloseTo((6 / 3) * 2, 5);
    expect(d.findings).toEqual([]);
    expect(d.plan.config.notes.join('\n')).toMatch(/read: budget observed from the RateLimit headers: 20 per 3 s/);
  });

  it('extends the duration to cover minWindows observed windows when no duration is given', async () => {
    const profile = loadProfile('read-budget');
    const d = await discover(profile, target(), { read: fixedWindow(100, 10, 0) });
    expect(d.plan.durationMs).toBe(profile.minWindows! * 10 * 1000);
  });

  it('falls back when the headers say nothing, and says so in notes and config.budgets', async () => {
    const d = await discover(loadProfile('class-isolation'), target(), {});
    expect(d.budgets.read).toMatchObject({ limit: null, source: 'fallback', reason: expect.stringMatching(/RateLimit-Limit/) });
    expect(d.plan.classes.find((c) => c.class === 'read')!.peakRate).toBe(20);
    expect(d.plan.config.notes.join('\n')).toMatch(/read: budget not discovered from the headers .*falling back/);
    expect(d.sent).toEqual({ read: 1, write: 1 });
  });

  it('never probes writes when the target does not allow them', async () => {
    const d = await discover(loadProfile('class-isolation'), target({ allowWrites: false }), {
      read: fixedWindow(20, 3, 0),
      write: fixedWindow(6, 3, 0),
    });
    expect(d.sent.write).toBeUndefined();
    expect(d.sent.read).toBeGreaterThan(0);
    expect(Object.keys(d.budgets)).toEqual(['read']);
  });

  it('sends nothing for a profile whose rates do not depend on a budget', async () => {
    const d = await discover(loadProfile('smoke'), target(), { read: fixedWindow(20, 3, 0) });
    expect(d.sent).toEqual({});
    expect(d.requests).toBe(0);
  });

  it("takes a small share of caps.maxRequests and lowers the run's count by what it sent", async () => {
    const d = await discover(loadProfile('class-isolation'), target({ caps: { maxRequests: 40 } }), {
      read: fixedWindow(20, 3, 0),
      write: fixedWindow(6, 3, 0),
    });
    expect(d.sent.read).toBeLessThanOrEqual(5);
    expect(d.sent.write).toBeLessThanOrEqual(5);
    expect(d.plan.maxRequests).toBe(40 - d.requests);
    expect(d.plan.config.maxRequests).toBe(40 - d.requests);
  });

  it('a stated budget the headers confirm: one request per class, stated, no finding', async () => {
    const rateLimit = { read: { limit: 20, windowSeconds: 3 }, write: { limit: 6, windowSeconds: 3 } };
    const d = await discover(loadProfile('class-isolation'), target({ assumptions: { rateLimit } }), {
      read: fixedWindow(20, 3, 0),
      write: fixedWindow(6, 3, 0),
    });
    expect(d.sent).toEqual({ read: 1, write: 1 });
    expect(d.findings).toEqual([]);
    expect(d.budgets.read).toMatchObject({ limit: 20, windowSeconds: 3, source: 'stated' });
    expect(d.analysisTarget.assumptions.rateLimit).toEqual(rateLimit);
  });

  it('a stated budget the headers contradict: a warning naming both values; the observed budget drives the run and the analysis', async () => {
    const rateLimit = { read: { limit: 1000, windowSeconds: 5 } };
    const d = await discover(loadProfile('burst'), target({ assumptions: { rateLimit } }), { read: fixedWindow(20, 3, 400) }, 2);
    expect(d.findings).toHaveLength(1);
    expect(d.findings[0]).toMatchObject({ clause: STATED_BUDGET_CLAUSE, basis: 'assumed', severity: 'warning' });
    expect(d.findings[0]!.expected).toContain('1000 per 5 s');
    expect(d.findings[0]!.actual).toContain('RateLimit-Limit: 20');
    expect(d.budgets.read).toMatchObject({ limit: 20, windowSeconds: 3, source: 'observed', stated: rateLimit.read });
    expect(d.plan.classes[0]!.rateAt!(2.5)).toBeCloseTo((0.5 * 20) / 3, 5);
    // The contradicted statement is not what the run is judged against afterwards.
    expect(d.analysisTarget.assumptions.rateLimit.read).toBeUndefined();
  });

  it('a contradicted stated budget under assumptions.strict: an error, and the stated budget still drives the run', async () => {
    const rateLimit = { read: { limit: 1000, windowSeconds: 5 } };
    const d = await discover(
      loadProfile('burst'),
      target({ assumptions: { rateLimit, strict: true } }),
      { read: fixedWindow(20, 3, 400) },
      2,
    );
    expect(d.findings.map((f) => f.severity)).toEqual(['error']);
    expect(d.sent.read).toBe(1);
    expect(d.budgets.read).toMatchObject({ limit: 1000, windowSeconds: 5, source: 'stated' });
    expect(d.analysisTarget.assumptions.rateLimit.read).toEqual(rateLimit.read);
  });
});

describe('discoverAndPlan across the phases of one run (BudgetMemo)', () => {
  /** Discovery with a memo shared between calls; counts the requests each call sent per class. */
  async function phase(
    profile: Profile,
    t: ReturnType<typeof target>,
    limiters: Partial<Record<RouteClass, SimLimiter>>,
    memo: BudgetMemo,
  ) {
    const sent: Partial<Record<RouteClass, number>> = {};
    const d = await discoverAndPlan(planProfile(profile, t), profile, t, {
      memo,
      sender: (cls) => {
        const io = simIO(limiters[cls] ?? noHeaders());
        return { io, close: async () => void (sent[cls] = io.sent()) };
      },
    });
    return { ...d, sent, budgets: d.plan.config.budgets as Record<string, BudgetEntry> };
  }

  it('regression: every phase of spgate run probed the same budgets again; a later phase reuses what an earlier one learned', async () => {
    const memo = new BudgetMemo();
    const limiters = { read: fixedWindow(20, 3, 1700), write: fixedWindow(6, 3, 1700) };
    const first = await phase(loadProfile('read-budget'), target(), limiters, memo);
    expect(first.sent.read).toBeGreaterThan(0);
    const later = await phase(loadProfile('class-isolation'), target(), limiters, memo);
    expect(later.sent.read).toBeUndefined();
    expect(later.sent.write).toBeGreaterThan(0);
    expect(later.requests).toBe(later.sent.write);
    expect(later.budgets.read).toMatchObject({ limit: 20, windowSeconds: 3, source: 'observed' });
    expect(later.plan.config.notes.join('\n')).toMatch(/read: budget from the probe of read-budget earlier in this run: 20 per 3 s/);
    const third = await phase(loadProfile('write-budget'), target(), limiters, memo);
    expect(third.requests).toBe(0);
  });

  it('retries a probe that learned nothing, and never reuses a budget across base URLs', async () => {
    const memo = new BudgetMemo();
    await phase(loadProfile('read-budget'), target(), {}, memo);
    const again = await phase(loadProfile('read-budget'), target(), { read: fixedWindow(20, 3, 1700) }, memo);
    expect(again.sent.read).toBeGreaterThan(0);
    expect(again.budgets.read).toMatchObject({ limit: 20, source: 'observed' });
    const elsewhere = await phase(
      loadProfile('read-budget'),
      target({ baseUrl: 'http://127.0.0.2:9/v1' }),
      { read: fixedWindow(30, 3, 1700) },
      memo,
    );
    expect(elsewhere.budgets.read).toMatchObject({ limit: 30, source: 'observed' });
  });

  it('reports a contradicted stated budget once: the later phase uses the observed budget without the finding', async () => {
    const memo = new BudgetMemo();
    const t = target({ assumptions: { rateLimit: { read: { limit: 50, windowSeconds: 3 } } } } as Partial<TargetFileInput>);
    const first = await phase(loadProfile('read-budget'), t, { read: fixedWindow(20, 3, 1700) }, memo);
    expect(first.findings.map((f) => f.clause)).toEqual([STATED_BUDGET_CLAUSE]);
    const later = await phase(loadProfile('read-budget'), t, { read: fixedWindow(20, 3, 1700) }, memo);
    expect(later.findings).toEqual([]);
    expect(later.requests).toBe(0);
    expect(later.budgets.read).toMatchObject({ limit: 20, source: 'observed' });
    expect(later.analysisTarget.assumptions.rateLimit.read).toBeUndefined();
  });
});
