/**
 * The whole suite against reference-server dialects (legitimate choices wherever the spec says "not shown"),
 * each through a target that holds only ids (no fixtures API) and states no budgets: at least 90 % of checks
 * run, each reaching a verdict, with zero findings. A check that only works on the default choices fails
 * here. Declared by dialects-a/-b.test.ts, half of the dialects each, so vitest's two workers share them.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runConformance } from '../../support/conformance.js';
import { startReferenceServer, type DialectName, type RunningReferenceServer } from '../../../src/reference/index.js';
import { targetFromInput } from '../../../src/target/resolve.js';
import { unexplainedIdsOnly } from '../../support/ids-only-hides.js';

/** Declares one whole-suite test per dialect, each against its own server. */
export function describeDialects(dialects: readonly DialectName[]): void {
  describe.each(dialects)('dialect %s, ids-only target, budgets unstated', (dialect) => {
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
  });
}
