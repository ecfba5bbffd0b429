/**
 * One fold of the figures: the status tally of shards merged equals the tally of all their responses, and
 * the thresholds judged through the one threshold context agree (fast-check over random responses split
 * into random shards); the count metrics mean what the live run always counted.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { StatusTally, statusCounts } from '../../src/fold/tally.js';
import { thresholdContext } from '../../src/fold/threshold-context.js';
import { evaluateThreshold, parseThreshold } from '../../src/fold/threshold.js';
import { newHistogram } from '../../src/fold/hdr.js';
import type { RouteClass } from '../../src/results/schema.js';

const response = fc.record({
  cls: fc.constantFrom<RouteClass>('read', 'write'),
  status: fc.constantFrom(0, 200, 201, 204, 400, 404, 409, 429, 500, 503),
  shard: fc.integer({ min: 0, max: 3 }),
});
const EXPRESSIONS = [
  'completed > 3',
  'read.429 == 0',
  'write.2xx >= 2',
  '5xx == 0',
  'transport < 1',
  'errors < 10%',
  'read.errors <= 0.5',
  'rps > 1',
  'write.4xx != 0',
];

function judge(t: StatusTally): string[] {
  const ctx = thresholdContext({ tally: t, findings: [], seconds: 2, histogram: () => newHistogram(), sent: () => 0, dropped: () => 0 });
  return EXPRESSIONS.map((e) => {
    const p = parseThreshold(e);
    if (!p.ok) throw new Error(p.error);
    const o = evaluateThreshold(p.threshold, ctx);
    return `${o.ok} ${o.actual}`;
  });
}

describe('the fold of the figures', () => {
  it("property: merging the shards' tallies gives the tally of every response, and the same threshold outcomes", () => {
    fc.assert(
      fc.property(fc.array(response, { maxLength: 300 }), (rs) => {
        const all = new StatusTally();
        const shards = [0, 1, 2, 3].map(() => new StatusTally());
        for (const r of rs) {
          all.add(r.cls, r.status);
          shards[r.shard]!.add(r.cls, r.status);
        }
        const merged = shards.reduce((a, b) => a.merge(b), new StatusTally());
        expect(merged.byClass).toEqual(all.byClass);
        expect(merged.byStatusRecord()).toEqual(all.byStatusRecord());
        expect(judge(merged)).toEqual(judge(all));
      }),
      { numRuns: 200 },
    );
  });

  it("count metrics: families by the status's first digit, 429 apart, transport failures only in `transport`", () => {
    const t = new StatusTally();
    for (const [cls, st] of [
      ['read', 200],
      ['read', 429],
      ['read', 0],
      ['write', 503],
      ['write', 404],
      ['write', 201],
    ] as const)
      t.add(cls, st);
    expect([
      t.count('completed'),
      t.count('transport'),
      t.count('2xx'),
      t.count('4xx'),
      t.count('5xx'),
      t.count('429'),
      t.count('4xx', 'write'),
    ]).toEqual([5, 1, 2, 2, 1, 1, 1]);
    // Errors: transport failures and 4xx/5xx other than 429, over every response and failure.
    expect(t.errorRate('read')).toBeCloseTo(1 / 3);
    expect(t.errorRate('write')).toBeCloseTo(2 / 3);
    expect(new StatusTally().errorRate()).toBeNull();
    expect(statusCounts('4xx', 429)).toBe(true);
    expect(t.byStatusRecord()).toEqual({ '200': 1, '429': 1, error: 1, '503': 1, '404': 1, '201': 1 });
  });
});
