/**
 * The recorder's watermark of sends in flight (recorder.ts InFlight): with sends recorded as they go out
 * (times that only grow, repeats included) and answers in any order, every response is handed over with
 * min(earliest send still unanswered, its own arrival) — checked against a plain list, through window moves
 * and growth (thousands in flight at once).
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { LoadRecorder } from '../../src/load/load-recorder.js';
import type { SampleInput } from '../../src/load/samples.js';

const sample = (sent: number, received: number): SampleInput => ({
  route: 0,
  intended: NaN,
  sent,
  received,
  status: 200,
  limit: undefined,
  remaining: undefined,
  reset: undefined,
  retryAfter: undefined,
  requestId: undefined,
  errorCode: undefined,
  error: undefined,
});

describe("the recorder's watermark of sends in flight", () => {
  it('equals the earliest unanswered send (or the arrival), whatever the order of answers', () => {
    // Sends outnumbering answers grow the window; as many answers as sends move it to the front again.
    const steps = (sendWeight: number) =>
      fc.array(
        fc.oneof(
          { weight: sendWeight, arbitrary: fc.record({ send: fc.constant(true), gap: fc.constantFrom(0, 0.25, 1), pick: fc.constant(0) }) },
          { weight: 2, arbitrary: fc.record({ send: fc.constant(false), gap: fc.constant(0), pick: fc.nat() }) },
        ),
        { maxLength: 3000, size: 'max' },
      );
    fc.assert(
      fc.property(fc.oneof(steps(3), steps(2)), fc.integer({ min: 0, max: 2500 }), (steps, burst) => {
        const got: number[] = [];
        const rec = new LoadRecorder({ add: (_s, w) => got.push(w!) }, { sendsAsTheyGo: true });
        const open: number[] = [];
        let t = 0;
        // A burst of sends first: the window must grow past its first size with all of them in flight.
        for (let i = 0; i < burst; i++) {
          rec.sent('read', t);
          open.push(t);
          t += 0.5;
        }
        for (const st of steps) {
          if (st.send || open.length === 0) {
            t += st.gap;
            rec.sent('read', t);
            open.push(t);
            continue;
          }
          const [sent] = open.splice(st.pick % open.length, 1);
          const received = t + 0.1;
          const expected = Math.min(open.length ? Math.min(...open) : Infinity, received);
          rec.response(sample(sent!, received));
          expect(got.at(-1)).toBe(expected);
        }
      }),
      { numRuns: 60, endOnFailure: true },
    ); // shrinking a run of thousands of steps would take minutes
  });

  it('ignores an answer to a send it never saw', () => {
    const got: number[] = [];
    const rec = new LoadRecorder({ add: (_s, w) => got.push(w!) }, { sendsAsTheyGo: true });
    rec.sent('read', 1);
    rec.response(sample(0.5, 2));
    expect(got).toEqual([1]);
    rec.response(sample(1, 3));
    expect(got).toEqual([1, 3]);
  });
});
