/**
 * Attempts spread over the window's phases (attempts.ts phaseAt): a bug a limiter shows only at some
 * phases of its own windows is then measured at the rate a user re-running it at any moment sees, not at
 * the rate of one phase (back-to-back attempts each starting just after a refill).
 */
import { describe, expect, it } from 'vitest';
import { phaseAt } from '../../src/shrink/attempts.js';

describe('phaseAt', () => {
  it('covers [0, 1) evenly: any 4 attempts leave no gap over 0.4, any 10 none over 0.16', () => {
    const gaps = (n: number) => {
      const xs = Array.from({ length: n }, (_, i) => phaseAt(i)).sort((a, b) => a - b);
      return Math.max(...xs.map((x, i) => (i + 1 < n ? xs[i + 1]! : 1 + xs[0]!) - x));
    };
    expect(gaps(4)).toBeLessThan(0.4);
    expect(gaps(10)).toBeLessThan(0.16);
    for (let i = 0; i < 50; i++) expect(phaseAt(i)).toBeGreaterThanOrEqual(0);
  });

  it('a bug shown at half the phases: 4 back-to-back attempts at one phase say 4/4, spread ones say what it is', () => {
    const shows = (phase: number) => phase < 0.5;
    const atOnePhase = Array.from({ length: 4 }, () => shows(0.1)).filter(Boolean).length;
    const spread = Array.from({ length: 10 }, (_, i) => shows(phaseAt(i))).filter(Boolean).length;
    expect(atOnePhase).toBe(4);
    expect(spread).toBeGreaterThanOrEqual(4);
    expect(spread).toBeLessThanOrEqual(6);
  });
});
