/**
 * The online aggregator without a network: a long synthetic run (a fixed-window limiter answering
 * responses in completion order) folds into totals, histograms, timeline and series that count every
 * response, while the rate-limit analysis never holds more than its bound; the same stream with a broken
 * limiter is caught. Regression for "memory grows by about 1 KB per request" (issue 11).
 */
import { describe, expect, it } from 'vitest';
import { analyzeRateLimits } from '../../src/ratelimit/analyze.js';
import { LoadAggregator } from '../../src/load/aggregate.js';
import { toRateLimitSample } from '../../src/load/verify.js';
import { planProfile } from '../../src/load/plan.js';
import { parseProfile } from '../../src/load/profile.js';
import { LoadRecorder } from '../../src/load/load-recorder.js';
import type { SampleInput } from '../../src/load/samples.js';
import { ProfileResult } from '../../src/results/schema.js';
import { targetFromInput } from '../../src/target/resolve.js';

const target = targetFromInput({ baseUrl: 'http://127.0.0.1:9/v1', keys: { admin: { key: 'pk_test_aggregate_0123456789' } } }, 'test');
const profile = parseProfile(
  { name: 'agg', description: 'd', model: 'closed', duration: 60, classes: { read: { connections: 4, routes: [{ route: 'me' }] } } },
  'test',
);

/** `n` responses 2 ms apart, from a fixed-window limiter of `limit` per second (over-admitting when asked). */
function* stream(n: number, limit: number, overAdmit = 0): Generator<SampleInput> {
  for (let i = 0; i < n; i++) {
    const sent = i * 2;
    const received = sent + 1;
    const w = Math.floor(sent / 1000);
    const used = i - Math.ceil((w * 1000) / 2) + 1;
    const admitted = used <= limit + overAdmit;
    const remaining = Math.max(0, limit - used);
    const reset = String(Math.max(1, Math.ceil((w * 1000 + 1000 - received) / 1000)));
    yield {
      route: 0,
      intended: NaN,
      sent,
      received,
      status: admitted ? 200 : 429,
      limit: String(limit),
      remaining: String(remaining),
      reset,
      retryAfter: admitted ? undefined : reset,
      requestId: `req_${i}`,
      errorCode: admitted ? undefined : 'rate_limit.exceeded',
    };
  }
}

function run(samples: Iterable<SampleInput>, maxSamples: number) {
  const plan = planProfile(profile, target);
  const agg = new LoadAggregator({ plan, target, rateLimit: { maxSamples } });
  const rec = new LoadRecorder(agg);
  let last = 0;
  for (const s of samples) {
    rec.sent('read', s.sent);
    rec.response(s);
    last = s.received;
  }
  const out = agg.finish({ rec, startedAt: new Date(0), elapsedMs: last, aborted: false });
  return { ...out, peak: agg.rateLimit.peakRetained, chunks: agg.rateLimit.chunkCount };
}

describe('online aggregation of a long run', () => {
  it('counts every one of 60,000 responses while holding at most the analyzer bound', () => {
    const { result, findings, peak, chunks } = run(stream(60_000, 50), 5000);
    expect(ProfileResult.safeParse(result).success).toBe(true);
    expect(peak).toBeLessThanOrEqual(5000);
    // Runs of identical refusals fold, so chunks are cut by time (30 windows) rather than by the bound.
    expect(chunks).toBeGreaterThanOrEqual(4);
    expect(result.totals.completed).toBe(60_000);
    expect(result.totals.byStatus['200']! + result.totals.byStatus['429']!).toBe(60_000);
    expect(result.totals.byStatus['200']).toBe(120 * 50);
    expect(result.timeline.reduce((n, p) => n + p.completed, 0)).toBe(60_000);
    expect(result.latency.reduce((n, l) => n + l.count, 0)).toBe(60_000);
    const cls = result.rateLimit.classes[0]!;
    expect([cls.samples, cls.admitted, cls.refused, cls.observedLimit]).toEqual([60_000, 6000, 54_000, 50]);
    // Window rows count every response once, however the chunks cut the windows (folded refusals included).
    expect(cls.windows.reduce((n, w) => n + w.admitted, 0)).toBe(6000);
    expect(cls.windows.reduce((n, w) => n + w.refused, 0)).toBe(54_000);
    expect(result.rateLimit.violations).toEqual([]);
    expect(findings).toEqual([]);
    expect(result.rateLimitSeries!.read.reduce((n, b) => n + b[3], 0)).toBe(54_000);
  });

  it('still catches a limiter that over-admits, in every chunk, citing requests', () => {
    const { result, findings, peak } = run(stream(60_000, 50, 3), 5000);
    expect(peak).toBeLessThanOrEqual(5000);
    const rules = new Set(result.rateLimit.violations.map((v) => v.rule));
    expect(rules.has('8.ratelimit.over-admission')).toBe(true);
    const f = findings.find((x) => x.clause === '8.ratelimit.over-admission')!;
    expect(f.actual).toMatch(/req_\d+/);
    // One row per window as the batch analyzer gives, across every chunk (no window lost at a cut, none
    // reported twice); rows past the cap are counted in the last one.
    const rows = result.rateLimit.violations.filter((v) => v.rule === '8.ratelimit.over-admission');
    const more = Number(/; (\d+) more rows/.exec(rows[rows.length - 1]!.message)?.[1] ?? 0);
    const batch = analyzeRateLimits([...stream(60_000, 50, 3)].map((s) => toRateLimitSample(s, planProfile(profile, target).routes[0]!)!));
    const batchRows = batch.violations.filter((v) => v.rule === '8.ratelimit.over-admission').length;
    expect(rows.length).toBe(Math.min(100, batchRows));
    expect(rows.length + more).toBe(batchRows);
  });
});

