/**
 * Every check of every suite is proven to fail: run alone (runConformance `checks`) against the reference
 * server with the fault test/conformance/check-faults.ts names for it, it must report a finding of its own.
 * One server for the file; faults are switched between cases and rate-limit buckets emptied.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runConformance } from '../support/conformance.js';
import { startReferenceServer, type RunningReferenceServer } from '../../src/reference/index.js';
import type { Target } from '../../src/target/schema.js';
import { targetFromInput } from '../../src/target/resolve.js';
import { SUITES } from '../../suites/index.js';
import { CHECK_FAULT_BUDGETS, CHECK_FAULTS, NEEDS_WINDOW_ROOM, SMALL_READ, SMALL_READ_BUDGET, roomInWindow } from './check-faults.js';

const SEED = 7;
const RUNS = 5;

let main: RunningReferenceServer;
let smallRead: RunningReferenceServer;
beforeAll(async () => {
  main = await startReferenceServer({ seed: 1, budgets: CHECK_FAULT_BUDGETS });
  smallRead = await startReferenceServer({ seed: 1, budgets: { ...CHECK_FAULT_BUDGETS, read: SMALL_READ } });
});
afterAll(async () => {
  await main.close();
  await smallRead.close();
});

describe('check → fault table', () => {
  it('names a fault for every check id of every suite, and no other id', () => {
    const ids = SUITES.flatMap((s) => s.checks.map((c) => c.id)).sort();
    expect(Object.keys(CHECK_FAULTS).sort()).toEqual(ids);
  });
});

describe('every check fails under its fault', () => {
  for (const [id, faults] of Object.entries(CHECK_FAULTS)) {
    const list = typeof faults === 'string' ? [faults] : [...faults];
    it(`${id} ← ${list.join(' + ')}`, async () => {
      const server = SMALL_READ_BUDGET.has(id) ? smallRead : main;
      const target: Target = targetFromInput(server.target, 'embedded');
      server.setFaults(list);
      try {
        await fetch(`${server.fixturesUrl}/ratelimit/reset`, { method: 'POST' });
        if (NEEDS_WINDOW_ROOM.has(id)) await roomInWindow();
        const out = await runConformance({ target, checks: [id], runs: RUNS, seed: SEED });
        expect(out.checks.map((c) => c.checkId)).toEqual([id]);
        const result = out.checks[0]!;
        const mine = out.findings.filter((f) => f.checkId === id);
        expect(result.status, `${result.status} ${result.reason ?? ''}`).toMatch(/^(failed|warned)$/);
        expect(mine.length).toBeGreaterThan(0);
      } finally {
        server.setFaults([]);
      }
    });
  }
});
