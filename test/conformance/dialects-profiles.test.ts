/**
 * The rate-limit profiles against every reference-server dialect, each through a target that holds only ids
 * and states no budgets: the budgets are discovered from the headers and the profiles see no rate-limit
 * violation. A profile that only works on the default limiter fails here. (The whole suite against every
 * dialect: dialects.test.ts.)
 */
import { describe, expect, it } from 'vitest';
import { loadProfile } from '../../src/load/profile.js';
import { runProfile } from '../../src/load/run.js';
import { DIALECT_NAMES, startReferenceServer } from '../../src/reference/index.js';
import { targetFromInput } from '../../src/target/resolve.js';

/** Short windows keep each profile's ≥ 2.5 windows to a few seconds; each dialect keeps its limiter model. */
const BUDGETS = { read: 40, write: 8, windowSeconds: 2 };

describe.each(DIALECT_NAMES)('dialect %s, ids-only target, budgets unstated', (dialect) => {
  it.each(['read-budget', 'write-budget', 'class-isolation'])('%s: budgets discovered from the headers, no rate-limit violation', async (name) => {
    const limited = await startReferenceServer({ seed: 11, dialect, fixturesApi: false, budgets: BUDGETS });
    try {
      const target = targetFromInput(limited.describe({ budgets: false }), `${dialect}.target.json`);
      const { result, findings } = await runProfile({ target, profile: loadProfile(name), durationOverride: 2.5 * BUDGETS.windowSeconds + 0.5 });
      expect(result.rateLimit.violations.map((v) => `${v.rule}: ${v.message}`)).toEqual([]);
      expect(findings.filter((f) => f.severity === 'error').map((f) => `${f.clause}: ${f.title}`)).toEqual([]);
      const budgets = result.config.budgets as Record<string, { source: string } | undefined> | undefined;
      for (const cls of ['read', 'write'] as const) if (budgets?.[cls]) expect(budgets[cls]!.source).toBe('observed');
    } finally {
      await limited.close();
    }
  });
});
