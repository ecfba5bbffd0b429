/**
 * Every fault the auth, errors, pagination and shapes suites are responsible for produces a finding with the
 * fault's clause (the limits suite's faults: suite-faults-limits.test.ts, on budgets of their own).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { FAULTS } from '../../src/reference/faults.js';
import type { RunningReferenceServer } from '../../src/reference/index.js';
import { FAULTS_BY_SUITE, runWith, startServer } from './support/fault-run.js';

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
      const out = await runWith(server, [fault], [suite]);
      expect(out.findings.map((f) => f.clause)).toContain(FAULTS[fault].catches);
      expect(out.checks.filter((c) => c.status === 'error')).toEqual([]);
    });
  }
});
