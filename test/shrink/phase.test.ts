/**
 * Judging across the window's phase (src/shrink/attempts.ts) and the final measurement's early drop
 * (src/shrink/search.ts), pure parts.
 */
import { describe, expect, it } from 'vitest';
import { phaseOffset } from '../../src/shrink/attempts.js';
import { asOftenAs, minReproductions } from '../../src/shrink/search.js';

describe('phaseOffset', () => {
  it('starts the first attempt when the budget is full, then spreads attempts evenly over the window', () => {
    expect(phaseOffset(0, 1000)).toBe(0);
    const offsets = Array.from({ length: 10 }, (_, k) => phaseOffset(k, 1000));
    // Ten attempts: no two closer than half the even spacing (the golden ratio's three-gap property).
    const sorted = [...offsets].sort((a, b) => a - b);
    expect(Math.min(...sorted.slice(1).map((o, i) => o - sorted[i]!))).toBeGreaterThanOrEqual(50);
    expect(offsets.every((o) => o >= 0 && o < 1000)).toBe(true);
    // Four attempts already cover every quarter but one: a candidate shown at 3/4 of phases misses early.
    expect(new Set(offsets.slice(0, 4).map((o) => Math.floor(o / 250))).size).toBeGreaterThanOrEqual(3);
  });

  it('is zero without a spread (replay --times starts when the budget is full)', () => {
    expect(phaseOffset(5, 0)).toBe(0);
  });
});

describe('minReproductions', () => {
  it('is the fewest of --times that asOftenAs accepts', () => {
    expect(minReproductions(10, { reproduced: 3, attempts: 3 })).toBe(9);
    expect(minReproductions(10, { reproduced: 2, attempts: 3 })).toBe(6);
    for (const o of [
      { reproduced: 3, attempts: 3 },
      { reproduced: 1, attempts: 3 },
    ]) {
      const k = minReproductions(10, o);
      expect(asOftenAs({ reproduced: k, attempts: 10 }, o)).toBe(true);
      expect(asOftenAs({ reproduced: k - 1, attempts: 10 }, o)).toBe(false);
    }
  });
});
