/**
 * Legitimate choices the checks once failed: chats listed without lastActivityAt (shapes.session allows it),
 * and a target file naming a single team (the assign conflict once sent the same body twice under one key).
 */
import { describe, expect, it } from 'vitest';
import type { ProxyHook } from '../checks/rewriting-proxy.js';
import { proxiedReference } from '../support/proxied-conformance.js';
import { startServer } from './stateful-harness.js';
import type { TargetFileInput } from '../../src/target/schema.js';

/** Every listed chat but the first two leaves lastActivityAt out; `all` leaves it out everywhere. */
function omitActivity(all: boolean): ProxyHook {
  return async (req, forward) => {
    const a = await forward();
    const body = a.json as { data?: unknown } | undefined;
    if (a.status === 200 && /\/assistant\/sessions$/.test(req.path) && Array.isArray(body?.data)) {
      const data = (body.data as Array<Record<string, unknown>>).map((s, i) => {
        if (!all && i < 2) return s;
        const { lastActivityAt: _omitted, ...rest } = s;
        return rest;
      });
      return { ...a, json: { data } };
    }
    return a;
  };
}

const singleTeam = (t: TargetFileInput): TargetFileInput => ({
  ...t,
  fixtures: { ...t.fixtures, ids: { ...(t.fixtures?.ids ?? {}), teams: ['billing'] } },
});

describe('legitimate variants', () => {
  const ref = proxiedReference(() => startServer(1));

  it('assistant.sessions.order passes when some chats omit lastActivityAt, and is inconclusive when all do', async () => {
    const some = await ref.run(omitActivity(false), { checks: ['assistant.sessions.order'], runs: 1 });
    expect(some.findings).toEqual([]);
    expect(some.checks.map((c) => c.status)).toEqual(['passed']);
    const none = await ref.run(omitActivity(true), { checks: ['assistant.sessions.order'], runs: 1 });
    expect(none.findings).toEqual([]);
    expect(none.checks.map((c) => c.status)).toEqual(['inconclusive']);
  });

  it('idempotency.assign.conflict with a single team sends two different bodies: passes clean, catches idempotency-ignores-body', async () => {
    const clean = await ref.run((_req, forward) => forward(), { checks: ['idempotency.assign.conflict'], runs: 1, edit: singleTeam });
    expect(clean.findings.map((f) => `${f.expected}; got ${f.actual}`)).toEqual([]);
    expect(clean.checks.map((c) => c.status)).toEqual(['passed']);
    const faulty = await ref.run((_req, forward) => forward(), {
      checks: ['idempotency.assign.conflict'],
      runs: 1,
      edit: singleTeam,
      faults: ['idempotency-ignores-body'],
    });
    expect(faulty.findings.map((f) => f.clause)).toContain('4.7.idempotency.conflict');
  });
});
