import { describe, expect, it } from 'vitest';
import { estimateBudget, policyWindow, type ProbeSample } from '../../src/load/budget-estimate.js';

/** [t ms, status, Limit, Remaining, Reset, afterWait?] as recorded from a probe. */
type Row = [number, number, string | undefined, string | undefined, string | undefined, boolean?];
const seq = (rows: Row[], extra: Partial<ProbeSample> = {}): ProbeSample[] =>
  rows.map(([t, status, limit, remaining, reset, afterWait]) => ({
    t,
    status,
    limit,
    remaining,
    reset,
    ...(afterWait ? { afterWait } : {}),
    ...extra,
  }));

describe('estimateBudget over recorded header sequences', () => {
  it('a fixed window whose window began before the probe: W is the Reset right after the refill, not the first Reset', () => {
    // 20 per 3 s; the probe began 2.2 s into a window already 6 requests down.
    const r = estimateBudget(
      seq([
        [3, 200, '20', '13', '1'],
        [6, 200, '20', '12', '1'],
        [9, 200, '20', '11', '1'],
        [12, 200, '20', '10', '1'],
        [15, 200, '20', '9', '1'],
        [520, 200, '20', '8', '1'],
        [1075, 200, '20', '19', '3', true],
      ]),
    );
    expect(r).toMatchObject({ ok: true, limit: 20, windowSeconds: 3, confidence: 'high', model: 'window' });
  });

  it('a fixed window without a refill seen gives a lower bound only, with low confidence', () => {
    const r = estimateBudget(
      seq([
        [3, 200, '100', '60', '7'],
        [6, 200, '100', '59', '7'],
        [9, 200, '100', '58', '7'],
      ]),
    );
    expect(r).toMatchObject({ ok: true, limit: 100, windowSeconds: 7, confidence: 'low' });
    expect(r.evidence.join(' ')).toMatch(/at least 7 s/);
  });

  it('a sliding log: Reset says W on every admitted request, and the budget comes back once the burst ages out', () => {
    const r = estimateBudget(
      seq([
        [3, 200, '20', '19', '3'],
        [6, 200, '20', '18', '3'],
        [9, 200, '20', '17', '3'],
        [12, 200, '20', '16', '3'],
        [15, 200, '20', '15', '3'],
        [1512, 200, '20', '14', '3'],
        [3066, 200, '20', '18', '3', true],
      ]),
    );
    expect(r).toMatchObject({ ok: true, limit: 20, windowSeconds: 3, model: 'window', confidence: 'high' });
  });

  it('a token bucket: Reset grows with the budget spent; W comes from the arithmetic, not from one Reset', () => {
    // 10 per 10 s (one unit a second), full at the start.
    const r = estimateBudget(
      seq([
        [3, 200, '10', '9', '1'],
        [6, 200, '10', '8', '2'],
        [9, 200, '10', '7', '3'],
        [12, 200, '10', '6', '4'],
        [15, 200, '10', '5', '5'],
        [515, 200, '10', '4', '6'],
      ]),
    );
    expect(r.ok).toBe(true);
    expect(r).toMatchObject({ limit: 10, model: 'token-bucket' });
    const w = (r as { windowSeconds: number }).windowSeconds;
    expect(w).toBeGreaterThanOrEqual(7.5);
    expect(w).toBeLessThanOrEqual(15);
  });

  it('a token bucket refilling part of its budget before the announced full-again time', () => {
    // 20 per 3 s: the burst's Reset stays at 1, but 3 units are back 500 ms later.
    const r = estimateBudget(
      seq([
        [3, 200, '20', '19', '1'],
        [6, 200, '20', '18', '1'],
        [9, 200, '20', '17', '1'],
        [12, 200, '20', '16', '1'],
        [15, 200, '20', '15', '1'],
        [515, 200, '20', '17', '1'],
      ]),
    );
    expect(r).toMatchObject({ ok: true, limit: 20, model: 'token-bucket' });
    const w = (r as { windowSeconds: number }).windowSeconds;
    expect(w).toBeGreaterThan(1.5);
    expect(w).toBeLessThan(6);
  });

  it('no rate-limit headers: fails, saying so', () => {
    const r = estimateBudget(
      seq([
        [3, 200, undefined, undefined, undefined],
        [6, 200, undefined, undefined, undefined],
      ]),
    );
    expect(r).toMatchObject({ ok: false, reason: expect.stringMatching(/no integral RateLimit-Limit on 2/) });
  });

  it('only transport failures: fails', () => {
    expect(estimateBudget(seq([[3, 0, undefined, undefined, undefined]]))).toMatchObject({ ok: false, reason: 'no response to the probe' });
  });

  it('inconsistent headers: a Limit that changes between responses is not one budget', () => {
    const r = estimateBudget(
      seq([
        [3, 200, '20', '19', '3'],
        [6, 200, '40', '38', '3'],
        [9, 200, '20', '17', '3'],
      ]),
    );
    expect(r).toMatchObject({ ok: false, reason: expect.stringMatching(/changed between responses \(20, 40\)/) });
  });

  it('inconsistent headers: Remaining above Limit is ignored (and said), the rest still counts', () => {
    const r = estimateBudget(
      seq([
        [3, 200, '20', '25', '3'],
        [6, 200, '20', '18', '3'],
        [3020, 200, '20', '19', '3', true],
      ]),
    );
    expect(r).toMatchObject({ ok: true, limit: 20, windowSeconds: 3 });
    expect(r.evidence.join(' ')).toMatch(/Remaining 25 above Limit 20/);
  });

  it('inconsistent headers: malformed Remaining and Reset everywhere leave nothing to estimate W from', () => {
    const r = estimateBudget(
      seq([
        [3, 200, '20', 'x', '2.5'],
        [6, 200, '20', '-1', 'soon'],
      ]),
    );
    expect(r).toMatchObject({
      ok: false,
      reason: expect.stringMatching(/no response with integral RateLimit-Remaining and RateLimit-Reset/),
    });
  });

  it('Reset 0 on every response gives no window', () => {
    expect(
      estimateBudget(
        seq([
          [3, 200, '20', '19', '0'],
          [6, 200, '20', '18', '0'],
        ]),
      ),
    ).toMatchObject({ ok: false });
  });

  it('RateLimit-Policy w= gives the window directly', () => {
    const r = estimateBudget(
      seq(
        [
          [3, 200, '20', '19', '1'],
          [6, 200, '20', '18', '1'],
        ],
        { policy: '20;w=3' },
      ),
    );
    expect(r).toMatchObject({ ok: true, limit: 20, windowSeconds: 3, model: 'policy', confidence: 'high' });
  });

  it('parses policy windows and ignores ambiguous ones', () => {
    expect(policyWindow('"default";q=100;w=60')).toBe(60);
    expect(policyWindow('10;w=1, 100;w=60')).toBeUndefined();
    expect(policyWindow('10;w=1.5')).toBeUndefined();
    expect(policyWindow(undefined)).toBeUndefined();
  });
});
