/**
 * The whole suite and the rate-limit profiles against every reference-server dialect (legitimate choices
 * wherever the spec says "not shown"), each through a target that holds only ids (no fixtures API) and
 * states no budgets: at least 90 % of checks run, each reaching a verdict, with zero findings, and the profiles see no rate-limit
 * violation. A check or a profile that only works on the default choices fails here.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runConformance } from '../../src/conformance/run.js';
import { loadProfile } from '../../src/load/profile.js';
import { runProfile } from '../../src/load/run.js';
import { DIALECT_NAMES, startReferenceServer, type RunningReferenceServer } from '../../src/reference/index.js';
import { targetFromInput } from '../../src/target/resolve.js';
import { unexplainedIdsOnly } from '../support/ids-only-hides.js';

/** Short windows keep each profile's ≥ 2.5 windows to a few seconds; each dialect keeps its limiter model. */
const BUDGETS = { read: 40, write: 8, windowSeconds: 2 };

describe.each(DIALECT_NAMES)('dialect %s, ids-only target, budgets unstated', (dialect) => {
  let server: RunningReferenceServer;
  beforeAll(async () => {
    server = await startReferenceServer({ seed: 11, dialect, fixturesApi: false });
  });
  afterAll(() => server.close());

  it('runs at least 90 % of the checks with zero findings and every one judged; every skip names what to add', async () => {
    const input = server.describe({ budgets: false });
    expect(input.fixtures?.api).toBeUndefined();
    const out = await runConformance({ target: targetFromInput(input, `${dialect}.target.json`), runs: 4, seed: 5 });
    const skipped = out.checks.filter((c) => c.status === 'skipped');
    expect(out.findings.map((f) => `${f.checkId} ${f.clause}: ${f.actual}`)).toEqual([]);
    expect(out.checks.filter((c) => c.status === 'error').map((c) => `${c.checkId}: ${c.reason}`)).toEqual([]);
    // The pools the server's own target file lists let every check that runs reach a verdict, but the ones
    // only a fixtures API lets judge (IDS_ONLY_HIDES).
    expect(unexplainedIdsOnly(out.checks.filter((c) => c.status === 'inconclusive').map((c) => `${c.checkId}: ${c.reason}`))).toEqual([]);
    expect(out.checks.length - skipped.length).toBeGreaterThanOrEqual(Math.ceil(out.checks.length * 0.9));
    for (const c of skipped) expect(c.reason).toMatch(/keys\.|fixtures\.|allowWrites|assumptions\./);
  });

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
