/**
 * Idempotent replays judged by what the spec says — a retry is safe (no second effect), a changed body
 * under a used key is 409 — not by the IETF draft's SHOULD of a byte-identical replay:
 * - the strict-inputs dialect (its replayCurrent answers a replay with the resource as it stands, no
 *   second write) passes every replay check, through an ids-only target;
 * - a replay re-rendered with other bytes (same conversation, same updatedAt) is a warning of
 *   idempotency.replay.same-response only, never an error;
 * - a retry that writes again (idempotency-double-effect) still fails: see idempotency.test.ts and
 *   every-check.test.ts.
 */
import { describe, expect, it } from 'vitest';
import { runConformance } from '../support/conformance.js';
import { startReferenceServer } from '../../src/reference/index.js';
import { targetFromInput } from '../../src/target/resolve.js';
import { proxiedReference, verdicts } from '../support/proxied-conformance.js';

const BUDGETS = { read: 1_000_000, write: 1_000_000, windowSeconds: 60 };
const REPLAY_CHECKS = [
  'idempotency.assign.replay',
  'idempotency.resolve.replay',
  'idempotency.model',
  'idempotency.concurrent.assign',
  'idempotency.per-connection',
  'idempotency.concurrent.collection',
  'helpcenter.idempotency.replay',
];

describe('dialect strict-inputs (replay answers the resource as it stands)', () => {
  it('passes every replay check with no finding, through an ids-only target', async () => {
    const server = await startReferenceServer({ seed: 3, dialect: 'strict-inputs', fixturesApi: false, budgets: BUDGETS });
    try {
      const input = server.describe({});
      const out = await runConformance({
        target: targetFromInput(input, 'strict-inputs.target.json'),
        checks: REPLAY_CHECKS,
        runs: 4,
        seed: 3,
      });
      expect(out.findings.map((f) => `${f.checkId} ${f.clause}: ${f.actual}`)).toEqual([]);
      expect(verdicts(out)).toEqual(Object.fromEntries(REPLAY_CHECKS.map((id) => [id, 'passed'])));
    } finally {
      await server.close();
    }
  });
});

describe('a replay re-rendered with other bytes', () => {
  const ref = proxiedReference(() => startReferenceServer({ seed: 1, budgets: BUDGETS }));

  it('is a warning of idempotency.replay.same-response, not an error', async () => {
    const seen = new Set<string>();
    const out = await ref.run(
      async (req, forward) => {
        const a = await forward();
        const key = req.headers['idempotency-key'];
        if (key === undefined || a.status !== 200) return a;
        const again = seen.has(`${req.headers.authorization} ${key}`);
        seen.add(`${req.headers.authorization} ${key}`);
        // The same conversation and updatedAt, re-rendered with a field the first answer did not have.
        return again ? { ...a, json: { ...(a.json as object), replayedAt: '2026-01-01T00:00:00Z' } } : a;
      },
      { checks: ['idempotency.assign.replay', 'idempotency.resolve.replay'], runs: 1 },
    );
    expect(verdicts(out)).toEqual({ 'idempotency.assign.replay': 'warned', 'idempotency.resolve.replay': 'warned' });
    expect(out.findings.map((f) => `${f.clause} ${f.severity}`)).toEqual([
      'idempotency.replay.same-response warning',
      'idempotency.replay.same-response warning',
    ]);
  });
});
