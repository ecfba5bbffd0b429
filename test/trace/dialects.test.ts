/**
 * Traces of other APIs and gateways: records that carry only raw `headers` of another dialect are
 * normalized on the way to the analyzer, which names the dialect and never rests a spec finding on it.
 */
import { describe, expect, it } from 'vitest';
import { analyzeRateLimits } from '../../src/ratelimit/analyze.js';
import { formatAnalysis } from '../../src/ratelimit/format.js';
import type { RateLimitSample } from '../../src/ratelimit/sample.js';
import { parseTraceLine } from '../../src/trace/reader.js';
import type { TraceRecord } from '../../src/trace/record.js';
import { traceToSamples } from '../../src/trace/samples.js';
import { simulate, type SimOptions } from '../ratelimit/simulators.js';

const T0_EPOCH = 1_700_000_000_000;

type Style = 'x-ratelimit-epoch' | 'x-ratelimit-delta' | 'ietf-structured' | 'ietf-draft';

/** Re-expresses a simulated spec-header sample in another dialect, as a gateway would send it. */
function toRecord(s: RateLimitSample, style: Style, windowSeconds: number): TraceRecord {
  const headers: Record<string, string> = {};
  const reset = Number(s.reset);
  if (style === 'x-ratelimit-epoch' || style === 'x-ratelimit-delta') {
    headers['x-ratelimit-limit'] = s.limit!;
    headers['x-ratelimit-remaining'] = s.remaining!;
    headers['x-ratelimit-reset'] =
      style === 'x-ratelimit-delta' ? String(reset) : String(Math.ceil((T0_EPOCH + s.receivedAt) / 1000) + reset);
  } else if (style === 'ietf-structured') {
    headers['ratelimit'] = `"default";r=${s.remaining};t=${reset}`;
    headers['ratelimit-policy'] = `"default";q=${s.limit};w=${windowSeconds}`;
  } else {
    headers['ratelimit'] = `limit=${s.limit}, remaining=${s.remaining}, reset=${reset}`;
    headers['ratelimit-policy'] = `${s.limit};w=${windowSeconds}`;
  }
  if (s.retryAfter !== undefined) headers['retry-after'] = s.retryAfter;
  const r: TraceRecord = {
    t: s.sentAt,
    latency: s.receivedAt - s.sentAt,
    class: s.class,
    method: 'GET',
    path: '/things',
    status: s.status,
    headers,
    epochMs: T0_EPOCH + s.receivedAt,
  };
  if (s.requestId !== undefined) r.requestId = s.requestId;
  // Another API's 429 body is not the spec's envelope.
  if (s.status === 429) r.errorCode = 'too_many_requests';
  return r;
}

const sim = (bug: SimOptions['bug']): SimOptions => ({
  model: 'fixed',
  bug,
  limit: 10,
  windowMs: 3000,
  count: 600,
  meanGapMs: 40,
  minLatencyMs: 1,
  maxLatencyMs: 8,
  reportBefore: false,
  lazyWindows: false,
  startOffsetMs: 0,
  classes: ['read'],
  seed: 5,
});

const styles: Style[] = ['x-ratelimit-epoch', 'x-ratelimit-delta', 'ietf-structured', 'ietf-draft'];

describe('traces in other header dialects', () => {
  for (const style of styles) {
    it(`${style}: a correct limiter gives no violation and the explanation names the dialect`, () => {
      const records = simulate(sim('none')).map((s) => toRecord(s, style, 3));
      // Records with headers survive the trace reader's validation.
      const back = records.map((r) => parseTraceLine(JSON.stringify(r)));
      expect(back.every((b) => b.ok)).toBe(true);
      const samples = traceToSamples(records);
      const dialect = style.startsWith('x-') ? 'x-ratelimit' : style;
      expect(samples.every((s) => s.dialect === dialect)).toBe(true);
      const a = analyzeRateLimits(samples);
      expect(a.violations).toEqual([]);
      expect(a.classes[0]!.dialects).toEqual([dialect]);
      expect(a.classes[0]!.explanation).toContain(`headers: ${dialect} dialect`);
      expect(a.classes[0]!.observedLimit).toBe(10);
    });

    it(`${style}: two stores are over-admission, with the dialect (not the spec) as the basis`, () => {
      const a = analyzeRateLimits(traceToSamples(simulate(sim('two-stores')).map((s) => toRecord(s, style, 3))));
      const over = a.violations.find((v) => v.rule === '8.ratelimit.over-admission');
      expect(over).toBeDefined();
      expect(a.violations.every((v) => v.dialect !== undefined)).toBe(true);
      expect(formatAnalysis(a)).toContain('standard: ');
      expect(formatAnalysis(a)).not.toMatch(/\(§8, spec\)/);
    });
  }

  it('the policy window drives the bounds when the dialect announces one', () => {
    const a = analyzeRateLimits(traceToSamples(simulate(sim('none')).map((s) => toRecord(s, 'ietf-structured', 3))));
    expect(a.classes[0]!.windowSeconds).toBe(3);
    expect(a.classes[0]!.observedWindowSeconds).toBe(3);
  });

  it("a response without the spec's headers among spec responses lacks them (spec finding)", () => {
    const samples = simulate(sim('none'));
    const records = samples.map((s, i) =>
      i === 5
        ? toRecord(s, 'x-ratelimit-delta', 3)
        : {
            ...toRecord(s, 'x-ratelimit-delta', 3),
            headers: undefined,
            limit: s.limit!,
            remaining: s.remaining!,
            reset: s.reset!,
            ...(s.retryAfter ? { retryAfter: s.retryAfter } : {}),
            ...(s.status === 429 ? { errorCode: 'rate_limit.exceeded' } : {}),
          },
    );
    const a = analyzeRateLimits(traceToSamples(records as TraceRecord[]));
    expect(a.violations.map((v) => v.rule)).toEqual(['8.ratelimit.headers']);
    expect(a.violations[0]!.message).toContain('x-ratelimit headers instead');
    expect(a.violations[0]!.dialect).toBeUndefined();
  });
});
