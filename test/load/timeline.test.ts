/**
 * The per-second timeline's latency percentiles are those of each second's own responses: the builder
 * reuses one latency buffer from second to second (and grows it), so a busy second followed by a quiet one
 * must not lend the quiet one its leftovers.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { secondPercentiles, selectInPlace, TimelineBuilder } from '../../src/fold/timeline.js';

/** Nearest-rank percentile, rounded to µs, as the timeline reports it. */
function nearestRank(values: number[], p: number): number | null {
  if (values.length === 0) return null;
  const s = [...values].sort((a, b) => a - b);
  const i = Math.min(s.length - 1, Math.max(0, Math.ceil((p / 100) * s.length) - 1));
  return Math.round(s[i]! * 1000) / 1000;
}

const NO_SENDS = { sentPerSecond: { read: [], write: [] }, droppedPerSecond: { read: [], write: [] } };

describe('timeline percentiles', () => {
  it("equal each second's own nearest-rank p50/p95/p99, busy and quiet seconds alternating", () => {
    // Per second: how many responses (some beyond the first buffer of 1,024) and their latencies.
    const second = fc.tuple(fc.constantFrom(0, 1, 3, 50, 1500, 5000), fc.integer({ min: 1, max: 1_000_000 }));
    fc.assert(
      fc.property(fc.array(second, { minLength: 1, maxLength: 8 }), (seconds) => {
        const b = new TimelineBuilder();
        const expected: Array<number[]> = [];
        seconds.forEach(([n, seed], t) => {
          const lat: number[] = [];
          let x = seed;
          for (let i = 0; i < n; i++) {
            x = (x * 1103515245 + 12345) % 2147483648;
            lat.push((x % 100_000) / 100);
            b.add(t * 1000 + (i * 999) / Math.max(1, n), 'read', 200, lat[i]!, {});
          }
          expected.push(lat);
        });
        const rows = b.finish(NO_SENDS);
        expected.forEach((lat, t) => {
          const row = rows[t];
          // Quiet seconds after the last response have no point.
          if (!row) return expect(lat.length).toBe(0);
          expect(row.completed).toBe(lat.length);
          expect([row.p50, row.p95, row.p99]).toEqual([nearestRank(lat, 50), nearestRank(lat, 95), nearestRank(lat, 99)]);
        });
      }),
      { numRuns: 60, seed: 11 },
    );
  });

  it('selection puts at each asked rank the value a sort puts there, duplicates and all', () => {
    // Few distinct values (many ties) as well as many; lengths across the insertion-sort cutoff.
    const values = fc.oneof(
      fc.array(fc.integer({ min: 0, max: 3 }), { maxLength: 300 }),
      fc.array(fc.double({ min: -1e6, max: 1e6, noNaN: true }), { maxLength: 300 }),
    );
    fc.assert(
      fc.property(values, fc.nat(), (xs, seed) => {
        const sorted = Float64Array.from(xs).sort();
        const a = Float64Array.from(xs);
        if (xs.length === 0) {
          expect(secondPercentiles(a, 0)).toEqual([null, null, null]);
          return;
        }
        const k = seed % xs.length;
        selectInPlace(a, 0, a.length - 1, k);
        expect(a[k]).toBe(sorted[k]);
        for (let i = 0; i < k; i++) expect(a[i]).toBeLessThanOrEqual(a[k]!);
        for (let i = k + 1; i < a.length; i++) expect(a[i]).toBeGreaterThanOrEqual(a[k]!);
        // The three percentiles of a fresh copy, with the rest of the buffer beyond n left alone.
        const b = Float64Array.from([...xs, -5, -5]);
        expect(secondPercentiles(b, xs.length)).toEqual([nearestRank(xs, 50), nearestRank(xs, 95), nearestRank(xs, 99)]);
        expect([...b.subarray(xs.length)]).toEqual([-5, -5]);
      }),
      { numRuns: 300, seed: 5 },
    );
  });
});
