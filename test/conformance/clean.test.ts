/** The clean reference server gives no finding in any of the runner's own suites, over three seeds (limits on LIMITS_BUDGETS). */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { RunningReferenceServer } from '../../src/reference/index.js';
import { FAULTS, FAULT_NAMES } from '../../src/reference/faults.js';
import { SUITES } from '../../suites/index.js';
import { FAULTS_BY_SUITE, LIMITS_BUDGETS, runWith, startServer } from './support/fault-run.js';

const MINE = ['auth', 'errors', 'pagination', 'limits', 'shapes'];

let server: RunningReferenceServer;
beforeAll(async () => {
  server = await startServer(LIMITS_BUDGETS);
});
afterAll(async () => {
  await server.close();
});

describe('clean reference server', () => {
  for (const seed of [1, 2, 3]) {
    it(`seed ${seed}: zero findings, nothing skipped or errored`, async () => {
      const out = await runWith(server, [], MINE, seed, 5);
      expect(out.findings).toEqual([]);
      expect(out.checks.filter((c) => c.status !== 'passed').map((c) => `${c.checkId}: ${c.status} ${c.reason ?? ''}`)).toEqual([]);
      expect(out.aborted).toBe(false);
    });
  }
});

describe('fault coverage', () => {
  it('every conformance fault whose clause a check of these suites names is in a suite test', () => {
    const clauses = new Set(SUITES.filter((s) => MINE.includes(s.name)).flatMap((s) => s.checks.map((c) => c.clause as string)));
    const listed = new Set(Object.values(FAULTS_BY_SUITE).flat());
    const missing = FAULT_NAMES.filter((f) => FAULTS[f].by !== 'load' && clauses.has(FAULTS[f].catches) && !listed.has(f));
    expect(missing).toEqual([]);
  });
});
