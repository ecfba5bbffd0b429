/**
 * Every fault the limits suite is responsible for produces a finding with the fault's clause, on budgets of
 * the test's choosing (LIMITS_BUDGETS); Reset in milliseconds gets its own server with a one-hour window (below).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { FAULTS, type FaultName } from '../../src/reference/faults.js';
import type { RunningReferenceServer } from '../../src/reference/index.js';
import { FAULTS_BY_SUITE, LIMITS_BUDGETS, runWith, startServer } from './support/fault-run.js';

/**
 * limits.remaining-decreases sees Reset in ms by Reset falling faster than time over two answers 1.1 s apart;
 * a fixed window ending between them makes Reset rise instead, and the fault goes unseen (in a 5 s window,
 * one run in four or five). A window of an hour (aligned to the clock) ends between them about once in 3,000
 * runs, and nothing in the suite waits it out: a Reset above 70 s is not waited for.
 */
const ONE_HOUR: FaultName[] = ['ratelimit-reset-ms'];

let server: RunningReferenceServer;
let hourly: RunningReferenceServer;
beforeAll(async () => {
  server = await startServer(LIMITS_BUDGETS);
  hourly = await startServer({ read: 300, write: 100, windowSeconds: 3600 });
});
afterAll(async () => {
  await server.close();
  await hourly.close();
});

describe('limits suite catches its faults', () => {
  for (const fault of FAULTS_BY_SUITE.limits!) {
    it(`${fault} → ${FAULTS[fault].catches}`, async () => {
      const out = await runWith(ONE_HOUR.includes(fault) ? hourly : server, [fault], ['limits']);
      expect(out.findings.map((f) => f.clause)).toContain(FAULTS[fault].catches);
      expect(out.checks.filter((c) => c.status === 'error')).toEqual([]);
    });
  }
});
