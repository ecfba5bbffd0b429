/**
 * The live metrics made from the fold, without I/O: counts and exact sums per class × family × method,
 * `le` buckets and exponential buckets derived from the fold's HDR histograms within the stated bound
 * (property-based), the last integer Remaining per class and key role, a fold that does not grow with the
 * number of responses, and series whose names all come from the name table, with sorted labels and `le`
 * buckets ending at +Inf.
 */
import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { metricsSnapshot, requestSeries } from '../../src/metrics/model.js';
import { exponentialOf, leBuckets, MAX_BUCKETS } from '../../src/metrics/buckets.js';
import { plainInteger } from '../../src/fold/last-remaining.js';
import { toMicros } from '../../src/fold/hdr.js';
import { rateLimitViolations } from '../../src/fold/threshold-context.js';
import { DURATION_BUCKETS, promLabelNames, promSeriesNames } from '../../src/metrics/names.js';
import { encodeWriteRequest, leOf, seriesOf } from '../../src/metrics/remote-write.js';
import type { RunFigures } from '../../src/metrics/source.js';
import type { FindingRecord } from '../../src/results/schema.js';
import { GET, GET2, GET_OTHER, POST, TestFold } from './support/fold.js';

const figures: RunFigures = { sent: { read: 7, write: 3 }, dropped: { read: 1, write: 0 } };
const run = { runId: 'r1', profile: 'smoke', shard: '0/1' };
const familyOf = (status: number): string =>
  status === 0 ? 'error' : status === 429 ? '429' : status >= 200 && status < 300 ? '2xx' : 'other';

/** How many of `us` (µs) the fold's HDR histograms may put at or below `boundUs`: at least those ≤ it, at most those within 1/1024 above. */
function within(us: number[], boundUs: number): [number, number] {
  return [us.filter((v) => v <= boundUs).length, us.filter((v) => v * (1 - 1 / 1024) <= boundUs).length];
}

const responses = fc.array(
  fc.record({ ms: fc.double({ min: 0, max: 90_000, noNaN: true }), status: fc.constantFrom(200, 429, 500, 0), post: fc.boolean() }),
  { maxLength: 300 },
);

