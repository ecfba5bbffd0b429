/** Every fault the pagination suite is responsible for produces a finding with the fault's clause. */
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

describe('pagination suite catches its faults', () => {
  for (const fault of FAULTS_BY_SUITE['pagination']!) {
    it(`${fault} → ${FAULTS[fault].catches}`, async () => {
      const out = await runWith(server, [fault], ['pagination']);
      expect(out.findings.map((f) => f.clause)).toContain(FAULTS[fault].catches);
      expect(out.checks.filter((c) => c.status === 'error')).toEqual([]);
    });
  }
});
