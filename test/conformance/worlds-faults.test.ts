/**
 * Staging's conditions do not hide a bug: with the busy and drifting worlds on (another client writing, the
 * listed pool items already moved on), every fault the conformance suites are responsible for (`by`
 * 'conformance' or 'both' in src/reference/faults.ts) is still caught. A fault test/conformance/check-faults.ts
 * names for a check fails each check it names; any other fault shows, with its clause, in at least one of the
 * checks that judge that clause (support/world-fault-groups.ts). One fresh server per fault (set), its ids-only
 * target file from serve's own writer; a check that could not judge without a fixtures API is run again on a
 * server that serves one (in the same worlds).
 * The groups run one after another: their servers share this process's event loop, and side by side (three
 * plus the rate-limit ones one at a time) the file took as long (18-28 s against 20-23 s, a 2-core machine at
 * load 5) while the drives to a 429 and Reset read 1.1 s apart shared the loop with other groups.
 */
import { describe, expect, it } from 'vitest';
import { type ConformanceOutcome } from '../../src/conformance/run.js';
import { runConformance } from '../support/conformance.js';
import { FAULTS, type FaultName } from '../../src/reference/index.js';
import { targetFromInput } from '../../src/target/resolve.js';
import { startWorldServer } from '../support/world-server.js';
import { CHECK_FAULTS, roomInWindow } from './check-faults.js';
import { FAULT_GROUPS, JUDGED_FAULTS, SHOWN_BESIDE_CLAUSE, type FaultGroup } from './support/world-fault-groups.js';
import { SUITES } from '../../suites/index.js';

const WORLDS = ['busy', 'drifting=0'];

async function run(group: FaultGroup, checks: string[], fixturesApi: boolean): Promise<ConformanceOutcome> {
  const ws = await startWorldServer({ seed: 7, worlds: WORLDS, faults: group.faults, fixturesApi, budgets: group.budgets });
  try {
    if (group.windowRoom) await roomInWindow(group.budgets.windowSeconds);
    // the target file's content, taken as the embedded server's (as every-check.test.ts does): a check that
    // knows the reference server's seeded values (shapes.priorities) judges them only then, and what is
    // proven here is the worlds' effect, not the file's
    const target = targetFromInput(ws.server.describe(), 'embedded');
    return await runConformance({ target, checks, runs: 5, seed: 7 });
  } finally {
    await ws.close();
  }
}

/** Each check's result and findings: from the ids-only server, or from a fixtures-API one where ids-only could not judge. */
async function outcome(group: FaultGroup): Promise<Map<string, { status: string; reason: string; clauses: string[] }>> {
  const first = await run(group, group.checks, false);
  // skipped for want of a fixtures API, or a pass / inconclusive that names one as what would let it judge
  const needApi = first.checks
    .filter((c) => !['failed', 'warned'].includes(c.status) && /fixtures API/.test(`${c.reason ?? ''} ${c.remedy ?? ''}`))
    .map((c) => c.checkId);
  const second = needApi.length ? await run(group, needApi, true) : undefined;
  const out = new Map<string, { status: string; reason: string; clauses: string[] }>();
  for (const id of group.checks) {
    const from = needApi.includes(id) ? second! : first;
    const result = from.checks.find((c) => c.checkId === id)!;
    const clauses = from.findings.filter((f) => f.checkId === id).map((f) => f.clause);
    out.set(id, { status: result.status, reason: result.reason ?? '', clauses });
  }
  return out;
}

describe('the groups cover every fault the conformance suites must catch', () => {
  it('every conformance or both fault is in a group, and a group holds only those and the faults check-faults.ts names', () => {
    const grouped = new Set(FAULT_GROUPS.flatMap((g) => g.faults));
    expect(JUDGED_FAULTS.filter((f) => !grouped.has(f))).toEqual([]);
    const named = new Set(Object.values(CHECK_FAULTS).flatMap((f) => (typeof f === 'string' ? [f] : [...f])));
    expect([...grouped].filter((f) => !JUDGED_FAULTS.includes(f) && !named.has(f))).toEqual([]);
  });

  it('every fault check-faults.ts does not name alone has checks to show in, and SHOWN_BESIDE_CLAUSE no stale row', () => {
    expect(FAULT_GROUPS.filter((g) => g.checks.length === 0).map((g) => g.key)).toEqual([]);
    const own = (f: FaultName) => SUITES.some((s) => s.checks.some((c) => c.clause === FAULTS[f].catches));
    const alone = new Set(Object.values(CHECK_FAULTS).filter((f) => typeof f === 'string'));
    const stale = (Object.keys(SHOWN_BESIDE_CLAUSE) as FaultName[]).filter((f) => own(f) || alone.has(f) || !JUDGED_FAULTS.includes(f));
    expect(stale).toEqual([]);
  });
});

describe('every fault is caught in the busy and drifting worlds', () => {
  for (const group of FAULT_GROUPS) {
    it(`${group.key} → ${group.checks.join(', ')}`, async () => {
      const results = await outcome(group);
      if (group.each) {
        for (const [id, r] of results) {
          expect(`${id}: ${r.status}`, r.reason).toMatch(/: (failed|warned)$/);
          expect(r.clauses.length, id).toBeGreaterThan(0);
        }
        return;
      }
      const clause = FAULTS[group.faults[0]!].catches;
      const shown = [...results].filter(([, r]) => ['failed', 'warned'].includes(r.status) && r.clauses.includes(clause));
      const seen = [...results].map(([id, r]) => `${id}: ${r.status} [${r.clauses.join(', ')}] ${r.reason}`).join('; ');
      expect(shown.length, `${clause} in none of: ${seen}`).toBeGreaterThan(0);
    });
  }
});
