/**
 * A threshold that asks for refusals (`read.429 > 0`) is judged only when the run spent the budget: on a
 * staging whose budget four connections (or caps.maxRps) cannot reach, no 429 is no finding. Judged, and
 * breached, when Remaining reached 0 and no 429 came; judged as before when no Remaining was seen.
 */
import { describe, expect, it } from 'vitest';
import { budgetSpent } from '../../src/fold/budget-spent.js';
import { evaluateThreshold, parseThreshold, type ThresholdContext } from '../../src/fold/threshold.js';
import type { ProfileResult } from '../../src/results/schema.js';
import { computeVerdict, countResults } from '../../src/results/verdict.js';

type Series = NonNullable<ProfileResult['rateLimitSeries']>;
const series = (read: Series['read'], write: Series['write'] = []): Series => ({ bucketMs: 100, read, write });

/** A context whose counts are `counts` and whose budgets are read from `s`. */
function ctx(s: Series | undefined, counts: Record<string, number> = {}): ThresholdContext {
  return {
    latency: () => null,
    count: (m, c) => counts[`${c ?? 'all'}.${m}`] ?? 0,
    errorRate: () => 0,
    rps: () => 0,
    ...(s ? { budgetSpent: (c?: 'read' | 'write') => budgetSpent(s, c) } : {}),
  };
}
const evaluate = (expression: string, c: ThresholdContext) => {
  const p = parseThreshold(expression);
  if (!p.ok) throw new Error(p.error);
  return evaluateThreshold(p.threshold, c);
};

describe('budgetSpent', () => {
  it('a 429 or a Remaining of 0 spends it; a lowest Remaining above 0 does not; no Remaining is unknown', () => {
    expect(
      budgetSpent(
        series([
          [0, 900, 999, 0],
          [100, 640, 899, 0],
        ]),
        'read',
      ),
    ).toEqual({ spent: false, lowest: 640 });
    expect(
      budgetSpent(
        series([
          [0, 3, 10, 0],
          [100, 0, 2, 0],
        ]),
        'read',
      ),
    ).toEqual({ spent: true, lowest: 0 });
    expect(budgetSpent(series([[0, 5, 10, 2]]), 'read')).toEqual({ spent: true, lowest: 5 });
    expect(budgetSpent(series([[0, null, null, 0]]), 'read')).toEqual({ spent: null, lowest: null });
    expect(budgetSpent(undefined, 'read')).toEqual({ spent: null, lowest: null });
    // Classes apart: the write class's empty budget says nothing of the read class; unqualified, any class.
    const both = series([[0, 400, 500, 0]], [[0, 0, 4, 3]]);
    expect(budgetSpent(both, 'read').spent).toBe(false);
    expect(budgetSpent(both, 'write').spent).toBe(true);
    expect(budgetSpent(both).spent).toBe(true);
  });
});

describe('a threshold that asks for refusals', () => {
  it('is not judged when the budget was never spent: ok (no false alarm), with why and what would judge it', () => {
    const out = evaluate('read.429 > 0', ctx(series([[0, 4630, 4999, 0]])));
    expect(out).toMatchObject({ ok: true, actual: '0' });
    expect(out.notJudged).toMatch(/^not judged: the run never spent the read budget \(lowest RateLimit-Remaining 4630, no 429\)/);
    expect(out.notJudged).toContain('caps.maxRps');
    expect(evaluate('429 > 0', ctx(series([[0, 10, 20, 0]]))).notJudged).toMatch(/^not judged: the run never spent any budget /);
    for (const e of ['read.429 >= 1', 'read.429 != 0', '429 > 0'])
      expect(evaluate(e, ctx(series([[0, 10, 20, 0]]))).notJudged).toBeDefined();
  });

  it('is judged, and breached, when Remaining reached 0 and no 429 came (a limiter that does not refuse)', () => {
    const out = evaluate('read.429 > 0', ctx(series([[0, 0, 20, 0]])));
    expect(out).toEqual({ expression: 'read.429 > 0', ok: false, actual: '0' });
  });

  it('is judged as before when no Remaining was seen (the rate-limit checks report the headers)', () => {
    expect(evaluate('read.429 > 0', ctx(series([[0, null, null, 0]])))).toEqual({ expression: 'read.429 > 0', ok: false, actual: '0' });
    expect(evaluate('read.429 > 0', ctx(undefined))).toEqual({ expression: 'read.429 > 0', ok: false, actual: '0' });
  });

  it('is judged whenever refusals came, and other thresholds are never affected', () => {
    const spentNot = ctx(series([[0, 800, 999, 0]]), { 'read.429': 3, 'read.5xx': 1 });
    expect(evaluate('read.429 > 0', spentNot)).toEqual({ expression: 'read.429 > 0', ok: true, actual: '3' });
    expect(evaluate('read.429 > 5', spentNot)).toEqual({ expression: 'read.429 > 5', ok: false, actual: '3' });
    expect(evaluate('read.429 == 0', ctx(series([[0, 800, 999, 0]])))).toEqual({ expression: 'read.429 == 0', ok: true, actual: '0' });
    expect(evaluate('read.5xx > 0', ctx(series([[0, 800, 999, 0]])))).toEqual({ expression: 'read.5xx > 0', ok: false, actual: '0' });
  });
});

describe('the verdict of a run with a threshold not judged', () => {
  it('passes, and fails only when the gate asks every check to judge (--fail-on-inconclusive)', () => {
    const load = [
      {
        status: 'passed',
        thresholds: [
          { expression: '5xx == 0', ok: true, actual: '0' },
          { expression: 'read.429 > 0', ok: true, actual: '0', notJudged: 'not judged: the run never spent the read budget' },
        ],
        rateLimit: { violations: [] },
      },
    ] as unknown as ProfileResult[];
    const run = (failOnInconclusive: boolean) =>
      computeVerdict({ checks: [], findings: [], errors: [], load, meta: { aborted: false, failOnInconclusive } });
    expect(countResults({ checks: [], findings: [], load }).thresholds).toEqual({ ok: 1, failed: 0, notJudged: 1, total: 2 });
    expect(run(false)).toBe('passed');
    expect(run(true)).toBe('failed');
  });
});
