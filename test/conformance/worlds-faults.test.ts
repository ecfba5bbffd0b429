/**
 * Staging's conditions do not hide a bug: with the busy and drifting worlds on (another client writing, the
 * listed pool items already moved on), every check still fails under the fault test/conformance/check-faults.ts
 * names for it. One fresh server per fault (set), its ids-only target file from serve's own writer; a check
 * that needs a fixtures API is run again on a server that serves one (in the same worlds).
 */
import { describe, expect, it } from 'vitest';
import { type ConformanceOutcome } from '../../src/conformance/run.js';
import { runConformance } from '../support/conformance.js';
import type { FaultName } from '../../src/reference/index.js';
import { targetFromInput } from '../../src/target/resolve.js';
import { startWorldServer } from '../support/world-server.js';
import { CHECK_FAULTS } from './check-faults.js';

const WORLDS = ['busy', 'drifting=0'];
// as in every-check.test.ts: reads never wait; the write budget stays small enough for limits.429 to reach a 429
const BUDGETS = { read: 1_000_000, write: 300, windowSeconds: 5 };
/** Checks that drive the read budget to a 429 need a read budget they can spend. */
const SMALL_READ_BUDGET = new Set(['limits.429-read']);
/** Checks that compare RateLimit-Reset over about a second start with at least 3 s left in the window. */
const NEEDS_WINDOW_ROOM = new Set(['limits.remaining-decreases', 'limits.classes-isolated']);

/** The checks of CHECK_FAULTS grouped by the fault (set) that must make them fail. */
function byFault(): Map<string, { faults: FaultName[]; checks: string[] }> {
  const out = new Map<string, { faults: FaultName[]; checks: string[] }>();
  for (const [id, f] of Object.entries(CHECK_FAULTS)) {
    const faults = typeof f === 'string' ? [f] : [...f];
    const key = `${faults.join(' + ')}${SMALL_READ_BUDGET.has(id) ? ' (small read budget)' : ''}${NEEDS_WINDOW_ROOM.has(id) ? ' (window room)' : ''}`;
    const group = out.get(key) ?? { faults, checks: [] };
    group.checks.push(id);
    out.set(key, group);
  }
  return out;
}

/** Waits, if needed, until the current rate-limit window (aligned to multiples of its length) has 3 s left. */
async function roomInWindow(): Promise<void> {
  const w = BUDGETS.windowSeconds * 1000;
  const left = w - (Date.now() % w);
  if (left < 3000) await new Promise((r) => setTimeout(r, left + 20));
}

async function run(faults: FaultName[], checks: string[], fixturesApi: boolean): Promise<ConformanceOutcome> {
  const read = checks.some((c) => SMALL_READ_BUDGET.has(c)) ? 300 : BUDGETS.read;
  const ws = await startWorldServer({ seed: 7, worlds: WORLDS, faults, fixturesApi, budgets: { ...BUDGETS, read } });
  try {
    if (checks.some((c) => NEEDS_WINDOW_ROOM.has(c))) await roomInWindow();
    // the target file's content, taken as the embedded server's (as every-check.test.ts does): a check that
    // knows the reference server's seeded values (shapes.priorities) judges them only then, and what is
    // proven here is the worlds' effect, not the file's
    const target = targetFromInput(ws.server.describe(), 'embedded');
    return await runConformance({ target, checks, runs: 5, seed: 7 });
  } finally {
    await ws.close();
  }
}

describe('every check fails under its fault in the busy and drifting worlds', () => {
  for (const [key, { faults, checks }] of byFault()) {
    it(`${key} → ${checks.join(', ')}`, async () => {
      const first = await run(faults, checks, false);
      const needApi = first.checks.filter((c) => c.status === 'skipped' && /fixtures API/.test(c.reason ?? '')).map((c) => c.checkId);
      const second = needApi.length ? await run(faults, needApi, true) : undefined;
      for (const id of checks) {
        const out = needApi.includes(id) ? second! : first;
        const result = out.checks.find((c) => c.checkId === id)!;
        expect(`${id}: ${result.status}`, result.reason ?? '').toMatch(/: (failed|warned)$/);
        expect(out.findings.filter((f) => f.checkId === id).length, id).toBeGreaterThan(0);
      }
    }, 120_000);
  }
});
