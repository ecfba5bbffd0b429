/**
 * The per-response verifier caches the header checks' verdict by what they read; for any mix of header
 * values (plain, padded, zero-led, negative, above the limit, garbage, absent) its findings equal running
 * the checks on every response. Guards the cache key against merging two responses the checks tell apart.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { checkResponseHeaders } from '../../src/checks/response-headers.js';
import { planProfile } from '../../src/load/plan.js';
import { parseProfile } from '../../src/load/profile.js';
import type { SampleInput } from '../../src/load/samples.js';
import { ResponseVerifier } from '../../src/load/verify.js';
import { targetFromInput } from '../../src/target/resolve.js';

const target = targetFromInput(
  {
    baseUrl: 'http://127.0.0.1:9/v1',
    keys: { admin: { key: 'pk_test_verify_0123456789' } },
    assumptions: { rateLimit: { read: { limit: 50, windowSeconds: 5 } } },
  },
  'test',
);
const plan = planProfile(
  parseProfile(
    { name: 'v', description: 'd', model: 'closed', duration: 1, classes: { read: { connections: 1, routes: [{ route: 'me' }] } } },
    'test',
  ),
  target,
);
const route = plan.routes[0]!;

const value = fc.option(
  fc.constantFrom(
    '0',
    '5',
    '49',
    '50',
    '51',
    '6',
    '9',
    '05',
    ' 5',
    '-1',
    'abc',
    '#',
    'k',
    'a',
    'r1:5',
    '5|r1',
    '\u0001',
    '',
    '1.5',
    '5, 5',
    '999999999',
    '1234567890',
  ),
  { nil: undefined },
);
// A small space of plain values (so responses the cache must tell apart meet often) beside odd ones.
const plain = fc.constantFrom('0', '5', '6', '50', '51');
const sample = fc.record({
  status: fc.constantFrom(200, 429),
  limit: fc.oneof(plain, value),
  remaining: fc.oneof(plain, value),
  reset: fc.oneof(plain, value),
  retryAfter: fc.oneof(plain, value),
  requestId: fc.constantFrom('req_1', 'req_1', '', undefined),
});

/** The expected findings: every response checked on its own, grouped the way the verifier groups. */
function direct(samples: SampleInput[]): Map<string, number> {
  const counts = new Map<string, number>();
  for (const s of samples) {
    const headers: Record<string, string> = {};
    for (const [k, v] of [
      ['ratelimit-limit', s.limit],
      ['ratelimit-remaining', s.remaining],
      ['ratelimit-reset', s.reset],
      ['retry-after', s.retryAfter],
      ['x-request-id', s.requestId],
    ] as const)
      if (v !== undefined) headers[k] = v;
    const vs = checkResponseHeaders(
      {
        id: 'x',
        request: { method: 'GET', url: '/me', headers: {}, bodyBytes: 0 },
        response: { status: s.status, headers, body: '', bodyBytes: 0 },
        timings: { start: 0, total: 1 },
      },
      { windowSeconds: 5 },
    );
    for (const v of vs) counts.set(`${v.clause}|${v.actual}`, (counts.get(`${v.clause}|${v.actual}`) ?? 0) + 1);
  }
  return counts;
}

describe('cached header verdicts', () => {
  it('equal checking every response on its own', () => {
    fc.assert(
      fc.property(fc.array(sample, { minLength: 1, maxLength: 60 }), (raw) => {
        const samples: SampleInput[] = raw.map((r, i) => ({
          ...r,
          route: route.idx,
          intended: NaN,
          sent: i,
          received: i + 1,
          errorCode: 'rate_limit.exceeded',
        }));
        const v = new ResponseVerifier(target, 'v');
        samples.forEach((s, i) => v.add(i, s, route));
        const want = direct(samples);
        // Per clause: the count of responses, and the first actual value.
        const byClause = new Map<string, number>();
        for (const [k, n] of want) byClause.set(k.split('|')[0]!, (byClause.get(k.split('|')[0]!) ?? 0) + n);
        const got = new Map(v.findings().map((f) => [f.clause, Number(/^(\d+) read/.exec(f.actual)![1])]));
        expect(got).toEqual(byClause);
        for (const f of v.findings()) {
          const first = /first: (.*) \(requests/.exec(f.actual)![1]!;
          expect(want.has(`${f.clause}|${first}`)).toBe(true);
        }
      }),
      { numRuns: 1000, seed: 11 },
    );
  });
});
