/**
 * The judgement behind limits.remaining-decreases's later looks at the budget (suites/model/rate-restore.ts),
 * without a server: full at a claim, short by exactly the check's previous batch (a limiter still counting
 * what it said it would forget), short by another count (other traffic a refill hid), or a visible fall.
 */
import { describe, expect, it } from 'vitest';
import type { Exchange } from '../../src/client/exchange.js';
import { budgetOf, readLook, shortBy } from '../../suites/model/rate-restore.js';

let n = 0;
/** An answer to GET /me announcing `remaining` of a budget of 200, full again in `reset` s. */
function me(remaining: number, reset = 2, status = 200): Exchange {
  const headers = { 'ratelimit-limit': '200', 'ratelimit-remaining': String(remaining), 'ratelimit-reset': String(reset) };
  return {
    id: `x${++n}`,
    request: { method: 'GET', url: 'http://h/v1/me', headers: {}, bodyBytes: 0 },
    response: { status, headers, body: '{}', bodyBytes: 2 },
    timings: { start: 0, total: 1 },
  };
}

describe('budgetOf and shortBy', () => {
  it('read the budget of an accepted answer, and how many requests besides its own it counts', () => {
    expect(budgetOf(me(197))).toEqual({ limit: 200, remaining: 197, reset: 2 });
    expect(shortBy(budgetOf(me(199))!)).toBe(0);
    expect(shortBy(budgetOf(me(196))!)).toBe(3);
  });
  it('read nothing from a 429 or an answer without the headers', () => {
    expect(budgetOf(me(0, 2, 429))).toBeUndefined();
    expect(budgetOf({ ...me(5), response: { status: 200, headers: {}, body: '', bodyBytes: 0 } })).toBeUndefined();
  });
});

describe('readLook', () => {
  it('full at the claim: the claim held', () => {
    expect(readLook([me(199), me(198), me(197)], 2).kind).toBe('full');
  });
  it('short by exactly the previous batch: own', () => {
    expect(readLook([me(197), me(196), me(195)], 2).kind).toBe('own');
    expect(readLook([me(196)], 3).kind).toBe('own');
  });
  it('short by another count, no fall: other (a refill hid who spent it)', () => {
    expect(readLook([me(197), me(197), me(197)], 3).kind).toBe('other');
    expect(readLook([me(198)], 2).kind).toBe('other');
  });
  it('a fall by more than its own request between two answers: foreign, naming it', () => {
    const seen = readLook([me(197), me(194), me(193)], 2);
    expect(seen).toEqual({ kind: 'foreign', fall: expect.stringMatching(/fell by 3 between two back-to-back requests/) });
  });
});
