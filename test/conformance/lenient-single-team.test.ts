/**
 * A target file naming a single team (fixtures.ids.teams): the assign checks that need two different teams
 * take "" (clearing, valid everywhere) as the second, so no check compares a team with itself and passes
 * without having judged. Each still catches its fault with one team.
 */
import { describe, expect, it } from 'vitest';
import type { ProxyHook } from '../checks/rewriting-proxy.js';
import { proxiedReference, verdicts } from '../support/proxied-conformance.js';
import { startServer } from './stateful-harness.js';
import type { TargetFileInput } from '../../src/target/schema.js';

const singleTeam = (t: TargetFileInput): TargetFileInput => ({
  ...t,
  fixtures: { ...t.fixtures, ids: { ...(t.fixtures?.ids ?? {}), teams: ['billing'] } },
});
const passThrough: ProxyHook = (_req, forward) => forward();

/** The teams every assign of a run sent (the body's `team`), in order. */
function teamsSent(into: string[]): ProxyHook {
  return (req, forward) => {
    if (/\/assign$/.test(req.path) && req.body) into.push(String((JSON.parse(req.body) as { team?: unknown }).team));
    return forward();
  };
}

describe('a single team in fixtures.ids.teams', () => {
  const ref = proxiedReference(() => startServer(1));

  it('idempotency.concurrent.assign races one team and sets the other "": passes clean, catches idempotency-race', async () => {
    const sent: string[] = [];
    const clean = await ref.run(teamsSent(sent), { checks: ['idempotency.concurrent.assign'], runs: 1, edit: singleTeam });
    expect(clean.findings.map((f) => `${f.expected}; got ${f.actual}`)).toEqual([]);
    expect(verdicts(clean)).toEqual({ 'idempotency.concurrent.assign': 'passed' });
    expect(new Set(sent)).toEqual(new Set(['billing', '']));
    const faulty = await ref.run(passThrough, {
      checks: ['idempotency.concurrent.assign'],
      runs: 1,
      edit: singleTeam,
      faults: ['idempotency-race'],
    });
    expect(faulty.findings.map((f) => f.clause)).toContain('idempotency.concurrent');
  });

  it('idempotency.per-connection sends two different bodies: passes clean, catches idempotency-cross-connection', async () => {
    const sent: string[] = [];
    const clean = await ref.run(teamsSent(sent), { checks: ['idempotency.per-connection'], runs: 1, edit: singleTeam });
    expect(clean.findings.map((f) => `${f.expected}; got ${f.actual}`)).toEqual([]);
    expect(verdicts(clean)).toEqual({ 'idempotency.per-connection': 'passed' });
    expect(new Set(sent)).toEqual(new Set(['billing', '']));
    const faulty = await ref.run(passThrough, {
      checks: ['idempotency.per-connection'],
      runs: 1,
      edit: singleTeam,
      faults: ['idempotency-cross-connection'],
    });
    expect(faulty.findings.map((f) => f.clause)).toContain('idempotency.per-connection');
  });
});
