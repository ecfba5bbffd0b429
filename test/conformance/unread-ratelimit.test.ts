/**
 * limits.remaining-decreases compares RateLimit-Remaining (and -Reset) across a short sequence of GET /me.
 * Answers without readable headers (a 503 from a gateway, a transport error) are left out of the
 * comparison, and with fewer than two left nothing was compared: the check passed. Now it is inconclusive naming
 * such an answer, and the Reset half likewise, unless the check already failed.
 */
import { describe, expect, it } from 'vitest';
import { startReferenceServer, type FaultName } from '../../src/reference/index.js';
import type { ConformanceOutcome } from '../../src/conformance/run.js';
import type { ProxyHook } from '../checks/rewriting-proxy.js';
import { proxiedReference, unavailable, verdict } from '../support/proxied-conformance.js';

const CHECK = 'limits.remaining-decreases';
// A 4 s window: the clean run waits out RateLimit-Reset (at most the window) to see the budget back, and a
// sequence of five requests ends well inside one window (a 2 s window's last second judges nothing).
const ref = proxiedReference(() => startReferenceServer({ seed: 2, budgets: { read: 1_000, write: 1_000, windowSeconds: 4 } }));

/** A gateway's 503: no RateLimit-* headers. */
const isMe = (req: { method: string; path: string }): boolean => req.method === 'GET' && /^\/me(\?|$)/.test(req.path);

/**
 * The server's windows are aligned to the clock: a first sequence that met a window's end is sent again
 * (limits.remaining-decreases: a refill may have hidden the fall), which moves which GET /me is the pair's
 * second (red when a run started in a window's last half-second). Each run starts with 2.5 s of window left.
 */
async function run(hook: ProxyHook, faults: FaultName[] = []): Promise<ConformanceOutcome> {
  const left = 4000 - (Date.now() % 4000);
  if (left < 2500) await new Promise((r) => setTimeout(r, left + 50));
  return ref.run(hook, { checks: [CHECK], runs: 2, faults });
}

describe('limits.remaining-decreases over answers without RateLimit headers', () => {
  it('passes through a faithful proxy, and fails a Remaining that never falls', async () => {
    const clean = await run((_req, forward) => forward());
    expect(clean.findings).toEqual([]);
    expect(verdict(clean)).toBe('passed');
    const stuck = await run((_req, forward) => forward(), ['ratelimit-remaining-stuck']);
    expect(stuck.checks[0]!.status).toBe('failed');
  });

  it('is inconclusive, naming the answer, when GET /me answers a 503 without the headers (Remaining never falling unseen)', async () => {
    const out = await run(async (req, forward) => (isMe(req) ? unavailable() : forward()), ['ratelimit-remaining-stuck']);
    expect(out.findings).toEqual([]);
    expect(verdict(out)).toMatch(
      /^inconclusive: RateLimit-Remaining and RateLimit-Reset were readable on 0 of 5 answers to GET \/me \(first without: HTTP 503/,
    );
  });

  it('judges Remaining and skips the Reset half when only the last answer lacks the headers', async () => {
    let n = 0;
    const out = await run(async (req, forward) => (isMe(req) && ++n === 6 ? unavailable() : forward()));
    expect(out.findings).toEqual([]);
    expect(verdict(out)).toMatch(/^inconclusive: RateLimit-Reset was not readable on both answers .*HTTP 503/);
    n = 0;
    const stuck = await run(async (req, forward) => (isMe(req) && ++n === 6 ? unavailable() : forward()), ['ratelimit-remaining-stuck']);
    expect(stuck.checks[0]!.status).toBe('failed');
  });
});
