/**
 * findCapacity (pure): the figure is what the target served in a second that met the SLO, never the
 * arrival rate offered in it. The regression: a ramp past a station serving 380/s offered 441 arrivals in
 * the last second before its p95 showed the queue, and 441 was reported as the capacity.
 */
import { describe, expect, it } from 'vitest';
import { findCapacity, type TimelineRow } from '../../src/fold/timeline.js';

const slo = { p95Ms: 250, maxErrorPct: 1 };
/** One second: `sent` arrivals sent, `served` 2xx completed, p95 in ms, plus errors and drops. */
function sec(t: number, sent: number, served: number, p95: number, extra: Partial<TimelineRow> = {}): TimelineRow {
  return {
    t,
    sent,
    completed: served + (extra.errors ?? 0),
    dropped: 0,
    errors: 0,
    byFamily: { '2xx': served },
    p50: p95 / 2,
    p95,
    p99: p95,
    rateLimit: {},
    refused: { read: 0, write: 0 },
    ...extra,
  };
}

describe('findCapacity', () => {
  it('credits what was served in the seconds that met the SLO, not the arrivals offered in them', () => {
    // The queue builds from second 3 on: arrivals outrun the 380/s the target serves, p95 breaks at second 5.
    const points = [
      sec(0, 200, 200, 20),
      sec(1, 300, 300, 22),
      sec(2, 370, 370, 30),
      sec(3, 410, 379, 120),
      sec(4, 441, 380, 240),
      sec(5, 470, 380, 600),
      sec(6, 500, 381, 900),
    ];
    const c = findCapacity(points, slo, 7);
    expect(c.rps).toBe(380);
    expect(c.firstBreachAt).toBe(5);
    expect(c.explanation).toContain('served at most 380 responses/s');
    expect(c.explanation).toContain('441 arrivals offered');
  });

  it('a target answering the excess with errors: the errors break the SLO, only 2xx count as served', () => {
    const points = [sec(0, 100, 100, 5), sec(1, 200, 199, 5, { errors: 1 }), sec(2, 300, 250, 5, { errors: 50 })];
    const c = findCapacity(points, slo, 3);
    expect(c.rps).toBe(199);
    expect(c.firstBreachAt).toBe(2);
    expect(c.explanation).toMatch(/errors 16\.67% > 1%/);
  });

  it('dropped arrivals count as errors', () => {
    const c = findCapacity([sec(0, 100, 100, 5), sec(1, 150, 150, 5, { dropped: 50 })], slo, 2);
    expect(c).toMatchObject({ rps: 100, firstBreachAt: 1 });
  });

  it('an SLO that held throughout gives a lower bound, and the last partial second is not judged', () => {
    const c = findCapacity([sec(0, 100, 100, 5), sec(1, 200, 200, 5), sec(2, 900, 900, 5)], slo, 2);
    expect(c).toMatchObject({ rps: 200, firstBreachAt: null });
    expect(c.explanation).toContain('at least');
  });

  it('an SLO broken from the first second: no capacity', () => {
    expect(findCapacity([sec(0, 100, 100, 900)], slo, 1)).toMatchObject({ rps: null, firstBreachAt: 0 });
  });
});
