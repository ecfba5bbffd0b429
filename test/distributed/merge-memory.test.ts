/**
 * Regression: `merge` held every shard's samples and every second's latencies until the end, so its memory
 * grew with the responses merged. The fold now analyses online and reduces each second once it is over,
 * as a live run does; the figures it gives are the same.
 */
import { describe, expect, it } from 'vitest';
import { TraceFold } from '../../src/distributed/merge-fold.js';
import type { TraceRecord } from '../../src/trace/record.js';

const WINDOW_S = 1;
const LIMIT = 50;

/** A correct fixed-window limiter's responses: `perSecond` requests a second for `seconds` seconds. */
function* records(perSecond: number, seconds: number): Generator<TraceRecord> {
  for (let s = 0; s < seconds; s++) {
    for (let i = 0; i < perSecond; i++) {
      const t = s * 1000 + (i * 1000) / perSecond;
      const used = i + 1;
      const admitted = used <= LIMIT;
      yield {
        t,
        latency: 2,
        class: 'read',
        method: 'GET',
        path: '/customers',
        status: admitted ? 200 : 429,
        key: 'admin',
        limit: String(LIMIT),
        remaining: String(Math.max(0, LIMIT - used)),
        reset: String(Math.max(1, Math.ceil((1000 - (t % 1000)) / 1000))),
        ...(admitted ? {} : { retryAfter: '1', errorCode: 'rate_limit.exceeded' }),
      };
    }
  }
}

describe('merge fold memory', () => {
  it('holds a bounded number of samples whatever the number of records, with the same counts and timeline', () => {
    const maxSamples = 2000;
    const fold = new TraceFold({ expected: { read: { limit: LIMIT, windowSeconds: WINDOW_S } }, maxSamples }, 120_000);
    let n = 0;
    for (const r of records(400, 120)) {
      fold.add(0, 0, r, ++n);
    }
    expect(n).toBe(48_000);
    expect(fold.peakSamples).toBeLessThanOrEqual(maxSamples);
    expect(fold.tally.byClass.read.records).toBe(48_000);
    expect(fold.tally.byClass.read.byStatus.get(200)).toBe(120 * LIMIT);
    const timeline = fold.timeline([{ offsetMs: 0, timeline: [] }]);
    expect(timeline).toHaveLength(120);
    expect(timeline.every((p) => p.completed === 400 && p.refused.read === 400 - LIMIT && p.p99 === 2)).toBe(true);
    const analysis = fold.analysis();
    expect(analysis.violations).toEqual([]);
    expect(analysis.classes.find((c) => c.class === 'read')?.admitted).toBe(120 * LIMIT);
  });
});
