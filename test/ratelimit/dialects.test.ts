/** The header dialect parser: detection per response, normalization, and malformed values kept unusable. */
import { describe, expect, it } from 'vitest';
import { deltaSeconds, normalizeRateLimitHeaders, parseList } from '../../src/ratelimit/dialects.js';

const from = (h: Record<string, string>, epochMs?: number) => normalizeRateLimitHeaders((n) => h[n], epochMs);

describe('normalizeRateLimitHeaders', () => {
  it("reads the spec's RateLimit-* fields, with a draft-6 policy window", () => {
    expect(
      from({
        'ratelimit-limit': '10',
        'ratelimit-remaining': '3',
        'ratelimit-reset': '4',
        'ratelimit-policy': '10;w=5',
        'retry-after': '4',
      }),
    ).toEqual({ dialect: 'spec', limit: '10', remaining: '3', reset: '4', retryAfter: '4', windowSeconds: '5' });
  });

  it("prefers the spec's fields whenever one of them is present", () => {
    expect(from({ 'ratelimit-remaining': '3', 'x-ratelimit-limit': '100', 'x-ratelimit-remaining': '50' })).toEqual({
      dialect: 'spec',
      remaining: '3',
    });
  });

  it('reads the IETF structured fields and the matching policy', () => {
    expect(from({ ratelimit: '"default";r=50;t=30', 'ratelimit-policy': '"default";q=100;w=60' })).toEqual({
      dialect: 'ietf-structured',
      limit: '100',
      remaining: '50',
      reset: '30',
      windowSeconds: '60',
    });
  });

  it('takes the shortest-window policy of several, with its own quota, however the others drain', () => {
    const policy = '"daily";q=1000;w=86400, "burst";q=100;w=1';
    const n = from({ ratelimit: '"burst";r=80;t=1, "daily";r=7;t=3600', 'ratelimit-policy': policy });
    expect(n).toEqual({ dialect: 'ietf-structured', limit: '100', remaining: '80', reset: '1', windowSeconds: '1' });
    expect(from({ ratelimit: '"daily";r=900;t=3600, "burst";r=3;t=1', 'ratelimit-policy': policy }).limit).toBe('100');
  });

  it('reads the older draft dictionary form and its policy', () => {
    expect(from({ ratelimit: 'limit=100, remaining=50, reset=30', 'ratelimit-policy': '100;w=60' })).toEqual({
      dialect: 'ietf-draft',
      limit: '100',
      remaining: '50',
      reset: '30',
      windowSeconds: '60',
    });
  });

  it('reads X-RateLimit-* with Reset as delta seconds', () => {
    expect(from({ 'x-ratelimit-limit': '60', 'x-ratelimit-remaining': '59', 'x-ratelimit-reset': '42' })).toEqual({
      dialect: 'x-ratelimit',
      limit: '60',
      remaining: '59',
      reset: '42',
    });
  });

  it('converts an epoch Reset (seconds or milliseconds) with the response time, rounding up', () => {
    const now = 1_700_000_000_000;
    expect(from({ 'x-ratelimit-limit': '60', 'x-ratelimit-reset': String(1_700_000_030) }, now).reset).toBe('30');
    expect(from({ 'x-ratelimit-limit': '60', 'x-ratelimit-reset': String(now + 2500) }, now).reset).toBe('3');
    expect(from({ 'x-ratelimit-limit': '60', 'x-ratelimit-reset': String(1_699_999_990) }, now).reset).toBe('0');
  });

  it('leaves an epoch Reset out when no response time converts it', () => {
    expect(from({ 'x-ratelimit-limit': '60', 'x-ratelimit-reset': '1700000030' })).toEqual({ dialect: 'x-ratelimit', limit: '60' });
  });

  it('says none when no dialect is present, and keeps Retry-After', () => {
    expect(from({})).toEqual({ dialect: 'none' });
    expect(from({ 'retry-after': '7' })).toEqual({ dialect: 'none', retryAfter: '7' });
  });

  it('keeps malformed values as raw text (unusable to the analyzer), never a guess', () => {
    expect(from({ ratelimit: '"default";r=abc;t=', 'ratelimit-policy': '"default";q=1e3;w=-5' })).toEqual({
      dialect: 'ietf-structured',
      remaining: 'abc',
      reset: '',
      limit: '1e3',
      windowSeconds: '-5',
    });
    expect(from({ 'x-ratelimit-limit': 'ten', 'x-ratelimit-reset': '-3' })).toEqual({ dialect: 'x-ratelimit', limit: 'ten', reset: '-3' });
    // Garbage in the RateLimit field is no dialect at all.
    expect(from({ ratelimit: ';;,,"unterminated' })).toEqual({ dialect: 'none' });
  });
});

describe('parseList and deltaSeconds', () => {
  it('splits members outside quotes only', () => {
    const items = parseList('"a,b";r=1, c;r=2');
    expect(items.map((i) => [i.value, i.params.get('r')])).toEqual([
      ['a,b', '1'],
      ['c', '2'],
    ]);
  });
  it('rounds a fractional delta up and keeps non-numbers raw', () => {
    expect(deltaSeconds('1.2', undefined)).toBe('2');
    expect(deltaSeconds('soon', undefined)).toBe('soon');
  });
});
