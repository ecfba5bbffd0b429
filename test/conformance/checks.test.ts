/** The pure per-response checks: headers, envelope, request ids, codes, rate-limit sequences. */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { Exchange } from '../../src/client/exchange.js';
import {
  checkErrorResponse,
  checkResponse,
  checkResponseHeaders,
  checkRemainingDecreases,
  checkResetCountsSeconds,
  misspelledSpecCode,
} from '../../src/checks/index.js';

function x(status: number, headers: Record<string, string>, json?: unknown, at = 0): Exchange {
  const body = json === undefined ? '' : JSON.stringify(json);
  return {
    id: `x${at}`,
    request: { method: 'GET', url: 'http://h/v1/me', headers: {}, bodyBytes: 0 },
    response: { status, headers, body, bodyBytes: body.length, ...(json !== undefined ? { json } : {}) },
    timings: { start: at, headers: 1, total: 2 },
  };
}

const good = { 'x-request-id': 'req_1', 'ratelimit-limit': '10', 'ratelimit-remaining': '9', 'ratelimit-reset': '5' };
const envelope = (code: string, requestId = 'req_1') => ({ error: { code, message: 'm', requestId } });
const clauses = (vs: Array<{ clause: string }>) => vs.map((v) => v.clause);

describe('checkResponseHeaders', () => {
  it('accepts a well-formed response', () => {
    expect(checkResponse(x(200, good, {}), { windowSeconds: 5 })).toEqual([]);
    expect(checkResponse(x(429, { ...good, 'ratelimit-remaining': '0', 'retry-after': '3' }, envelope('rate_limit.exceeded')))).toEqual([]);
  });

  it('reports each broken rule under its clause', () => {
    expect(clauses(checkResponseHeaders(x(200, { ...good, 'x-request-id': '' })))).toEqual(['7.request-id.header']);
    expect(clauses(checkResponseHeaders(x(404, { 'x-request-id': 'r' })))).toEqual(['8.ratelimit.headers']);
    expect(clauses(checkResponseHeaders(x(200, { ...good, 'ratelimit-remaining': '-1' })))).toEqual(['8.ratelimit.remaining-bounds']);
    expect(clauses(checkResponseHeaders(x(200, { ...good, 'ratelimit-remaining': '11' })))).toEqual(['8.ratelimit.remaining-bounds']);
    expect(clauses(checkResponseHeaders(x(200, { ...good, 'ratelimit-reset': '4200' }), { windowSeconds: 5 }))).toEqual([
      '8.ratelimit.reset-window',
    ]);
    expect(clauses(checkResponseHeaders(x(200, { ...good, 'ratelimit-reset': '1764090000' }), {}))).toEqual([
      '8.ratelimit.reset-plausible',
    ]);
    expect(clauses(checkResponseHeaders(x(429, good)))).toEqual(['8.ratelimit.retry-after']);
  });

  it('never throws and flags any non-integral RateLimit value', () => {
    fc.assert(
      fc.property(fc.string(), (v) => {
        const out = clauses(checkResponseHeaders(x(200, { ...good, 'ratelimit-limit': v })));
        expect(out.includes('8.ratelimit.headers')).toBe(!/^\s*\d+\s*$/.test(v) || !Number.isSafeInteger(Number(v.trim())));
      }),
    );
  });
});

describe('checkErrorResponse', () => {
  it('wants the envelope, a matching request id and the exact 413/429 codes', () => {
    expect(clauses(checkErrorResponse(x(400, good, { code: 'x', message: 'm' })))).toEqual(['7.error.envelope']);
    expect(clauses(checkErrorResponse(x(400, good, envelope('x', 'req_2'))))).toEqual(['7.request-id.matches']);
    expect(clauses(checkErrorResponse(x(413, good, envelope('payload_too_large'))))).toEqual(['8.body.code']);
    expect(clauses(checkErrorResponse(x(429, good, envelope('too_many_requests'))))).toEqual(['8.ratelimit.429-code']);
    expect(checkErrorResponse(x(200, good, { anything: 1 }))).toEqual([]);
  });

  it('recognises near-miss spellings of spec codes only', () => {
    expect(misspelledSpecCode('ROUTE_NOT_FOUND')).toBe('route.not_found');
    expect(misspelledSpecCode('route.not_found')).toBeUndefined();
    expect(misspelledSpecCode('not_found')).toBeUndefined();
  });
});

describe('rate-limit sequences', () => {
  const seq = (pairs: Array<[number, number, number]>) =>
    pairs.map(([at, remaining, reset]) =>
      x(200, { ...good, 'ratelimit-remaining': String(remaining), 'ratelimit-reset': String(reset) }, {}, at),
    );

  it('Remaining must fall within a window, but may refill after Reset', () => {
    expect(
      checkRemainingDecreases(
        seq([
          [0, 9, 5],
          [10, 8, 5],
          [20, 7, 5],
        ]),
      ),
    ).toBeUndefined();
    expect(
      checkRemainingDecreases(
        seq([
          [0, 9, 5],
          [10, 9, 5],
          [20, 9, 5],
          [30, 9, 5],
          [40, 9, 5],
        ]),
      )?.clause,
    ).toBe('8.ratelimit.remaining-decreases');
    expect(
      checkRemainingDecreases(
        seq([
          [0, 1, 1],
          [1500, 9, 5],
        ]),
      ),
    ).toBeUndefined();
  });

  it('a full budget that does not fall is stuck; a draining bucket may show one Remaining twice (regression: token bucket flagged)', () => {
    const withLimit = (pairs: Array<[number, number, number]>, limit: number) =>
      pairs.map(([at, remaining, reset]) =>
        x(
          200,
          { ...good, 'ratelimit-limit': String(limit), 'ratelimit-remaining': String(remaining), 'ratelimit-reset': String(reset) },
          {},
          at,
        ),
      );
    expect(
      checkRemainingDecreases(
        withLimit(
          [
            [0, 10, 5],
            [10, 10, 5],
          ],
          10,
        ),
      )?.clause,
    ).toBe('8.ratelimit.remaining-decreases');
    // 400 per 10 s bucket at 253 left, full again in 4 s: refills ~37 tokens/s, so 253 twice 3 ms apart is fine.
    expect(
      checkRemainingDecreases(
        withLimit(
          [
            [0, 253, 4],
            [3, 253, 4],
            [6, 252, 4],
            [9, 251, 4],
            [12, 250, 4],
          ],
          400,
        ),
      ),
    ).toBeUndefined();
  });

  it('Reset may not fall faster than time passes', () => {
    expect(
      checkResetCountsSeconds(
        seq([
          [0, 9, 5],
          [1100, 8, 4],
        ]),
      ),
    ).toBeUndefined();
    expect(
      checkResetCountsSeconds(
        seq([
          [0, 9, 4000],
          [1100, 8, 2900],
        ]),
      )?.clause,
    ).toBe('8.ratelimit.reset-plausible');
  });
});
