/**
 * One response as the engines hand it over: the analyzer's raw header fields (strings exactly as the
 * server sent them, so verification and the analyzer see malformed values) plus the engine's own timing.
 * Responses are folded into the online aggregator as they arrive and not kept (see aggregate.ts).
 */

import type { RateLimitSample } from '../ratelimit/sample.js';

export interface SampleInput extends Pick<RateLimitSample, 'limit' | 'remaining' | 'reset' | 'retryAfter' | 'requestId' | 'errorCode'> {
  route: number;
  /** ms since start when the request should have gone out (open model); NaN in the closed model. */
  intended: number;
  sent: number;
  received: number;
  /** 0 for a transport failure. */
  status: number;
  error?: string;
}

/** Latency from the actual send, in ms. */
export function latencyOf(s: SampleInput): number {
  return s.received - s.sent;
}

/** Latency from the intended send time (coordinated-omission corrected), in ms; falls back to actual. */
export function correctedLatencyOf(s: SampleInput): number {
  return s.received - (Number.isNaN(s.intended) ? s.sent : s.intended);
}
