/**
 * Every fault the auth, errors, pagination and shapes suites are responsible for produces a finding with the
 * fault's clause (the limits suite's faults: suite-faults-limits.test.ts, on budgets of their own).
 * Each fault runs the checks of the suite that judge its clause (the whole suite where none names it): a
 * whole suite per fault spent most of this file on checks the fault does not touch. The whole suites,
 * clean: clean.test.ts.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { FAULTS, type FaultName } from '../../src/reference/faults.js';
import type { RunningReferenceServer } from '../../src/reference/index.js';
import { SUITES } from '../../suites/index.js';
import { FAULTS_BY_SUITE, runWith, startServer } from './support/fault-run.js';

/** Faults a check of another clause reports (the role × operation sweep of auth.scope-missing): the whole suite runs. */
const BESIDE_THEIR_CLAUSE: FaultName[] = ['attachments-single-scope'];

/** The suite's checks whose clause is the fault's, or undefined (the whole suite) when none is. */
function judging(suite: string, fault: FaultName): string[] | undefined {
  if (BESIDE_THEIR_CLAUSE.includes(fault)) return undefined;
  const ids = SUITES.find((s) => s.name === suite)!
    .checks.filter((c) => c.clause === FAULTS[fault].catches)
    .map((c) => c.id);
  return ids.length > 0 ? ids : undefined;
}

let server: RunningReferenceServer;
beforeAll(async () => {
  server = await startServer();
});
afterAll(async () => {
  await server.close();
});

describe.each(['auth', 'errors', 'pagination', 'shapes'])('%s suite catches its faults', (suite) => {
  for (const fault of FAULTS_BY_SUITE[suite]!) {
    it(`${fault} → ${FAULTS[fault].catches}`, async () => {
      const out = await runWith(server, [fault], [suite], 11, 5, judging(suite, fault));
      expect(out.findings.map((f) => f.clause)).toContain(FAULTS[fault].catches);
      expect(out.checks.filter((c) => c.status === 'error')).toEqual([]);
    });
  }
});
