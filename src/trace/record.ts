/**
 * One line of an NDJSON trace (`--trace FILE`): every response of a load run, with no secrets. Traces are
 * the input of `spgate analyze` and `spgate replay`, and may be captured by other tools.
 */
import { z } from 'zod';
import { RouteClass } from '../spec/routes.js';

export const TraceRecord = z.object({
  /** ms since the run started, when the request was actually sent. */
  t: z.number().nonnegative(),
  /** ms from the actual send (`t`) to the response's last byte (or to the error): both load engines measure to the complete response. */
  latency: z.number().nonnegative(),
  /**
   * ms since the run started, when the request was intended to go out (open model: its arrival on the
   * schedule). Written only when it differs from `t`, so closed-model traces, traces of older versions and
   * of other tools have none: their latency is from the send. With it, the coordinated-omission corrected
   * latency is `t + latency - intended` (see traceLatency in latency.ts).
   */
  intended: z.number().nonnegative().optional(),
  class: RouteClass,
  method: z.string(),
  /** Route template, e.g. "/customers" or "/conversations/{conversationId}/assign" — never a signed URL. */
  path: z.string(),
  /** 0 when the request failed at the transport level (see `error`). */
  status: z.number().int().nonnegative(),
  limit: z.string().optional(),
  remaining: z.string().optional(),
  reset: z.string().optional(),
  retryAfter: z.string().optional(),
  requestId: z.string().optional(),
  errorCode: z.string().optional(),
  /** False when no body was recorded for the response (a HAR without content): its error code is unknown, not absent. */
  bodyRecorded: z.boolean().optional(),
  /** Key role the request used (never the key itself). */
  key: z.string().optional(),
  error: z.string().optional(),
  /**
   * Raw rate-limit-related response headers, lower-case names (RateLimit, RateLimit-Policy,
   * X-RateLimit-*, …), for traces of other APIs and gateways; read through src/ratelimit/dialects.ts when
   * the spec's fields above are absent.
   */
  headers: z.record(z.string(), z.string()).optional(),
  /** Wall-clock time of the response (ms since the epoch), to convert epoch X-RateLimit-Reset values. */
  epochMs: z.number().optional(),
});
export type TraceRecord = z.infer<typeof TraceRecord>;
