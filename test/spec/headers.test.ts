import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { getHeader, parseIntHeader, parseRateLimitHeaders, parseTextHeader } from '../../src/spec/headers.js';

/** The same name in a random mix of upper and lower case. */
const casing = (name: string): fc.Arbitrary<string> =>
  fc
    .array(fc.boolean(), { minLength: name.length, maxLength: name.length })
    .map((up) => [...name].map((ch, i) => (up[i] ? ch.toUpperCase() : ch.toLowerCase())).join(''));
const ws = fc.stringMatching(/^[ \t]{0,3}$/);

describe('header lookup and integer parsing', () => {
  it('finds a header whatever the case of its name, and trims the value', () => {
    fc.assert(
      fc.property(casing('RateLimit-Remaining'), fc.nat({ max: Number.MAX_SAFE_INTEGER }), ws, ws, (name, n, a, b) => {
        expect(parseIntHeader({ [name]: `${a}${n}${b}` }, 'ratelimit-remaining')).toEqual({ ok: true, value: n, raw: `${a}${n}${b}` });
      }),
      { numRuns: 100 },
    );
  });

  it('reports a missing header as missing', () => {
    expect(parseIntHeader({}, 'Retry-After')).toEqual({ ok: false, problem: 'missing' });
    expect(getHeader({ other: '1' }, 'Retry-After')).toBeUndefined();
  });

  it('negative values are "negative", not "not-integer"', () => {
    fc.assert(
      fc.property(fc.integer({ min: 1, max: 1e9 }), (n) => {
        expect(parseIntHeader({ 'retry-after': `-${n}` }, 'Retry-After')).toMatchObject({ ok: false, problem: 'negative' });
      }),
      { numRuns: 50 },
    );
  });

  it.each(['1.5', '1e3', 'abc', '', ' ', '0x10', '+5', '5s', '99999999999999999999'])('%j is not an integer header value', (raw) => {
    expect(parseIntHeader({ 'ratelimit-reset': raw }, 'RateLimit-Reset')).toMatchObject({ ok: false, problem: 'not-integer' });
  });

  it('duplicates are reported whether kept as an array or joined with commas', () => {
    expect(parseIntHeader({ 'ratelimit-limit': ['10', '20'] }, 'RateLimit-Limit')).toMatchObject({
      ok: false,
      problem: 'duplicated',
      raw: '10, 20',
    });
    expect(parseIntHeader({ 'ratelimit-limit': '10, 10' }, 'RateLimit-Limit')).toMatchObject({ ok: false, problem: 'duplicated' });
    expect(parseIntHeader({ 'ratelimit-limit': ['10'] }, 'RateLimit-Limit')).toMatchObject({ ok: true, value: 10 });
  });
});

describe('text headers', () => {
  it('X-Request-Id: present, empty, duplicated', () => {
    expect(parseTextHeader({ 'X-REQUEST-ID': ' req_1 ' }, 'x-request-id')).toEqual({ ok: true, value: 'req_1' });
    expect(parseTextHeader({ 'x-request-id': '  ' }, 'X-Request-Id')).toMatchObject({ ok: false, problem: 'empty' });
    expect(parseTextHeader({ 'x-request-id': ['a', 'b'] }, 'X-Request-Id')).toMatchObject({ ok: false, problem: 'duplicated' });
    expect(parseTextHeader({}, 'X-Request-Id')).toEqual({ ok: false, problem: 'missing' });
  });
});

describe('parseRateLimitHeaders', () => {
  it('reads all five headers of parts 7 and 8 at once', () => {
    const h = parseRateLimitHeaders({
      'RateLimit-Limit': '100',
      'ratelimit-remaining': '0',
      'RATELIMIT-RESET': '30',
      'retry-after': '30',
      'x-request-id': 'req_9',
    });
    expect(h.limit).toMatchObject({ ok: true, value: 100 });
    expect(h.remaining).toMatchObject({ ok: true, value: 0 });
    expect(h.reset).toMatchObject({ ok: true, value: 30 });
    expect(h.retryAfter).toMatchObject({ ok: true, value: 30 });
    expect(h.requestId).toEqual({ ok: true, value: 'req_9' });
  });

  it('never throws, whatever the header bag holds', () => {
    const value = fc.oneof(fc.string({ maxLength: 12 }), fc.array(fc.string({ maxLength: 6 }), { maxLength: 3 }), fc.constant(undefined));
    fc.assert(
      fc.property(
        fc.dictionary(
          fc.constantFrom('RateLimit-Limit', 'ratelimit-remaining', 'RateLimit-Reset', 'Retry-After', 'X-Request-Id', 'x'),
          value,
        ),
        (bag) => {
          const h = parseRateLimitHeaders(bag);
          for (const r of [h.limit, h.remaining, h.reset, h.retryAfter]) {
            if (r.ok) expect(Number.isSafeInteger(r.value) && r.value >= 0).toBe(true);
          }
        },
      ),
      { numRuns: 150 },
    );
  });
});
