/**
 * Part 8's "RateLimit-Limit (budget of the route class)" and "read and write, each with its own budget"
 * were judged by load runs only. limits.limit-constant (one Limit per class and key) and
 * limits.classes-isolated (spending writes leaves the read Remaining alone, and the reverse) judge them in a
 * conformance run: they pass on every limiter model (fixed window, sliding log, token bucket) and on a
 * limiter that charges only accepted requests, and fail a Limit that drifts and a budget both classes share.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ConformanceOutcome } from '../../src/conformance/run.js';
import { runChecks } from './support/fault-run.js';
import { startReferenceServer, type FaultName, type RunningReferenceServer } from '../../src/reference/index.js';
import type { ProxyHook } from '../checks/rewriting-proxy.js';
import { proxiedReference, verdicts } from '../support/proxied-conformance.js';

const CHECKS = ['limits.limit-constant', 'limits.classes-isolated'];

describe.each(['default', 'sliding-window', 'token-bucket', 'strict-inputs'] as const)('dialect %s', (dialect) => {
  let server: RunningReferenceServer;
  beforeAll(async () => {
    // A window long enough that no fixed window rolls over between the two reads of a Remaining.
    server = await startReferenceServer({ seed: 3, dialect, budgets: { read: 200, write: 50, windowSeconds: 60 } });
  });
  afterAll(() => server.close());

  const run = (faults: FaultName[] = []): Promise<ConformanceOutcome> =>
    runChecks(server, CHECKS, faults, async () => void (await fetch(`${server.fixturesUrl}/ratelimit/reset`, { method: 'POST' })));

  it('passes both', async () => {
    const out = await run();
    expect(out.findings).toEqual([]);
    expect(verdicts(out)).toEqual({ 'limits.limit-constant': 'passed', 'limits.classes-isolated': 'passed' });
  });

  it('fails a RateLimit-Limit that announces what is left', async () => {
    const out = await run(['ratelimit-limit-drifts']);
    expect(out.findings.map((f) => [f.checkId, f.clause])).toContainEqual(['limits.limit-constant', '8.ratelimit.limit-constant']);
  });

  it('fails one budget shared by both classes, in both directions', async () => {
    const out = await run(['ratelimit-shared-classes']);
    const mine = out.findings.filter((f) => f.checkId === 'limits.classes-isolated');
    expect(mine.map((f) => f.actual)).toEqual([
      expect.stringMatching(/^read Remaining \d+ then \d+: fell by \d+, as if the writes were charged to the read budget$/),
      expect.stringMatching(/^write Remaining \d+ then \d+: fell by \d+, as if the reads were charged to the write budget$/),
    ]);
  });
});

describe('without a readable RateLimit-Limit or Remaining', () => {
  const ref = proxiedReference(() => startReferenceServer({ seed: 3 }));
  /** A gateway that drops a header from every answer. */
  const dropping =
    (name: string): ProxyHook =>
    async (_req, forward) => {
      const a = await forward();
      const { [name]: _dropped, ...headers } = a.headers;
      return { ...a, headers };
    };

  it('limit-constant is inconclusive: no Limit to compare (limits.headers reports the missing header)', async () => {
    const out = await ref.run(dropping('ratelimit-limit'), { checks: ['limits.limit-constant'], runs: 1 });
    expect(verdicts(out)).toEqual({
      'limits.limit-constant': 'inconclusive: no key and route class had two answers with a readable RateLimit-Limit to compare',
    });
  });

  it('classes-isolated is inconclusive: no Remaining shows what was charged', async () => {
    const out = await ref.run(dropping('ratelimit-remaining'), { checks: ['limits.classes-isolated'], runs: 1 });
    expect(out.findings).toEqual([]);
    expect(verdicts(out)['limits.classes-isolated']).toMatch(
      /^inconclusive: an answer was not accepted with a readable RateLimit-Remaining \(HTTP 200/,
    );
  });

  // Replicas that each count their own share: back-to-back reads of one class land on different counters,
  // so a fall of the other class's Remaining says nothing about where the spent requests were charged.
  it('classes-isolated is inconclusive where Remaining moves on its own (replicas counting apart), not failed', async () => {
    let n = 0;
    const replicas: ProxyHook = async (req, forward) => {
      const a = await forward();
      if (req.method !== 'GET') return a;
      const shift = n++ % 2 === 0 ? 0 : 7;
      return {
        ...a,
        headers: { ...a.headers, 'ratelimit-remaining': String(Math.max(0, Number(a.headers['ratelimit-remaining']) - shift)) },
      };
    };
    const out = await ref.run(replicas, { checks: ['limits.classes-isolated'], runs: 1 });
    expect(out.findings).toEqual([]);
    expect(verdicts(out)['limits.classes-isolated']).toMatch(
      /^inconclusive: the read class's RateLimit-Remaining moved by -?\d+ between two back-to-back requests/,
    );
  });
});

