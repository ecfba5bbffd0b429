import { describe, expect, it } from 'vitest';
import { planProfile } from '../../src/load/plan.js';
import type { BudgetEntry } from '../../src/load/budgets.js';
import { loadProfile } from '../../src/load/profile.js';
import { loadDryRun } from '../../src/cli/dry-run.js';
import { targetFromInput } from '../../src/target/resolve.js';
import type { TargetFileInput } from '../../src/target/schema.js';

const base: TargetFileInput = {
  baseUrl: 'http://127.0.0.1:9/v1',
  keys: { admin: { key: 'pk_test_plan_budgets_0123456789' } },
  allowWrites: true,
  fixtures: { ids: { conversationId: 'conv_1' } },
};
const target = (extra: Partial<TargetFileInput> = {}) => targetFromInput({ ...base, ...extra }, 'test');
const budgetsOf = (plan: ReturnType<typeof planProfile>) => plan.config.budgets as Record<string, BudgetEntry>;

describe('planProfile budgets', () => {
  it('sizes rates from the stated budget and says so in config.budgets', () => {
    const plan = planProfile(
      loadProfile('class-isolation'),
      target({ assumptions: { rateLimit: { read: { limit: 60, windowSeconds: 2 } } } }),
      3,
    );
    expect(budgetsOf(plan)).toEqual({
      read: { limit: 60, windowSeconds: 2, source: 'stated' },
      write: { limit: null, windowSeconds: null, source: 'fallback' },
    });
    expect(plan.classes.find((c) => c.class === 'read')!.peakRate).toBe(15);
    expect(plan.classes.find((c) => c.class === 'write')!.peakRate).toBe(100);
  });

  it('an observed budget handed in wins over the stated one and sizes rates and the minWindows duration', () => {
    const t = target({ assumptions: { rateLimit: { read: { limit: 1000, windowSeconds: 5 } } } });
    const plan = planProfile(loadProfile('class-isolation'), t, undefined, {
      read: { limit: 20, windowSeconds: 3, source: 'observed' },
      write: { limit: 6, windowSeconds: 4, source: 'observed' },
    });
    expect(budgetsOf(plan).read).toEqual({ limit: 20, windowSeconds: 3, source: 'observed' });
    expect(plan.classes.find((c) => c.class === 'read')!.peakRate).toBeCloseTo(20 / 3 / 2, 5);
    expect(plan.classes.find((c) => c.class === 'write')!.peakRate).toBe(3);
    // class-isolation: max(12 s, 2.5 windows of the longer 4 s window) = 12 s.
    expect(plan.durationMs).toBe(12_000);
  });

  it('leaves classes whose plan does not depend on a budget out of config.budgets', () => {
    expect(budgetsOf(planProfile(loadProfile('smoke'), target(), 1))).toEqual({});
    expect(budgetsOf(planProfile(loadProfile('capacity'), target(), 1))).toEqual({});
  });

  it('pending (dry run): unstated budgets are "to be discovered", not a fallback rate', () => {
    const plan = planProfile(loadProfile('class-isolation'), target(), 3, { pending: true });
    expect(budgetsOf(plan).read).toEqual({ limit: null, windowSeconds: null, source: 'pending' });
    expect(plan.classes.find((c) => c.class === 'read')!.budgetPending).toEqual({ budgetFactor: 0.5, fallback: 20 });
    expect(plan.config.notes.join('\n')).toMatch(/budget probe before the run: up to \d+ requests per class \(read, write\)/);
  });

  it('the load dry run prints "budget: to be discovered from headers" for an unstated budget, the rate for a stated one', () => {
    const lines = loadDryRun(
      target({ assumptions: { rateLimit: { write: { limit: 6, windowSeconds: 3 } } } }),
      loadProfile('class-isolation'),
      3,
    ).join('\n');
    expect(lines).toMatch(/read: budget: to be discovered from headers \(0\.5× its rate; fallback 20 rps\)/);
    expect(lines).toMatch(/write: 4→peak 4 rps/);
    expect(lines).toMatch(/stated budget checked against RateLimit-Limit with one request per class \(write\)/);
    expect(lines).not.toMatch(/using the fallback rate/);
  });
});
