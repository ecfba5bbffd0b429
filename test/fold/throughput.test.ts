/**
 * Throughput is answered non-429 responses per second (issue 31: a capacity run's chart counted 11,442/s of
 * refusals as throughput), the headline peak is never below the mean, and the trailing partial second is
 * neither a peak nor drawn as a collapse.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { answeredIn, throughputOf } from '../../src/fold/throughput.js';
import { throughputChart } from '../../src/report/charts/timeline.js';
import { makeResults } from '../report/fixtures.js';
import { thresholdContext } from '../../src/fold/threshold-context.js';
import type { StatusTally } from '../../src/fold/tally.js';

describe('throughput', () => {
  it('counts answers other than 429 only', () => {
    expect(answeredIn({ t: 0, byFamily: { '2xx': 10, '429': 90, other: 2 } })).toBe(12);
    expect(
      throughputOf(
        [
          { t: 0, byFamily: { '2xx': 10, '429': 990 } },
          { t: 1, byFamily: { '2xx': 20, '429': 980 } },
        ],
        2,
      ),
    ).toEqual({ meanRps: 15, peakRps: 20 });
  });

  it('leaves the trailing partial second out of the peak, and never puts the peak below the mean', () => {
    // 2.3 s: two whole seconds of 100 and a last 0.3 s of 30 answers — not a collapse, not a peak.
    expect(
      throughputOf(
        [
          { t: 0, byFamily: { '2xx': 100 } },
          { t: 1, byFamily: { '2xx': 100 } },
          { t: 2, byFamily: { '2xx': 30 } },
        ],
        2.3,
      ),
    ).toEqual({ meanRps: 100, peakRps: 100 });
    // A run shorter than a second, or denser at its end: the peak is the mean, not below it.
    expect(throughputOf([{ t: 0, byFamily: { '2xx': 50 } }], 0.5)).toEqual({ meanRps: 100, peakRps: 100 });
    fc.assert(
      fc.property(
        fc.array(fc.nat(500), { minLength: 1, maxLength: 12 }),
        fc.double({ min: 0, max: 0.999, noNaN: true }),
        (counts, frac) => {
          const seconds = counts.length - 1 + frac;
          const t = throughputOf(
            counts.map((c, i) => ({ t: i, byFamily: { '2xx': c, '429': c * 3 } })),
            seconds,
          );
          expect(t.peakRps).toBeGreaterThanOrEqual(t.meanRps);
        },
      ),
    );
  });

  it('the chart draws refusals apart and scales the trailing partial second (leaves it out under half a second)', () => {
    const p = structuredClone(makeResults().load[0]!);
    const last = p.timeline.at(-1)!;
    p.durationMs = (last.t + 0.5) * 1000;
    const scaled = throughputChart(p, 'x').config.data.datasets as Array<{ label: string; data: Array<{ x: number; y: number }> }>;
    const answered = scaled.find((d) => d.label === 'answered/s (not 429)')!;
    expect(answered.data.at(-1)).toEqual({ x: last.t, y: Math.round(answeredIn(last) / 0.5) });
    expect(scaled.find((d) => d.label === 'refused/s (429)')!.data.at(-1)).toEqual({
      x: last.t,
      y: Math.round((last.byFamily['429'] ?? 0) / 0.5),
    });
    p.durationMs = (last.t + 0.2) * 1000;
    const dropped = (throughputChart(p, 'x').config.data.datasets as Array<{ label: string; data: Array<{ x: number }> }>)[0]!;
    expect(dropped.data.at(-1)!.x).toBe(last.t - 1);
  });

  it('the rps threshold counts answers other than 429', () => {
    const counts: Record<string, number> = { completed: 1000, '429': 900 };
    const tally = { count: (m: string) => counts[m] ?? 0, errorRate: () => 0 } as unknown as StatusTally;
    const ctx = thresholdContext({
      tally,
      findings: [],
      seconds: 10,
      histogram: () => {
        throw new Error('unused');
      },
      sent: () => 1000,
      dropped: () => 0,
    });
    expect(ctx.rps()).toBe(10);
  });
});
