/** Turns trace records into the rate-limit analyzer's samples. Pure. */
import type { RateLimitSample } from '../ratelimit/sample.js';
import type { TraceRecord } from './record.js';

/**
 * One sample per answered request. Transport failures (status 0) are dropped: no response means no
 * rate-limit headers and nothing the limiter said.
 */
export function traceToSamples(records: readonly TraceRecord[]): RateLimitSample[] {
  const out: RateLimitSample[] = [];
  for (const r of records) {
    if (r.status === 0) continue;
    const s: RateLimitSample = { sentAt: r.t, receivedAt: r.t + r.latency, class: r.class, status: r.status };
    if (r.limit !== undefined) s.limit = r.limit;
    if (r.remaining !== undefined) s.remaining = r.remaining;
    if (r.reset !== undefined) s.reset = r.reset;
    if (r.retryAfter !== undefined) s.retryAfter = r.retryAfter;
    if (r.requestId !== undefined) s.requestId = r.requestId;
    if (r.errorCode !== undefined) s.errorCode = r.errorCode;
    if (r.key !== undefined) s.key = r.key;
    out.push(s);
  }
  return out;
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