describe('the snapshot of the fold', () => {
  it("counts per class × family × method exactly, with the exact sum, and le buckets within HDR's bound (any latencies)", () => {
    fc.assert(
      fc.property(responses, (rs) => {
        const fold = new TestFold();
        for (const r of rs) fold.add(r.post ? POST : GET, r.ms, r.status);
        const snap = metricsSnapshot(fold.snapshot(), figures, {}, 5);
        expect(snap.requests.reduce((a, s) => a + s.count, 0)).toBe(rs.length);
        for (const s of snap.requests) {
          const mine = rs.filter((r) => familyOf(r.status) === s.family && (r.post ? 'write' : 'read') === s.class);
          expect(s.method).toBe(s.class === 'write' ? 'POST' : 'GET');
          expect(s.count).toBe(mine.length);
          expect(s.sum).toBeCloseTo(
            mine.reduce((a, r) => a + r.ms / 1000, 0),
            6,
          );
          const us = mine.map((r) => toMicros(r.ms));
          const buckets = leBuckets(s, DURATION_BUCKETS);
          DURATION_BUCKETS.forEach((b, i) => {
            const [lo, hi] = within(us, Math.round(b * 1e6));
            expect(buckets[i]).toBeGreaterThanOrEqual(lo);
            expect(buckets[i]).toBeLessThanOrEqual(hi);
          });
          for (let i = 1; i < buckets.length; i++) expect(buckets[i]!).toBeGreaterThanOrEqual(buckets[i - 1]!);
          expect(buckets.at(-1)!).toBeLessThanOrEqual(s.count);
        }
      }),
    );
  });

  it('puts durations on a bucket bound, or clear of it, in the bucket they belong to', () => {
    const fold = new TestFold();
    // 0.5 ms and 1 ms exactly (HDR is exact below 2.048 ms), 5 ms and 10 ms exactly (bounds HDR holds), 10.2 ms.
    for (const ms of [0.5, 1, 5, 10, 10.2]) fold.add(GET, ms, 200);
    const r = metricsSnapshot(fold.snapshot(), figures, {}, 0).requests[0]!;
    const b = leBuckets(r, DURATION_BUCKETS);
    const at = (bound: number): number => b[DURATION_BUCKETS.indexOf(bound)]!;
    expect([at(0.0005), at(0.001), at(0.0025), at(0.005), at(0.01), at(0.025)]).toEqual([1, 2, 2, 3, 4, 5]);
  });

  it("makes an exponential histogram of at most 160 buckets whose every value lies in its bucket, within HDR's bound", () => {
    fc.assert(
      fc.property(fc.array(fc.double({ min: 0.001, max: 60_000, noNaN: true }), { minLength: 1, maxLength: 300 }), (ms) => {
        const fold = new TestFold();
        for (const v of ms) fold.add(GET, v, 200);
        const r = requestSeries(fold.snapshot().series[0]!);
        const e = exponentialOf(r);
        expect(e.bucketCounts.length).toBeLessThanOrEqual(MAX_BUCKETS);
        expect(e.bucketCounts.reduce((a, c) => a + c, 0)).toBe(ms.length);
        // The largest scale that fits: at one more, the same values would need more than 160 buckets.
        if (e.scale < 20) {
          const at = (v: number): number => Math.ceil(Math.log2(v) * 2 ** (e.scale + 1)) - 1;
          expect(at(r.lows.at(-1)!) - at(r.lows[0]!) + 1).toBeGreaterThan(MAX_BUCKETS);
        }
        const base = 2 ** (2 ** -e.scale);
        const filled = e.bucketCounts
          .map((c, k) => [e.offset + k, c] as const)
          .filter(([, c]) => c > 0)
          .map(([i]) => i);
        for (const v of ms) {
          // HDR counts the value at its bucket's lowest value, at most 1/1024 below it: the exponential
          // bucket holding that (base^i, base^(i+1)] must be one of the filled ones.
          const s = toMicros(v) / 1e6;
          const ok = filled.some((i) => base ** i < s * (1 + 1e-12) && base ** (i + 1) >= s * (1 - 1 / 1024) * (1 - 1e-12));
          expect(ok, `${s}s at scale ${e.scale}`).toBe(true);
        }
      }),
    );
  });

  it('keeps the last integer RateLimit-Remaining per class and key role, ignoring malformed values and transport failures', () => {
    const fold = new TestFold();
    fold.add(GET, 1, 200, '9');
    fold.add(GET, 1, 200, '8');
    fold.add(GET, 1, 200, 'soon');
    fold.add(GET, 1, 200, '-1');
    fold.add(GET2, 1, 200, '40');
    fold.add(POST, 1, 429, '0');
    fold.add(POST, 1, 0, '77');
    fold.add(POST, 1, 200);
    expect(metricsSnapshot(fold.snapshot(), figures, {}, 0).remaining).toEqual([
      { class: 'read', keyRole: 'admin', value: 8 },
      { class: 'read', keyRole: 'readOnly', value: 40 },
      { class: 'write', keyRole: 'admin', value: 0 },
    ]);
    // Two routes of one class and key role: the gauge is the latest of either.
    fold.add(GET_OTHER, 1, 200, '5');
    expect(metricsSnapshot(fold.snapshot(), figures, {}, 0).remaining[0]).toEqual({ class: 'read', keyRole: 'admin', value: 5 });
    fold.add(GET, 1, 200, '4');
    expect(metricsSnapshot(fold.snapshot(), figures, {}, 0).remaining[0]).toEqual({ class: 'read', keyRole: 'admin', value: 4 });
    fold.add(GET_OTHER, 1, 200, '3');
    expect(metricsSnapshot(fold.snapshot(), figures, {}, 0).remaining[0]).toEqual({ class: 'read', keyRole: 'admin', value: 3 });
    expect(['7', ' 12 ', '', '1e3', '0x1', '1234567890123456', '+3'].map(plainInteger)).toEqual([7, 12, -1, -1, -1, -1, -1]);
  });

  it('the fold does not grow with the number of responses (cumulative state only)', () => {
    const fold = new TestFold();
    const routes = [GET, GET2, POST];
    const size = (): number[] => fold.snapshot().series.map((s) => s.histogram.estimatedFootprintInBytes);
    for (let i = 0; i < 2_000; i++) fold.add(routes[i % 3]!, i % 37, i % 11 === 0 ? 429 : 200, String(i % 100));
    const after2k = size();
    for (let i = 0; i < 200_000; i++) fold.add(routes[i % 3]!, i % 97, i % 11 === 0 ? 429 : 200, String(i % 100));
    expect(size()).toEqual(after2k);
    expect(metricsSnapshot(fold.snapshot(), figures, {}, 0).requests.reduce((a, s) => a + s.count, 0)).toBe(202_000);
  });
});

