/** Turns trace records into the rate-limit analyzer's samples. Pure. */
import { normalizeRateLimitHeaders } from '../ratelimit/dialects.js';
import type { RateLimitSample } from '../ratelimit/sample.js';
import type { TraceRecord } from './record.js';

/**
 * One sample per answered request. Transport failures (status 0) are dropped: no response means no
 * rate-limit headers and nothing the limiter said. The spec's fields win; a record without them but with
 * raw `headers` is read through the dialect module (IETF structured or draft fields, X-RateLimit-*).
 */
export function traceToSamples(records: readonly TraceRecord[]): RateLimitSample[] {
  const out: RateLimitSample[] = [];
  for (const r of records) if (r.status !== 0) out.push(recordToSample(r));
  return out;
}

/** One answered record as a sample, its times shifted by `offsetMs` (shards placed on one clock). */
export function recordToSample(r: TraceRecord, offsetMs = 0): RateLimitSample {
  const s: RateLimitSample = { sentAt: r.t + offsetMs, receivedAt: r.t + r.latency + offsetMs, class: r.class, status: r.status };
  const spec = r.limit !== undefined || r.remaining !== undefined || r.reset !== undefined;
  if (spec || r.headers === undefined) {
    if (r.limit !== undefined) s.limit = r.limit;
    if (r.remaining !== undefined) s.remaining = r.remaining;
    if (r.reset !== undefined) s.reset = r.reset;
    if (r.retryAfter !== undefined) s.retryAfter = r.retryAfter;
  } else {
    const h = r.headers;
    const n = normalizeRateLimitHeaders((name) => h[name], r.epochMs);
    if (n.limit !== undefined) s.limit = n.limit;
    if (n.remaining !== undefined) s.remaining = n.remaining;
    if (n.reset !== undefined) s.reset = n.reset;
    const ra = r.retryAfter ?? n.retryAfter;
    if (ra !== undefined) s.retryAfter = ra;
    if (n.windowSeconds !== undefined) s.policyWindow = n.windowSeconds;
    if (n.dialect !== 'spec') s.dialect = n.dialect;
  }
  if (r.requestId !== undefined) s.requestId = r.requestId;
  if (r.errorCode !== undefined) s.errorCode = r.errorCode;
  if (r.bodyRecorded !== undefined) s.bodyRecorded = r.bodyRecorded;
  if (r.key !== undefined) s.key = r.key;
  return s;
}

/** The inverse, for tests and for tools that hold samples: a record per sample (method/path unknown). */
export function sampleToRecord(s: RateLimitSample, method = s.class === 'read' ? 'GET' : 'POST', path = '/'): TraceRecord {
  const r: TraceRecord = { t: s.sentAt, latency: Math.max(0, s.receivedAt - s.sentAt), class: s.class, method, path, status: s.status };
  if (s.limit !== undefined) r.limit = s.limit;
  if (s.remaining !== undefined) r.remaining = s.remaining;
  if (s.reset !== undefined) r.reset = s.reset;
  if (s.retryAfter !== undefined) r.retryAfter = s.retryAfter;
  if (s.requestId !== undefined) r.requestId = s.requestId;
  if (s.errorCode !== undefined) r.errorCode = s.errorCode;
  if (s.key !== undefined) r.key = s.key;
  return r;
}
