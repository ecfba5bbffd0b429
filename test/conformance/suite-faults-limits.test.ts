/**
 * Every fault the limits suite is responsible for produces a finding with the fault's clause, on budgets of
 * the test's choosing (LIMITS_BUDGETS); Reset in milliseconds and shared classes get their own server with a
 * one-hour window (below).
 * Each fault runs the checks it shows in (SHOWN_IN), not the whole suite: a whole run waits out
 * limits.remaining-decreases' Reset and drives two budgets to a 429 for every fault, 8-10 s each, where
 * most faults show in a body-limit check that takes a tenth of a second. The whole suite, clean: clean.test.ts.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { FAULTS, type FaultName } from '../../src/reference/faults.js';
import type { RunningReferenceServer } from '../../src/reference/index.js';
import { FAULTS_BY_SUITE, LIMITS_BUDGETS, runWith, startServer } from './support/fault-run.js';

/**
 * limits.remaining-decreases sees Reset in ms by Reset falling faster than time over two answers 1.1 s apart;
 * a fixed window ending between them makes Reset rise instead, and the fault goes unseen (in a 5 s window,
 * one run in four or five). A window of an hour (aligned to the clock) ends between them about once in 3,000
 * runs, and nothing in the suite waits it out: a Reset above 70 s is not waited for. limits.classes-isolated
 * sees ratelimit-shared-classes by the read budget's Remaining falling over a few writes; a window ending
 * between the two reads gives the budget back and hides it (in a 2 s window: red in one of three runs here).
 */
const ONE_HOUR: FaultName[] = ['ratelimit-reset-ms', 'ratelimit-shared-classes'];

/** The limits checks each fault shows in (fails or warns) in a whole run of the suite, measured. */
const SHOWN_IN: Record<string, string[]> = {
  'body-limit-ignored': ['limits.read-body', 'limits.read-body-routes'],
  'write-body-limit-ignored': ['limits.write-body', 'limits.write-body-routes'],
  'body-limit-code': ['limits.read-body', 'limits.read-body-routes', 'limits.write-body', 'limits.write-body-routes'],
  'ratelimit-headers-missing-on-errors': ['limits.headers', 'limits.429', 'limits.429-read'],
  'ratelimit-no-retry-after': ['limits.429', 'limits.429-read'],
  'ratelimit-429-code': ['limits.429', 'limits.429-read'],
  'ratelimit-reset-ms': ['limits.headers', 'limits.remaining-decreases', 'limits.429', 'limits.429-read'],
  'ratelimit-remaining-negative': ['limits.429', 'limits.429-read'],
  'write-body-limit-assign-only': ['limits.write-body-routes'],
  'read-body-limit-customers-only': ['limits.read-body-routes'],
  'collection-body-limit-code': ['limits.write-body-routes'],
  'ratelimit-limit-drifts': ['limits.limit-constant'],
  'ratelimit-shared-classes': ['limits.classes-isolated'],
  'ratelimit-reset-epoch': ['limits.headers', 'limits.429', 'limits.429-read'],
};

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
  it('names the checks of every fault of the suite, and only of those', () => {
    expect(Object.keys(SHOWN_IN).sort()).toEqual([...FAULTS_BY_SUITE.limits!].sort());
  });

  for (const fault of FAULTS_BY_SUITE.limits!) {
    it(`${fault} → ${FAULTS[fault].catches}`, async () => {
      const out = await runWith(ONE_HOUR.includes(fault) ? hourly : server, [fault], ['limits'], 11, 5, SHOWN_IN[fault]);
      expect(out.checks.map((c) => c.checkId).sort()).toEqual([...SHOWN_IN[fault]!].sort());
      expect(out.findings.map((f) => f.clause)).toContain(FAULTS[fault].catches);
      expect(out.checks.filter((c) => c.status === 'error')).toEqual([]);
    });
  }
});