describe('the watermark of in-flight sends (an engine that records each send as it goes out)', () => {
  it('hands the sink the earliest send still in flight with each response; none without sendsAsTheyGo', () => {
    const seen: Array<[number, number | undefined]> = [];
    const sink = { add: (s: SampleInput, w?: number) => void seen.push([s.sent, w]) };
    const rec = new LoadRecorder(sink, { sendsAsTheyGo: true });
    const res = (sent: number, received: number): SampleInput => ({ route: 0, intended: NaN, sent, received, status: 200 });
    for (const at of [1, 2, 3, 3]) rec.sent('read', at);
    rec.response(res(2, 5));
    rec.response(res(3, 6));
    rec.response(res(1, 7));
    rec.response({ ...res(3, 8), status: 0, error: 'reset' });
    // With nothing left in flight, the watermark is the response's time: later sends go out after it.
    expect(seen).toEqual([
      [2, 1],
      [3, 1],
      [1, 3],
      [3, 8],
    ]);
    const blind: Array<number | undefined> = [];
    const closed = new LoadRecorder({ add: (_s, w) => void blind.push(w) });
    closed.sent('read', 1);
    closed.response(res(1, 2));
    expect(blind).toEqual([undefined]);
  });

  it("a live fold of connections interleaved across window starts gives the batch analysis's window rows exactly", () => {
    // Eight connections against a fixed window of 10 per second; window starts see refusals answered
    // before the same window's (slow) admissions.
    const plan = planProfile(profile, target);
    const agg = new LoadAggregator({ plan, target, rateLimit: { maxSamples: 100_000 } });
    const rec = new LoadRecorder(agg, { sendsAsTheyGo: true });
    const sends: SampleInput[] = [];
    for (let w = 0; w < 8; w++) {
      for (let i = 0; i < 30; i++) {
        const sent = w * 1000 + 1 + i * 20;
        const admitted = i < 10;
        sends.push({
          route: 0,
          intended: NaN,
          sent,
          received: sent + (admitted && w > 0 ? 250 : 1),
          status: admitted ? 200 : 429,
          limit: '10',
          remaining: String(admitted ? 9 - i : 0),
          reset: '1',
          retryAfter: admitted ? undefined : '1',
          requestId: `req_${w}_${i}`,
          errorCode: admitted ? undefined : 'rate_limit.exceeded',
        });
      }
    }
    // Every send goes out in time order, every response comes back in time order, interleaved.
    const events = [...sends.map((s) => ({ at: s.sent, s, send: true })), ...sends.map((s) => ({ at: s.received, s, send: false }))].sort(
      (a, b) => a.at - b.at || Number(a.send) - Number(b.send),
    );
    for (const e of events) {
      if (e.send) rec.sent('read', e.s.sent);
      else rec.response(e.s);
    }
    const { result } = agg.finish({ rec, startedAt: new Date(0), elapsedMs: 8000, aborted: false });
    const route = plan.routes[0]!;
    const batch = analyzeRateLimits(
      [...sends].sort((a, b) => a.received - b.received).map((s) => toRateLimitSample(s, route)!),
      { expected: target.assumptions.rateLimit },
    );
    expect(result.rateLimit.classes.map((c) => c.windows)).toEqual(batch.classes.map((c) => c.windows));
    expect(result.rateLimit.classes[0]!.windows.slice(1, 7).every((w) => w.admitted === 10 && w.refused === 20)).toBe(true);
  });
});

describe('live outputs: attach and snapshot()', () => {
  it('an attached output reads the fold: per class × method × family counts and sums, the last Remaining, equal to the result', () => {
    const plan = planProfile(profile, target);
    const attached: Array<{ snapshot(): ReturnType<LoadAggregator['snapshot']> }> = [];
    const agg = new LoadAggregator({
      plan,
      target,
      rateLimit: { maxSamples: 2000 },
      observers: [{ attach: (f) => void attached.push(f) }],
    });
    expect(attached).toEqual([agg]);
    const rec = new LoadRecorder(agg);
    let last = 0;
    let sumMs = 0;
    let lastRemaining = '';
    for (const s of stream(20_000, 50, 3)) {
      rec.sent('read', s.sent);
      rec.response(s);
      last = s.received;
      if (s.status === 200) sumMs += s.received - s.sent;
      lastRemaining = s.remaining!;
    }
    rec.sent('read', last);
    // A transport failure: counted in family `error`, its header ignored.
    rec.response({ route: 0, intended: NaN, sent: last, received: last + 7, status: 0, error: 'connection reset', remaining: '999' });
    const snap = attached[0]!.snapshot();
    const { result } = agg.finish({ rec, startedAt: new Date(0), elapsedMs: last + 7, aborted: false });
    const byStatus = result.totals.byStatus;
    const method = plan.routes[0]!.method;
    const counts = Object.fromEntries(snap.series.map((x) => [`${x.class}|${x.method}|${x.family}`, x.histogram.totalCount]));
    expect(counts).toEqual({
      [`read|${method}|2xx`]: byStatus['200'],
      [`read|${method}|429`]: byStatus['429'],
      [`read|${method}|error`]: 1,
    });
    for (const fam of ['2xx', '429'] as const) {
      const summary = result.latency.find((l) => l.class === 'read' && l.family === fam && !l.corrected)!;
      expect(snap.series.find((x) => x.family === fam)!.histogram.totalCount).toBe(summary.count);
    }
    expect(snap.series.find((x) => x.family === '2xx')!.sumMs).toBeCloseTo(sumMs, 6);
    expect(snap.series.find((x) => x.family === 'error')!.sumMs).toBe(7);
    expect(snap.remaining).toEqual([{ class: 'read', keyRole: plan.routes[0]!.keyRole, value: Number(lastRemaining) }]);
  });
});