describe('a window that turns while classes-isolated spends', () => {
  // Windows of ten minutes: no real window turns during a run, only the ones the proxy makes.
  // Budgets that the block's five runs (a dozen writes each) do not exhaust.
  const turned = proxiedReference(() => startReferenceServer({ seed: 3, budgets: { read: 200, write: 200, windowSeconds: 600 } }));
  /** Requests the proxy has seen in the current run: writes, and the spent reads it rewrote. */
  const writes = { n: 0, reads: 0 };
  /**
   * The spent reads of classes-isolated's second half (after the first half's 6 spent writes and the second
   * half's 2 write probes) answer a constant Remaining, as when a window turns while they are spent: for
   * the first `rounds` × 6 of them.
   */
  const turning =
    (rounds: number): ProxyHook =>
    async (req, forward) => {
      const a = await forward();
      if (req.method !== 'GET') {
        writes.n++;
        return a;
      }
      if (writes.n < 8 || writes.reads >= 6 * rounds) return a;
      writes.reads++;
      return { ...a, headers: { ...a.headers, 'ratelimit-remaining': '96' } };
    };

  it('classes-isolated measures once more when a window turned while it spent, and judges (passed)', async () => {
    Object.assign(writes, { n: 0, reads: 0 });
    const out = await turned.run(turning(1), { checks: ['limits.classes-isolated'], runs: 1 });
    expect(writes.reads).toBe(6);
    expect(out.findings).toEqual([]);
    expect(verdicts(out)).toEqual({ 'limits.classes-isolated': 'passed' });
  });

  /**
   * The reads of /me numbered in `low` (from 1) answer Remaining 3, as if a window turned right after each:
   * the next read rises. Read 1 is the run's preflight; a round of the check's first half then reads twice,
   * spends six writes and reads once, so reads 2 and 5 are each round's first read.
   */
  const lowOnReads =
    (low: number[], seen: { reads: number }): ProxyHook =>
    async (req, forward) => {
      const a = await forward();
      if (req.method !== 'GET' || !req.path.startsWith('/me')) return a;
      seen.reads++;
      return low.includes(seen.reads) ? { ...a, headers: { ...a.headers, 'ratelimit-remaining': '3' } } : a;
    };

  it('classes-isolated measures once more when a window turned between its two first reads (a rise), and judges', async () => {
    const seen = { reads: 0 };
    const out = await turned.run(lowOnReads([2], seen), { checks: ['limits.classes-isolated'], runs: 1 });
    // The preflight, two rounds of the first half (3 reads each), one of the second (6 spent reads).
    expect(seen.reads).toBe(13);
    expect(out.findings).toEqual([]);
    expect(verdicts(out)).toEqual({ 'limits.classes-isolated': 'passed' });
  });

  it('classes-isolated is inconclusive when the other class rose between its two first reads in both rounds', async () => {
    const out = await turned.run(lowOnReads([2, 5], { reads: 0 }), { checks: ['limits.classes-isolated'], runs: 1 });
    expect(out.findings).toEqual([]);
    expect(verdicts(out)['limits.classes-isolated']).toMatch(
      /^inconclusive: the read class's RateLimit-Remaining moved by \d+ between two back-to-back requests \(3 then \d+\)/,
    );
  });

  it('classes-isolated is inconclusive when the spent requests lower their Remaining in neither round', async () => {
    Object.assign(writes, { n: 0, reads: 0 });
    const out = await turned.run(turning(2), { checks: ['limits.classes-isolated'], runs: 1 });
    expect(writes.reads).toBe(12);
    expect(out.findings).toEqual([]);
    expect(verdicts(out)['limits.classes-isolated']).toMatch(
      /^inconclusive: 6 accepted reads did not lower their own class's RateLimit-Remaining \(96 then 96\), twice/,
    );
  });
});
