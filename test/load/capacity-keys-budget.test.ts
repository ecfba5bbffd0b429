/**
 * The admission-budget judgement of a capacity figure (pure): refusals flag the figure as the keys' budget
 * and name the pool as the way out, unless the keys' combined budget exceeded every second's offered load
 * (then their budgets cannot be what refused). keysBudget adds up each key × class budget of an analysis.
 */
import { describe, expect, it } from 'vitest';
import { keysBudget } from '../../src/fold/throughput.js';
import { findCapacity, type TimelineRow } from '../../src/fold/timeline.js';

const slo = { p95Ms: 250, maxErrorPct: 1 };
/** One second of `sent` arrivals: `served` 2xx and `refused` 429s, p95 5 ms. */
function sec(t: number, sent: number, served: number, refused: number): TimelineRow {
  return {
    t,
    sent,
    completed: served + refused,
    dropped: 0,
    errors: 0,
    byFamily: { '2xx': served, '429': refused },
    p50: 2,
    p95: 5,
    p99: 5,
    rateLimit: {},
    refused: { read: refused, write: 0 },
  };
}
const refusedRun = [sec(0, 100, 100, 0), sec(1, 200, 100, 100), sec(2, 300, 100, 200)];
const cls = (key: string, limit: number | null, windowSeconds: number | null) => ({ key, observedLimit: limit, windowSeconds });

describe('keysBudget', () => {
  it('adds every key × class budget rate; unknown when one is', () => {
    expect(keysBudget([cls('admin', 100, 1), cls('admin.pool[0]', 100, 1), cls('admin.pool[1]', 60, 2)])).toEqual({
      keys: ['admin', 'admin.pool[0]', 'admin.pool[1]'],
      budgetRps: 230,
    });
    expect(keysBudget([cls('admin', 100, 1), cls('admin.pool[0]', null, 1)]).budgetRps).toBeNull();
    expect(keysBudget([]).budgetRps).toBeNull();
  });

  it('a stated budget wins over the observed one', () => {
    expect(keysBudget([{ ...cls('admin', 500, 1), budgetSource: 'stated', statedLimit: 50, statedWindowSeconds: 1 }]).budgetRps).toBe(50);
  });
});

describe("findCapacity and the keys' admission budget", () => {
  it("one key refused: flagged, the remedy names the role's pool", () => {
    const c = findCapacity(refusedRun, slo, 3, keysBudget([cls('readOnly', 100, 1)]));
    expect(c.admissionBudget).toBe(true);
    expect(c.explanation).toMatch(
      /^this is the admission budget of the key \(100\/s\), not the server's capacity: 300 of 600 answers were 429s/,
    );
    expect(c.remedy).toContain('keys.readOnly.pool');
  });

  it('a pool too small: flagged as the combined budget, the remedy asks for more keys', () => {
    const c = findCapacity(refusedRun, slo, 3, keysBudget([cls('admin', 50, 1), cls('admin.pool[0]', 50, 1)]));
    expect(c.admissionBudget).toBe(true);
    expect(c.explanation).toMatch(/^this is the combined admission budget of the 2 keys \(100\/s\)/);
    expect(c.remedy).toMatch(/^add keys to the pool \(keys\.admin\.pool/);
  });

  it("the combined budget exceeded every second's offered load: not flagged, the refusals are said to be someone else's", () => {
    const keys = keysBudget(Array.from({ length: 4 }, (_v, i) => cls(i === 0 ? 'admin' : `admin.pool[${i - 1}]`, 100, 1)));
    const c = findCapacity(refusedRun, slo, 3, keys);
    expect(c.admissionBudget).toBeUndefined();
    expect(c.remedy).toBeUndefined();
    expect(c.explanation).toMatch(
      /^300 of 600 answers were 429s although the 4 keys' combined budget \(400\/s\) exceeds the most offered in a second \(300\)/,
    );
  });

  it("an unknown budget with refusals: flagged (the refusals may be the keys')", () => {
    expect(findCapacity(refusedRun, slo, 3, keysBudget([cls('admin', null, null)])).admissionBudget).toBe(true);
    expect(findCapacity(refusedRun, slo, 3).admissionBudget).toBe(true);
  });

  it('no refusals: a capacity figure, whatever the keys', () => {
    const c = findCapacity([sec(0, 100, 100, 0), sec(1, 200, 200, 0)], slo, 2, keysBudget([cls('admin', 10, 1)]));
    expect(c.admissionBudget).toBeUndefined();
  });
});
