/**
 * assistant.cancel.completed judges "the turn unchanged" by reading the completed turn before and after the
 * refused cancel. A read that shows no turn (a 503, a 200 without the { data } envelope) cannot show that
 * nothing changed: two such reads compared equal and passed. Now the check is inconclusive naming the answer,
 * unless it already failed (the cancel not answered 409).
 */
import { describe, expect, it } from 'vitest';
import type { ConformanceOutcome } from '../../src/conformance/run.js';
import type { FaultName } from '../../src/reference/index.js';
import type { ProxiedAnswer, ProxyHook } from '../checks/rewriting-proxy.js';
import { proxiedReference, unavailable, verdict } from '../support/proxied-conformance.js';
import { startServer } from './stateful-harness.js';

const CHECK = 'assistant.cancel.completed';
const ref = proxiedReference(() => startServer(1));

const isTurnRead = (req: { method: string; path: string }): boolean => req.method === 'GET' && /\/turns\/[^/?]+(\?|$)/.test(req.path);

/** The first turn read answered with the bare turn (no data envelope), the later ones with `later`. */
function unreadTurn(later: (a: ProxiedAnswer) => ProxiedAnswer): ProxyHook {
  let reads = 0;
  return async (req, forward) => {
    const a = await forward();
    if (!isTurnRead(req) || a.status !== 200) return a;
    return reads++ === 0 ? { ...a, json: (a.json as { data?: unknown }).data } : later(a);
  };
}

const run = (hook: ProxyHook, faults: FaultName[] = []): Promise<ConformanceOutcome> => ref.run(hook, { checks: [CHECK], runs: 2, faults });

describe('assistant.cancel.completed over turn reads that show no turn', () => {
  it('passes through a faithful proxy', async () => {
    const out = await run((_req, forward) => forward());
    expect(out.findings).toEqual([]);
    expect(verdict(out)).toBe('passed');
  });

  it('is inconclusive, naming the answer, when the read before shows no turn and the read after answers 503', async () => {
    const out = await run(unreadTurn(() => unavailable()));
    expect(out.findings).toEqual([]);
    expect(verdict(out)).toMatch(
      /^inconclusive: whether the completed turn changed is unknown: a read of it answered HTTP 200 .*no turn under data/,
    );
  });

  it('is inconclusive when the read after shows a changed turn but neither read shows it under data', async () => {
    // The bare turn after the cancel says "cancelled": compared as "no turn" to "no turn", it passed.
    const out = await run(unreadTurn((a) => ({ ...a, json: { ...(a.json as { data: object }).data, status: 'cancelled' } })));
    expect(verdict(out)).toMatch(/^inconclusive: whether the completed turn changed is unknown/);
  });

  it('still fails on the cancel answered 200, whatever the reads showed', async () => {
    const out = await run(
      unreadTurn(() => unavailable()),
      ['cancel-completed-200'],
    );
    expect(out.checks[0]!.status).toBe('failed');
    expect(out.findings.map((f) => f.expected)).toEqual(['HTTP 409']);
  });
});
