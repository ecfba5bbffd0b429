/**
 * The assign checks set assignees and teams from the target file (fixtures.ids.assigneeIds / teams) and
 * judge nothing from a made-up value a deployment refuses (the spec does not require a server to accept an
 * assignee it does not know). Against the strict-inputs dialect, which refuses unknown assignees with 422:
 * - with the target-out's assigneeIds/teams, every assign check passes;
 * - without them, status.assign.sets-and-clears is inconclusive (its made-up assignee was refused), never failed;
 * - with a supplied id the workspace does not know, the refusal is judged: a finding.
 * The fault that makes the checks fail on a server that accepts the values is assign-empty-team-kept
 * (status.test.ts, every-check.test.ts).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type ConformanceOutcome } from '../../src/conformance/run.js';
import { runConformance } from '../support/conformance.js';
import { startReferenceServer, type RunningReferenceServer } from '../../src/reference/index.js';
import { targetFromInput } from '../../src/target/resolve.js';
import type { TargetFileInput } from '../../src/target/schema.js';
import { verdicts } from '../support/proxied-conformance.js';

const BUDGETS = { read: 1_000_000, write: 1_000_000, windowSeconds: 60 };
const ASSIGN_CHECKS = [
  'status.assign.sets-and-clears',
  'status.assign.body-required',
  'status.assign.model',
  'idempotency.model',
  'idempotency.assign.replay',
  'idempotency.assign.conflict',
  'idempotency.per-connection',
];

let server: RunningReferenceServer;
beforeAll(async () => {
  server = await startReferenceServer({ seed: 5, dialect: 'strict-inputs', fixturesApi: false, budgets: BUDGETS });
});
afterAll(() => server.close());

/** Runs `checks` with the server's ids-only target, its fixture ids edited by `edit`. */
function run(
  checks: string[],
  edit: (ids: Record<string, unknown>) => Record<string, unknown> = (ids) => ids,
): Promise<ConformanceOutcome> {
  const input = server.describe({});
  const ids = edit({ ...(input.fixtures?.ids ?? {}) });
  const target = targetFromInput({ ...input, fixtures: { ...input.fixtures, ids } } as TargetFileInput, 'strict-inputs.target.json');
  return runConformance({ target, checks, runs: 4, seed: 2 });
}

describe('assign checks against a server that accepts only its own agents and teams', () => {
  it("with the target file's assigneeIds and teams: every assign check passes", async () => {
    const out = await run(ASSIGN_CHECKS);
    expect(out.findings.map((f) => `${f.checkId} ${f.clause}: ${f.actual}`)).toEqual([]);
    expect(verdicts(out)).toEqual(Object.fromEntries(ASSIGN_CHECKS.map((id) => [id, 'passed'])));
  });

  it('without them: the refused made-up assignee makes sets-and-clears inconclusive, naming the field; nothing fails', async () => {
    const out = await run(['status.assign.sets-and-clears', 'status.assign.model'], ({ assigneeIds: _a, teams: _t, ...rest }) => rest);
    expect(out.findings).toEqual([]);
    const sets = out.checks.find((c) => c.checkId === 'status.assign.sets-and-clears');
    const model = out.checks.find((c) => c.checkId === 'status.assign.model');
    expect(sets?.status).toBe('inconclusive');
    expect(sets?.reason).toMatch(/made-up assignee id; fixtures\.ids\.assigneeIds names none/);
    expect(['passed', 'inconclusive']).toContain(model?.status);
  });

  it('a supplied assignee id the workspace refuses is judged: a finding', async () => {
    const out = await run(['status.assign.sets-and-clears'], (ids) => ({ ...ids, assigneeIds: ['agt_not_in_this_workspace'] }));
    expect(out.checks[0]?.status).toBe('failed');
    expect(out.findings[0]?.clause).toBe('3.assign.sets-and-clears');
  });
});
