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
import { CHECK_FAULTS } from './check-faults.js';

// Reads never wait; the write budget stays small enough for limits.429 to drive it to a 429.
const BUDGETS = { read: 1_000_000, write: 300, windowSeconds: 5 };
/** Checks that drive the read budget to a 429 run on a server whose read budget they can spend. */
const SMALL_READ_BUDGET = new Set(['limits.429-read']);
const SEED = 7;
const RUNS = 5;
/** Checks that compare RateLimit-Reset over about a second: they start with at least 3 s left in the window. */
const NEEDS_WINDOW_ROOM = new Set(['limits.remaining-decreases', 'limits.classes-isolated']);

/** Waits, if needed, until the current rate-limit window (aligned to multiples of its length) has 3 s left. */
async function roomInWindow(): Promise<void> {
  const w = BUDGETS.windowSeconds * 1000;
  const left = w - (Date.now() % w);
  if (left < 3000) await new Promise((r) => setTimeout(r, left + 20));
}

let main: RunningReferenceServer;
let smallRead: RunningReferenceServer;
beforeAll(async () => {
  main = await startReferenceServer({ seed: 1, budgets: BUDGETS });
  smallRead = await startReferenceServer({ seed: 1, budgets: { ...BUDGETS, read: 300 } });
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
