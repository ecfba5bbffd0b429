/**
 * limits.remaining-decreases with RateLimit-Reset always 1 (a 1 s window): every sequence of 5 may have met a
 * refill, so a Remaining that did not fall judged nothing — inconclusive, never passed. A Remaining that fell
 * from one answer to the next is judged either way, and passes, even where the sequence ends above its start.
 */
import { describe, expect, it } from 'vitest';
import { startReferenceServer } from '../../src/reference/index.js';
import type { ProxyHook } from '../checks/rewriting-proxy.js';
import { proxiedReference, verdicts } from '../support/proxied-conformance.js';

const CHECK = 'limits.remaining-decreases';

/** Remaining stuck at the full budget less one on every answer. */
const stuck: ProxyHook = async (_req, forward) => {
  const a = await forward();
  const limit = a.headers['ratelimit-limit'];
  return limit === undefined ? a : { ...a, headers: { ...a.headers, 'ratelimit-remaining': String(Number(limit) - 1) } };
};
const passThrough: ProxyHook = (_req, forward) => forward();

/**
 * Each sequence of 5 as if it met a window's end after its second answer: the first two answers 4 lower, so
 * Remaining falls, rises past the refill and ends where it began (the first 10 answers to GET /me; the
 * check's later requests pass through).
 */
function refilledMidSequence(): ProxyHook {
  let n = 0;
  return async (req, forward) => {
    const a = await forward();
    if (req.method !== 'GET' || req.path !== '/me') return a;
    n += 1;
    const r = Number(a.headers['ratelimit-remaining']);
    return n <= 10 && n % 5 >= 1 && n % 5 <= 2 && Number.isFinite(r)
      ? { ...a, headers: { ...a.headers, 'ratelimit-remaining': String(r - 4) } }
      : a;
  };
}

describe('limits.remaining-decreases, a 1 s fixed window (Reset always 1)', () => {
  const ref = proxiedReference(() => startReferenceServer({ seed: 6, budgets: { read: 1000, write: 1000, windowSeconds: 1 } }));

  it('a Remaining that never falls: inconclusive, naming the refill, not passed', async () => {
    const out = await ref.run(stuck, { checks: [CHECK], runs: 1 });
    expect(out.findings).toEqual([]);
    expect(verdicts(out)[CHECK]).toMatch(/^inconclusive: RateLimit-Remaining did not fall over either sequence of 5/);
  });

  it('a Remaining that falls, and rises again at a refill within each sequence: passed (judged)', async () => {
    const out = await ref.run(refilledMidSequence(), { checks: [CHECK], runs: 1 });
    expect(out.findings).toEqual([]);
    expect(verdicts(out)).toEqual({ [CHECK]: 'passed' });
  });

  it('a Remaining that falls: passed (judged)', async () => {
    const out = await ref.run(passThrough, { checks: [CHECK], runs: 1 });
    expect(out.findings).toEqual([]);
    expect(verdicts(out)).toEqual({ [CHECK]: 'passed' });
  });
});
