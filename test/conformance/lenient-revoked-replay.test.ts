/**
 * helpcenter.idempotency.revoked-no-replay (4.9 "Revoked or expired grants cannot replay") judges a revoked
 * grant's own replay: with a fixtures API that revokes the delegated key after its update. Without one, the
 * revoked and expired keys of the target file never stored an answer in a store scoped to the connection, so
 * their 401 judged nothing: inconclusive, never passed — also on a server that replays a revoked grant's own
 * requests, which only the fixtures path can catch. A store keyed by the Idempotency-Key alone is caught either way.
 */
import { describe, expect, it } from 'vitest';
import type { ProxyHook } from '../checks/rewriting-proxy.js';
import { proxiedReference, verdicts } from '../support/proxied-conformance.js';
import { startServer } from './stateful-harness.js';
import type { TargetFileInput } from '../../src/target/schema.js';

const CHECK = 'helpcenter.idempotency.revoked-no-replay';
const passThrough: ProxyHook = (_req, forward) => forward();
const noFixturesApi = (t: TargetFileInput): TargetFileInput => {
  const { api: _api, ...fixtures } = t.fixtures ?? {};
  return { ...t, fixtures };
};
const sharedStore = (t: TargetFileInput): TargetFileInput => ({
  ...noFixturesApi(t),
  assumptions: { ...t.assumptions, rules: { ...t.assumptions?.rules, idempotencyPerConnection: false } },
});

describe(CHECK, () => {
  const ref = proxiedReference(() => startServer(1));

  it('with the fixtures API: judged on the revoked updater, passed; its own replay and a key-alone store caught', async () => {
    const clean = await ref.run(passThrough, { checks: [CHECK], runs: 1 });
    expect(verdicts(clean)).toEqual({ [CHECK]: 'passed' });
    for (const fault of ['idempotency-revoked-own-replay', 'idempotency-before-auth'] as const) {
      const out = await ref.run(passThrough, { checks: [CHECK], runs: 1, faults: [fault] });
      expect([...new Set(out.findings.map((f) => f.clause))], fault).toEqual(['4.9.idempotency.revoked-no-replay']);
    }
  });

  it('ids only, a store per connection: inconclusive naming the fixtures route, even when the server replays its own revoked grant', async () => {
    const clean = await ref.run(passThrough, { checks: [CHECK], runs: 1, edit: noFixturesApi });
    expect(verdicts(clean)[CHECK]).toMatch(/^inconclusive: Idempotency-Keys are scoped to the connection/);
    expect(clean.checks[0]!.remedy).toMatch(/keys\/helpDelegated\/revoke/);
    const own = await ref.run(passThrough, { checks: [CHECK], runs: 1, edit: noFixturesApi, faults: ['idempotency-revoked-own-replay'] });
    expect(own.findings).toEqual([]);
    expect(verdicts(own)[CHECK]).toMatch(/^inconclusive/);
  });

  it('ids only, a key-alone store is still caught; a target that shares keys across connections is judged by the revoked key', async () => {
    const leaky = await ref.run(passThrough, { checks: [CHECK], runs: 1, edit: noFixturesApi, faults: ['idempotency-before-auth'] });
    expect([...new Set(leaky.findings.map((f) => f.clause))]).toEqual(['4.9.idempotency.revoked-no-replay']);
    const shared = await ref.run(passThrough, { checks: [CHECK], runs: 1, edit: sharedStore });
    expect(verdicts(shared)).toEqual({ [CHECK]: 'passed' });
  });
});
