/**
 * The trace record of one response as a load run hands it over (the aggregator's trace hook). Pure; the
 * writer sanitises it.
 */
import type { PlannedRoute } from './plan.js';
import type { SampleInput } from './samples.js';
import type { TraceRecord } from '../trace/record.js';

/**
 * `t` is the actual send and `latency` runs from it; `intended` is written only when the request had an
 * intended send time (open model) other than its send, so the merge of shards can correct for the queue's
 * lag exactly as the live run does, while closed-model traces stay as small as before.
 */
export function responseRecord(s: SampleInput, route: PlannedRoute): TraceRecord {
  const r: TraceRecord = {
    t: Math.max(0, s.sent),
    latency: Math.max(0, s.received - s.sent),
    class: route.class,
    method: route.method,
    path: route.template,
    status: s.status,
    limit: s.limit,
    remaining: s.remaining,
    reset: s.reset,
    retryAfter: s.retryAfter,
    requestId: s.requestId,
    errorCode: s.errorCode,
    key: route.keyName,
    error: s.error,
  };
  if (Number.isFinite(s.intended) && s.intended !== s.sent) r.intended = Math.max(0, s.intended);
  return r;
}
