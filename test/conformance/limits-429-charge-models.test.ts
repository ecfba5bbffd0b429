/**
 * limits.429 drove its write budget with 404s (a probe conversation that does not exist): a limiter that
 * charges only accepted requests (express-rate-limit's skipFailedRequests; dialect strict-inputs'
 * chargeOnlyAccepted) never charged them, and the check called that over-admission. The drives (limits.429
 * for writes, limits.429-read for reads, which was never driven) now send accepted requests, which every
 * charging model counts: both models pass, an over-admitting limiter fails under both, and a budget too big
 * for the drive's bound is inconclusive, naming the budget, the bound and the remedy.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type ConformanceOutcome } from '../../src/conformance/run.js';
import { runConformance } from '../support/conformance.js';
import { runChecks } from './support/fault-run.js';
import { startReferenceServer, type FaultName, type RunningReferenceServer } from '../../src/reference/index.js';
import { targetFromInput } from '../../src/target/resolve.js';
import type { TargetFileInput } from '../../src/target/schema.js';
import { verdicts } from '../support/proxied-conformance.js';

const CHECKS = ['limits.429', 'limits.429-read'];

describe.each(['default', 'strict-inputs'] as const)('dialect %s', (dialect) => {
  let server: RunningReferenceServer;
  beforeAll(async () => {
    server = await startReferenceServer({ seed: 3, dialect, budgets: { read: 30, write: 10, windowSeconds: 60 } });
  });
  afterAll(() => server.close());

  const run = (faults: FaultName[] = []): Promise<ConformanceOutcome> => runChecks(server, CHECKS, faults);

  it(`a 404 ${dialect === 'default' ? 'is' : 'is not'} charged (the charging model under test)`, async () => {
    const key = server.target.keys.secondConnection!.key;
    const get = (path: string) => fetch(`${server.baseUrl}${path}`, { headers: { authorization: `Bearer ${key}` } });
    await fetch(`${server.fixturesUrl}/ratelimit/reset`, { method: 'POST' });
    const a = Number((await get('/me')).headers.get('ratelimit-remaining'));
    expect((await get('/no-such-route')).status).toBe(404);
    const b = Number((await get('/me')).headers.get('ratelimit-remaining'));
    expect(a - b).toBe(dialect === 'default' ? 2 : 1);
  });

  it('both classes driven to a 429 pass', async () => {
    const out = await run();
    expect(out.findings).toEqual([]);
    expect(verdicts(out)).toEqual({ 'limits.429': 'passed', 'limits.429-read': 'passed' });
  });

  it('a limiter that admits budget + 5 fails in both classes', async () => {
    const out = await run(['ratelimit-over-admit']);
    expect(verdicts(out)).toEqual({ 'limits.429': 'failed', 'limits.429-read': 'failed' });
    expect(out.findings.map((f) => [f.checkId, f.clause])).toEqual([
      ['limits.429', '8.ratelimit.over-admission'],
      ['limits.429-read', '8.ratelimit.over-admission'],
    ]);
  });
});

describe('a budget too big for the drive', () => {
  it('is inconclusive, naming the class, its budget, the bound and what would let it judge', async () => {
    const server = await startReferenceServer({ seed: 3, budgets: { read: 5000, write: 100, windowSeconds: 60 } });
    try {
      const input = { ...(server.target as TargetFileInput), caps: { maxRequests: 50 } };
      const out = await runConformance({ target: targetFromInput(input, 'embedded'), checks: CHECKS, runs: 1, seed: 1 });
      expect(out.findings).toEqual([]);
      const [write, read] = out.checks;
      expect(write).toMatchObject({
        status: 'inconclusive',
        reason: 'the write budget (99 left after one request) is above the 50-request bound of this check',
        remedy: 'caps.maxRequests of at least 102, or keys.secondConnection: a key whose write budget is at most 48',
      });
      expect(read).toMatchObject({
        status: 'inconclusive',
        reason: 'the read budget (4999 left after one request) is above the 50-request bound of this check',
      });
      const uncapped = await runConformance({
        target: targetFromInput(server.target, 'embedded'),
        checks: ['limits.429-read'],
        runs: 1,
        seed: 1,
      });
      expect(uncapped.checks[0]).toMatchObject({
        status: 'inconclusive',
        reason: 'the read budget (4999 left after one request) is above the 1500-request bound of this check',
        remedy: 'keys.secondConnection: a key whose read budget is at most 1498 (the load profile read-budget judges bigger ones)',
      });
    } finally {
      await server.close();
    }
  });
});
