/** The runner over a fake client: 429 handling, skips, severities, abort, property shrinking, suite names. */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { runConformance } from '../support/conformance.js';
import { nextWaitSeconds, RETRY_POLICY } from '../../src/conformance/context.js';
import { runProperty } from '../../src/conformance/property.js';
import { defineSuite, type CheckDef } from '../../src/conformance/suite.js';
import { SpgateError } from '../../src/errors.js';
import { fakeClient, suite, target } from './support/fake-client.js';

const probe: CheckDef = {
  id: 's.probe',
  clause: '4.10.me',
  title: 'probe',
  async run(ctx) {
    const x = await ctx.send({ method: 'GET', path: '/me' });
    return x.response?.status === 200
      ? { status: 'passed', cases: 1 }
      : { status: 'failed', cases: 1, failures: [{ expected: '200', actual: String(x.response?.status), exchanges: [x] }] };
  },
};

describe('runConformance', () => {
  it('waits out a 429 with Retry-After and retries; no finding', async () => {
    const client = fakeClient((_s, n) =>
      n === 2
        ? {
            status: 429,
            headers: { 'retry-after': '0' },
            json: { error: { code: 'rate_limit.exceeded', message: 'm', requestId: 'req_1' } },
          }
        : { status: 200, json: {} },
    );
    const out = await runConformance({ target: target(), runs: 1, seed: 1, client, catalogue: suite([probe]) });
    expect(out.findings).toEqual([]);
    expect(out.checks[0]!.status).toBe('passed');
    expect(client.sent.length).toBe(3); // preflight, 429, retry
  });

  it('reports a 429 without Retry-After under 8.ratelimit.retry-after, with a curl reproduction', async () => {
    const client = fakeClient((_s, n) => (n === 2 ? { status: 429, json: {} } : { status: 200, json: {} }));
    const out = await runConformance({ target: target(), runs: 1, seed: 1, client, catalogue: suite([probe]) });
    expect(out.findings.map((f) => f.clause)).toEqual(['8.ratelimit.retry-after']);
    expect(out.findings[0]!.reproduction?.curl.join('\n')).toContain('"Authorization: Bearer $SPGATE_API_KEY"');
    expect(out.exchanges.map((x) => x.id)).toEqual(out.findings[0]!.exchangeIds);
  });

  // Regression: a 429 met during conformance (a shared staging budget) was retried three times within 10 s
  // and then judged as the check's answer ("expected 200, got 429").
  const refusal = (n: number, retryAfter?: string) => ({
    status: 429,
    headers: { 'x-request-id': `req_${n}`, ...(retryAfter !== undefined ? { 'retry-after': retryAfter } : {}) },
    json: { error: { code: 'rate_limit.exceeded', message: 'm', requestId: `req_${n}` } },
  });

  it('waits out several 429s within the bound and judges the answer that follows', async () => {
    const client = fakeClient((_s, n) => (n >= 2 && n <= 6 ? refusal(n, '0') : { status: 200, json: {} }));
    const out = await runConformance({ target: target(), runs: 1, seed: 1, client, catalogue: suite([probe]) });
    expect(out.checks.map((c) => c.status)).toEqual(['passed']);
    expect(out.findings).toEqual([]);
    expect(client.sent.length).toBe(7); // preflight, five 429s, the admitted retry
  });

  it('skips a check that got nothing but 429 as rate limited, with request ids and Retry-After, never failed', async () => {
    const client = fakeClient((_s, n) => (n === 1 ? { status: 200, json: {} } : refusal(n, '0')));
    const out = await runConformance({ target: target(), runs: 1, seed: 1, client, catalogue: suite([probe]) });
    const c = out.checks[0]!;
    expect(c.status).toBe('inconclusive');
    expect(c.reason).toMatch(/^rate limited: GET \/me answered HTTP 429 to all 20 attempts/);
    expect(c.reason).toContain('Retry-After 0, 0, 0');
    expect(c.reason).toContain('request ids req_2, req_3');
    expect(client.sent.length).toBe(1 + RETRY_POLICY.maxAttempts);
    // The check's own clause is never judged on a 429; Retry-After waited out in full and still refused is.
    expect(out.findings.map((f) => f.clause)).toEqual(['8.ratelimit.retry-after-honoured']);
  });

  it('an auth check answered only 429 is skipped, not "expected 401, got 429"', async () => {
    const auth: CheckDef = {
      id: 's.auth',
      clause: '5.auth.missing',
      title: 'auth',
      async run(ctx) {
        const x = await ctx.send({ method: 'GET', path: '/customers', role: null });
        return x.response?.status === 401
          ? { status: 'passed', cases: 1 }
          : { status: 'failed', cases: 1, failures: [{ expected: '401', actual: String(x.response?.status), exchanges: [x] }] };
      },
    };
    const client = fakeClient((_s, n) => (n === 1 ? { status: 200, json: {} } : refusal(n, '30')));
    const out = await runConformance({
      target: target({ assumptions: { rateLimitWaitSeconds: 5 } }),
      runs: 1,
      seed: 1,
      client,
      catalogue: suite([auth]),
    });
    expect(out.checks.map((c) => c.status)).toEqual(['inconclusive']);
    expect(out.checks[0]!.reason).toContain('bound 5 s');
    expect(out.findings.filter((f) => f.clause === '5.auth.missing')).toEqual([]);
    expect(client.sent.length).toBe(2); // Retry-After 30 is beyond the 5 s bound: no pointless wait
  });

  it('keeps the missing-Retry-After finding when a check is skipped as rate limited', async () => {
    const client = fakeClient((_s, n) => (n === 1 ? { status: 200, json: {} } : refusal(n)));
    const out = await runConformance({
      target: target({ assumptions: { rateLimitWaitSeconds: 0 } }),
      runs: 1,
      seed: 1,
      client,
      catalogue: suite([probe]),
    });
    expect(out.checks.map((c) => c.status)).toEqual(['inconclusive']);
    expect(out.checks[0]!.reason).toContain('Retry-After (absent)');
    expect(out.findings.map((f) => f.clause)).toEqual(['8.ratelimit.retry-after']);
  });

  it('a 429 inside a property case skips the check too', async () => {
    const check: CheckDef = {
      ...probe,
      id: 's.prop429',
      run: (ctx) =>
        runProperty(
          ctx,
          fc.integer({ min: 0, max: 10 }),
          async (n, rec) => {
            const x = await rec.send({ method: 'GET', path: '/me', query: { n } });
            rec.require(x.response?.status === 200, '200', () => `${x.response?.status}`);
          },
          { maxRuns: 5 },
        ),
    };
    const client = fakeClient((_s, n) => (n === 1 ? { status: 200, json: {} } : refusal(n, '9')));
    const out = await runConformance({
      target: target({ assumptions: { rateLimitWaitSeconds: 1 } }),
      runs: 5,
      seed: 1,
      client,
      catalogue: suite([check]),
    });
    expect(out.checks.map((c) => c.status)).toEqual(['inconclusive']);
    expect(out.findings).toEqual([]);
  });

  it('the wait policy honours Retry-After, doubles without it, and stops at the bound or the attempt cap', () => {
    const ra = (value: number) => ({ ok: true as const, value, raw: String(value) });
    const none = { ok: false as const, problem: 'missing' as const };
    expect(nextWaitSeconds(ra(3), 0, 0, 60)).toBe(3);
    expect(nextWaitSeconds(ra(3), 5, 57, 60)).toBe(3);
    expect(nextWaitSeconds(ra(3), 5, 58, 60)).toBeUndefined();
    expect(nextWaitSeconds(ra(120), 0, 0, 60)).toBeUndefined();
    expect([0, 1, 2, 3].map((a) => nextWaitSeconds(none, a, 0, 60))).toEqual([1, 2, 4, 8]);
    expect(nextWaitSeconds(ra(0), RETRY_POLICY.maxAttempts - 1, 0, 60)).toBeUndefined();
  });

  it('skips checks whose roles, fixtures or writes the target lacks, with the reason', async () => {
    const needs = (id: string, n: CheckDef['needs']): CheckDef => ({ ...probe, id, needs: n });
    const out = await runConformance({
      target: target(),
      runs: 1,
      seed: 1,
      client: fakeClient(() => ({ status: 200, json: {} })),
      catalogue: suite([needs('a', { roles: ['member'] }), needs('b', { fixtures: true }), needs('c', { writes: true })]),
    });
    expect(out.checks.map((c) => [c.status, c.reason])).toEqual([
      ['skipped', 'the target has no key for role member'],
      ['skipped', 'needs a fixtures API (target fixtures.api) to create data'],
      ['skipped', 'changes data, and the target does not set allowWrites'],
    ]);
  });

  it('makes failures of assumed clauses warnings unless the target is strict', async () => {
    const assumed: CheckDef = { ...probe, id: 's.assumed', clause: '4.4.limit.out-of-range' };
    const client = fakeClient((_s, n) => ({ status: n === 1 ? 200 : 400, json: {} }));
    const lax = await runConformance({ target: target(), runs: 1, seed: 1, client, catalogue: suite([assumed]) });
    expect([lax.checks[0]!.status, lax.findings[0]!.severity]).toEqual(['warned', 'warning']);
    const strict = await runConformance({
      target: target({ assumptions: { strict: true } }),
      runs: 1,
      seed: 1,
      client,
      catalogue: suite([assumed]),
    });
    expect([strict.checks[0]!.status, strict.findings[0]!.severity]).toEqual(['failed', 'error']);
  });

  it('stops at once when aborted and returns partial results', async () => {
    const ac = new AbortController();
    const slow: CheckDef = {
      ...probe,
      id: 's.slow',
      async run(ctx) {
        for (let i = 0; i < 1000; i++) {
          if (i === 3) ac.abort();
          await ctx.send({ method: 'GET', path: '/me' });
        }
        return { status: 'passed', cases: 1 };
      },
    };
    const client = fakeClient(() => ({ status: 200, json: {} }));
    const out = await runConformance({ target: target(), runs: 1, seed: 1, client, signal: ac.signal, catalogue: suite([slow, probe]) });
    expect(out.aborted).toBe(true);
    expect(client.sent.length).toBeLessThan(10);
    expect(out.checks.map((c) => c.status)).toEqual(['skipped']);
  });

  it('rejects unknown suite names, listing the valid ones', async () => {
    const run = runConformance({
      target: target(),
      runs: 1,
      seed: 1,
      suites: ['nope'],
      client: fakeClient(() => ({ status: 200 })),
      catalogue: suite([probe]),
    });
    await expect(run).rejects.toThrow(SpgateError);
    await expect(run).rejects.toThrow(/valid suites: s/);
  });

  it('runs only the checks named in `checks`, within the selected suites', async () => {
    const other: CheckDef = { ...probe, id: 's.other' };
    const catalogue = [...suite([probe, other]), defineSuite({ name: 't', description: 'test', checks: [{ ...probe, id: 't.probe' }] })];
    const out = await runConformance({
      target: target(),
      runs: 1,
      seed: 1,
      checks: ['s.other'],
      client: fakeClient(() => ({ status: 200, json: {} })),
      catalogue,
    });
    expect(out.checks.map((c) => c.checkId)).toEqual(['s.other']);
    const none = await runConformance({
      target: target(),
      runs: 1,
      seed: 1,
      suites: ['t'],
      checks: ['s.other'],
      client: fakeClient(() => ({ status: 200, json: {} })),
      catalogue,
    });
    expect(none.checks).toEqual([]);
  });

  it('rejects unknown check ids', async () => {
    const run = runConformance({
      target: target(),
      runs: 1,
      seed: 1,
      checks: ['s.nope'],
      client: fakeClient(() => ({ status: 200 })),
      catalogue: suite([probe]),
    });
    await expect(run).rejects.toThrow(/SPGATE_ERR_CHECK_UNKNOWN|unknown check "s.nope"/);
  });
});

describe('runProperty', () => {
  it('shrinks to the smallest failing case, re-runs it and keeps its exchanges, seed and path', async () => {
    const client = fakeClient((spec) => ({ status: Number(spec.query?.n) >= 10 ? 500 : 200, json: {} }));
    const check: CheckDef = {
      ...probe,
      id: 's.prop',
      run: (ctx) =>
        runProperty(
          ctx,
          fc.integer({ min: 0, max: 1000 }),
          async (n, rec) => {
            const x = await rec.send({ method: 'GET', path: '/me', query: { n } });
            rec.require(x.response?.status === 200, '200', () => `${x.response?.status}`);
          },
          { maxRuns: 50 },
        ),
    };
    const out = await runConformance({ target: target(), runs: 50, seed: 4, client, catalogue: suite([check]) });
    const f = out.findings[0]!;
    expect(f.actual).toContain('input 10');
    expect(f.reproduction?.path).toMatch(/^\d+(:\d+)*$/);
    expect(f.reproduction?.seed).toBe(4);
    expect(out.exchanges[0]!.request.url).toContain('n=10');
  });
});
