/**
 * assistant.receipt.shape judges the action receipts of a completed turn. A completed turn that carries none
 * (part 2: actionConfirmations is not required) shows no receipt to judge: inconclusive with the remedy,
 * never passed; a malformed receipt still fails.
 */
import { describe, expect, it } from 'vitest';
import { startReferenceServer } from '../../src/reference/index.js';
import type { ProxiedAnswer, ProxyHook } from '../checks/rewriting-proxy.js';
import { proxiedReference, verdicts } from '../support/proxied-conformance.js';

const CHECK = 'assistant.receipt.shape';
const ref = proxiedReference(() => startReferenceServer({ seed: 8 }));

/** Rewrites the `data` of turn reads. */
const turns =
  (f: (turn: Record<string, unknown>) => Record<string, unknown>): ProxyHook =>
  async (req, forward) => {
    const a: ProxiedAnswer = await forward();
    const data = (a.json as { data?: Record<string, unknown> } | undefined)?.data;
    return req.method === 'GET' && /\/turns\/[^/]+$/.test(req.path) && data ? { ...a, json: { data: f(data) } } : a;
  };

describe(`${CHECK} on a completed turn without receipts`, () => {
  it('passes through a faithful proxy', async () => {
    expect(verdicts(await ref.run((_r, f) => f(), { checks: [CHECK], runs: 1 }))).toEqual({ [CHECK]: 'passed' });
  });

  it('is inconclusive with the remedy when the turn carries no actionConfirmations', async () => {
    const out = await ref.run(
      turns(({ actionConfirmations: _, ...rest }) => rest),
      { checks: [CHECK], runs: 1 },
    );
    expect(out.findings).toEqual([]);
    expect(verdicts(out)[CHECK]).toBe('inconclusive: the completed turn carries no action receipts');
    expect(out.checks[0]!.remedy).toMatch(/fixtures\.ids\.completedTurn/);
  });

  it('fails a receipt without its required fields', async () => {
    const out = await ref.run(
      turns((t) => ({ ...t, actionConfirmations: [{ id: 'rcp_1' }] })),
      { checks: [CHECK], runs: 1 },
    );
    expect(out.findings.map((f) => f.checkId)).toEqual([CHECK]);
  });
});
