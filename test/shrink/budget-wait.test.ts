/** When a budget is full again, from the headers only; and whether an attempt began with it full. */
import { describe, expect, it } from 'vitest';
import { fullAgainAt, msResetBudgets, notStartedFull } from '../../src/shrink/budget-wait.js';
import type { TraceRecord } from '../../src/trace/record.js';

const rec = (t: number, o: Partial<TraceRecord> = {}): TraceRecord => ({
  t,
  latency: 5,
  class: 'read',
  method: 'GET',
  path: '/me',
  status: 200,
  limit: '10',
  key: 'admin',
  ...o,
});

describe('fullAgainAt', () => {
  it('takes the latest Reset claim over every budget, and Retry-After on 429s', () => {
    const r = fullAgainAt([
      rec(0, { remaining: '9', reset: '1' }),
      rec(100, { remaining: '0', reset: '1', class: 'write' }),
      rec(200, { status: 429, remaining: '0', reset: '1', retryAfter: '3', class: 'write' }),
    ]);
    expect(r.atMs).toBe(205 + 3000 + 50);
    expect(r.latest).toEqual({ budget: 'write (key admin)', claimSeconds: 3, unit: 's' });
    expect(r.unclaimed).toEqual([]);
  });

  it('says which budget makes no claim at all, and gives no time when none does', () => {
    const r = fullAgainAt([rec(0, { remaining: '9' }), rec(10, { remaining: '8' })]);
    expect(r).toEqual({ atMs: null, unclaimed: ['read (key admin)'] });
  });

  it('reads Reset in ms for a budget whose Reset visibly counts ms', () => {
    const records = Array.from({ length: 8 }, (_, i) => rec(i * 50, { remaining: String(9 - i), reset: String(1000 - i * 50) }));
    const ms = msResetBudgets(records);
    expect([...ms]).toEqual(['read (key admin)']);
    expect(fullAgainAt(records, ms).atMs).toBeLessThan(2000);
    expect(fullAgainAt(records).atMs).toBeGreaterThan(600_000);
  });
});

describe('notStartedFull', () => {
  it('accepts a first response at Limit − 1, or lower by the requests counted before it', () => {
    expect(notStartedFull([rec(0, { remaining: '9' }), rec(1, { remaining: '8' })])).toEqual([]);
    expect(
      notStartedFull([rec(0, { remaining: '7', latency: 10 }), rec(1, { remaining: '8' }), rec(2, { remaining: '8', class: 'write' })]),
    ).toEqual([]);
  });
  it('names a budget whose first answer is a 429 or far below the Limit', () => {
    expect(notStartedFull([rec(0, { status: 429, remaining: '0' })])).toEqual(['read (key admin)']);
    expect(notStartedFull([rec(0, { remaining: '3' }), rec(100, { remaining: '2' })])).toEqual(['read (key admin)']);
  });
});