describe('rateLimitViolations', () => {
  it('counts the findings of rate-limit clauses, as the ratelimit.violations threshold does', () => {
    const f = (clause: string): FindingRecord => ({ clause }) as FindingRecord;
    expect(rateLimitViolations([f('8.ratelimit.over-admission'), f('8.ratelimit.429-code'), f('7.errors.envelope'), f('4.4.cursor')])).toBe(
      2,
    );
  });
});

describe('remote-write series', () => {
  const fold = new TestFold();
  fold.add(GET, 3, 200, '5');
  fold.add(POST, 700, 429, '0');
  const snap = metricsSnapshot(fold.snapshot(), { ...figures, violations: 2 }, { eventLoopDelayMax: 0.012 }, 1_764_000_000_123);
  const series = seriesOf(snap, run);

  it('names only series and labels of the name table, labels sorted, every series with the run labels', () => {
    const names = new Set(promSeriesNames());
    const labels = new Set(promLabelNames());
    for (const s of series) {
      const ls = s.labels.map((l) => l.name);
      expect([...ls].sort()).toEqual(ls);
      for (const l of ls) expect(labels).toContain(l);
      expect(names).toContain(s.labels.find((l) => l.name === '__name__')!.value);
      expect(Object.fromEntries(s.labels.map((l) => [l.name, l.value]))).toMatchObject({
        spgate_run_id: 'r1',
        spgate_profile: 'smoke',
        spgate_shard: '0/1',
        job: 'spgate',
      });
      expect(s.samples).toEqual([{ value: expect.any(Number), timestamp: 1_764_000_000_123 }]);
    }
  });

  it('writes each histogram as le buckets up to +Inf (= _count), _sum and _count', () => {
    const of = (name: string, cls: string): { le?: string; value: number }[] =>
      series
        .filter(
          (s) =>
            s.labels.some((l) => l.name === '__name__' && l.value === name) &&
            s.labels.some((l) => l.name === 'spgate_route_class' && l.value === cls),
        )
        .map((s) => ({ le: s.labels.find((l) => l.name === 'le')?.value, value: s.samples[0]!.value }));
    const buckets = of('http_client_request_duration_seconds_bucket', 'write');
    expect(buckets.map((b) => b.le)).toEqual([...DURATION_BUCKETS.map(leOf), '+Inf']);
    // 700 ms: above 0.5 s, at or below 0.75 s.
    expect(buckets.find((b) => b.le === '0.5')!.value).toBe(0);
    expect(buckets.find((b) => b.le === '0.75')!.value).toBe(1);
    expect(buckets.at(-1)!.value).toBe(1);
    expect(of('http_client_request_duration_seconds_count', 'write')).toEqual([{ value: 1 }]);
    expect(of('http_client_request_duration_seconds_sum', 'write')).toEqual([{ value: 0.7 }]);
    expect(of('spgate_requests_sent_total', 'read')).toEqual([{ value: 7 }]);
    expect(of('spgate_arrivals_dropped_total', 'read')).toEqual([{ value: 1 }]);
  });

  it('writes violations and lag only when known', () => {
    const names = (ss: typeof series): string[] => ss.map((s) => s.labels.find((l) => l.name === '__name__')!.value);
    expect(names(series)).toContain('spgate_ratelimit_violations');
    expect(names(series)).toContain('spgate_generator_event_loop_delay_seconds');
    expect(names(series)).not.toContain('spgate_generator_send_slip_seconds');
    const bare = seriesOf(metricsSnapshot(fold.snapshot(), figures, {}, 1), run);
    expect(names(bare)).not.toContain('spgate_ratelimit_violations');
    expect(names(bare)).not.toContain('spgate_generator_event_loop_delay_seconds');
  });

  it("encodes a Snappy-compressed body (the real decoding is Prometheus's, in prometheus.test.ts)", () => {
    const body = encodeWriteRequest(snap, run);
    expect(body.byteLength).toBeGreaterThan(0);
    // Snappy's block format starts with the uncompressed length as a varint: larger than the body here.
    let len = 0;
    let shift = 0;
    for (let i = 0; ; i++) {
      len += (body[i]! & 0x7f) * 2 ** shift;
      shift += 7;
      if (body[i]! < 0x80) break;
    }
    expect(len).toBeGreaterThan(body.byteLength);
  });
});
