/**
 * The live metrics' fold and the remote-write series made from it, without I/O: status families as the
 * results name them, cumulative buckets that agree with the count (property-based), the last integer
 * Remaining per class and key role, state that does not grow with the number of responses, and series whose
 * names all come from the name table, with sorted labels and `le` buckets ending at +Inf.
 */
import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { MetricsState, statusFamily } from '../../src/metrics/model.js';
import { rateLimitViolations } from '../../src/fold/threshold-context.js';
import { DURATION_BUCKETS, promLabelNames, promSeriesNames } from '../../src/metrics/names.js';
import { encodeWriteRequest, leOf, seriesOf } from '../../src/metrics/remote-write.js';
import type { ObservedRoute, RunFigures } from '../../src/metrics/source.js';
import type { FindingRecord } from '../../src/results/schema.js';

const GET: ObservedRoute = { class: 'read', method: 'GET', keyRole: 'admin' };
const GET2: ObservedRoute = { class: 'read', method: 'GET', keyRole: 'readOnly' };
const POST: ObservedRoute = { class: 'write', method: 'POST', keyRole: 'admin' };
const figures: RunFigures = { sent: { read: 7, write: 3 }, dropped: { read: 1, write: 0 } };
const run = { runId: 'r1', profile: 'smoke', shard: '0/1' };

describe('statusFamily', () => {
  it('names families as the results do, transport failures as error', () => {
    expect([200, 204, 299, 429, 400, 404, 500, 503, 301, 0].map(statusFamily)).toEqual(['2xx', '2xx', '2xx', '429', 'other', 'other', 'other', 'other', 'other', 'error']);
  });
});

describe('MetricsState', () => {
  it('counts per class × family × method, with cumulative buckets that end at the count (any latencies)', () => {
    fc.assert(fc.property(fc.array(fc.record({ ms: fc.double({ min: 0, max: 90_000, noNaN: true }), status: fc.constantFrom(200, 429, 500, 0), post: fc.boolean() }), { maxLength: 300 }), (rs) => {
      const st = new MetricsState();
      for (const r of rs) st.onResponse({ sent: 1000, received: 1000 + r.ms, status: r.status }, r.post ? POST : GET);
      const snap = st.snapshot(figures, {}, 5);
      const total = snap.requests.reduce((a, s) => a + s.count, 0);
      expect(total).toBe(rs.length);
      for (const s of snap.requests) {
        const mine = rs.filter((r) => statusFamily(r.status) === s.family && (r.post ? 'write' : 'read') === s.class);
        expect(s.count).toBe(mine.length);
        expect(s.sum).toBeCloseTo(mine.reduce((a, r) => a + r.ms / 1000, 0), 6);
        DURATION_BUCKETS.forEach((b, i) => expect(s.buckets[i]).toBe(mine.filter((r) => r.ms / 1000 <= b).length));
        for (let i = 1; i < s.buckets.length; i++) expect(s.buckets[i]!).toBeGreaterThanOrEqual(s.buckets[i - 1]!);
        expect(s.buckets.at(-1)!).toBeLessThanOrEqual(s.count);
      }
    }));
  });

  it('keeps the last integer RateLimit-Remaining per class and key role, ignoring malformed values and transport failures', () => {
    const st = new MetricsState();
    st.onResponse({ sent: 0, received: 1, status: 200, remaining: '9' }, GET);
    st.onResponse({ sent: 0, received: 1, status: 200, remaining: '8' }, GET);
    st.onResponse({ sent: 0, received: 1, status: 200, remaining: 'soon' }, GET);
    st.onResponse({ sent: 0, received: 1, status: 200, remaining: '-1' }, GET);
    st.onResponse({ sent: 0, received: 1, status: 200, remaining: '40' }, GET2);
    st.onResponse({ sent: 0, received: 1, status: 429, remaining: '0' }, POST);
    st.onResponse({ sent: 0, received: 1, status: 0, remaining: '77' }, POST);
    st.onResponse({ sent: 0, received: 1, status: 200 }, POST);
    expect(st.snapshot(figures, {}, 0).remaining).toEqual([
      { class: 'read', keyRole: 'admin', value: 8 },
      { class: 'read', keyRole: 'readOnly', value: 40 },
      { class: 'write', keyRole: 'admin', value: 0 },
    ]);
  });

  it('does not grow with the number of responses (cumulative state only)', () => {
    const st = new MetricsState();
    const routes = [GET, GET2, POST];
    for (let i = 0; i < 2_000; i++) st.onResponse({ sent: i, received: i + (i % 37), status: i % 11 === 0 ? 429 : 200, remaining: String(i % 100) }, routes[i % 3]!);
    const after2k = st.seriesCount;
    for (let i = 0; i < 200_000; i++) st.onResponse({ sent: i, received: i + (i % 97), status: i % 11 === 0 ? 429 : 200, remaining: String(i % 100) }, routes[i % 3]!);
    expect(st.seriesCount).toBe(after2k);
    expect(st.snapshot(figures, {}, 0).requests.reduce((a, s) => a + s.count, 0)).toBe(202_000);
  });
});

describe('rateLimitViolations', () => {
  it('counts the findings of rate-limit clauses, as the ratelimit.violations threshold does', () => {
    const f = (clause: string): FindingRecord => ({ clause } as FindingRecord);
    expect(rateLimitViolations([f('8.ratelimit.over-admission'), f('8.ratelimit.429-code'), f('7.errors.envelope'), f('4.4.cursor')])).toBe(2);
  });
});

describe('remote-write series', () => {
  const st = new MetricsState();
  st.onResponse({ sent: 0, received: 3, status: 200, remaining: '5' }, GET);
  st.onResponse({ sent: 0, received: 700, status: 429, remaining: '0' }, POST);
  const snap = st.snapshot({ ...figures, violations: 2 }, { eventLoopDelayMax: 0.012 }, 1_764_000_000_123);
  const series = seriesOf(snap, run);

  it('names only series and labels of the name table, labels sorted, every series with the run labels', () => {
    const names = new Set(promSeriesNames());
    const labels = new Set(promLabelNames());
    for (const s of series) {
      const ls = s.labels.map((l) => l.name);
      expect([...ls].sort()).toEqual(ls);
      for (const l of ls) expect(labels).toContain(l);
      expect(names).toContain(s.labels.find((l) => l.name === '__name__')!.value);
      expect(Object.fromEntries(s.labels.map((l) => [l.name, l.value]))).toMatchObject({ spgate_run_id: 'r1', spgate_profile: 'smoke', spgate_shard: '0/1', job: 'spgate' });
      expect(s.samples).toEqual([{ value: expect.any(Number), timestamp: 1_764_000_000_123 }]);
    }
  });

  it('writes each histogram as le buckets up to +Inf (= _count), _sum and _count', () => {
    const of = (name: string, cls: string): { le?: string; value: number }[] => series
      .filter((s) => s.labels.some((l) => l.name === '__name__' && l.value === name) && s.labels.some((l) => l.name === 'spgate_route_class' && l.value === cls))
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
    const bare = seriesOf(st.snapshot(figures, {}, 1), run);
    expect(names(bare)).not.toContain('spgate_ratelimit_violations');
    expect(names(bare)).not.toContain('spgate_generator_event_loop_delay_seconds');
  });

  it('encodes a Snappy-compressed body (the real decoding is Prometheus\'s, in prometheus.test.ts)', () => {
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
