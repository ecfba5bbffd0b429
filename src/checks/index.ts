/** Pure checks over exchanges, shared by the conformance suites and the load engine's per-response verifier. */
export * from './envelope.js';
export * from './response-headers.js';
export * from './ratelimit-sequence.js';
export * from './shape.js';
export * from './id-prefixes.js';
export * from './assumed-status.js';

import type { Exchange } from '../client/exchange.js';
import type { ClauseViolation } from './envelope.js';
import { checkErrorResponse } from './envelope.js';
import { checkResponseHeaders, type HeaderCheckOptions } from './response-headers.js';

/** Every per-response violation (headers and error body) of one exchange. */
export function checkResponse(x: Exchange, opts: HeaderCheckOptions = {}): ClauseViolation[] {
  return [...checkResponseHeaders(x, opts), ...checkErrorResponse(x)];
}
