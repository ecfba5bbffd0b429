/**
 * Error-body checks of spec part 7: the envelope shape, X-Request-Id equal to error.requestId, and the
 * exact spelling of the error codes the spec names. Pure functions over one Exchange.
 */
import type { Exchange } from '../client/exchange.js';
import { ErrorEnvelope } from '../spec/resources.js';
import { parseTextHeader } from '../spec/headers.js';
import type { ClauseId } from '../spec/clauses.js';

/** A violation tied to the clause it breaks. */
export interface ClauseViolation {
  clause: ClauseId;
  expected: string;
  actual: string;
  /** 'warning' where the source only recommends (see CheckFailure.severity). */
  severity?: 'warning';
}

/** The error codes spelled out in spec part 7. */
export const SPEC_ERROR_CODES = [
  'route.not_found',
  'rate_limit.exceeded',
  'request.body_too_large',
  'conversations.unknown_status',
  'conversations.unknown_priority',
  'conversations.invalid_resolution_status',
] as const;

/** error.code of a response body that is an error envelope, else undefined. */
export function errorCode(x: Exchange): string | undefined {
  const parsed = ErrorEnvelope.safeParse(x.response?.json);
  return parsed.success ? parsed.data.error.code : undefined;
}

/** Short text of what a body holds, for "actual" fields (bodies are already redacted). */
export function describeBody(x: Exchange): string {
  const r = x.response;
  if (!r) return `no response (${x.error?.kind ?? 'unknown'}: ${x.error?.message ?? ''})`;
  const text = r.body.length > 200 ? `${r.body.slice(0, 200)}…` : r.body;
  return text === '' ? '(empty body)' : text;
}

/** Checks that an error response (status >= 400) has the envelope body of part 2. */
export function checkErrorEnvelope(x: Exchange): ClauseViolation | undefined {
  const r = x.response;
  if (!r || r.status < 400) return undefined;
  const parsed = ErrorEnvelope.safeParse(r.json);
  if (parsed.success) return undefined;
  const why =
    r.json === undefined
      ? 'body is not JSON'
      : parsed.error.issues
          .slice(0, 3)
          .map((i) => `${i.path.join('.') || '(root)'}: ${i.message}`)
          .join('; ');
  return {
    clause: '7.error.envelope',
    expected: `HTTP ${r.status} body { error: { code, message, requestId } }`,
    actual: `${why} — ${describeBody(x)}`,
  };
}

/** True for an error answer whose X-Request-Id and error.requestId can both be read (what the match compares). */
export function carriesBothIds(x: Exchange): boolean {
  const r = x.response;
  return !!r && r.status >= 400 && ErrorEnvelope.safeParse(r.json).success && parseTextHeader(r.headers, 'X-Request-Id').ok;
}

/** Checks that X-Request-Id equals error.requestId on an error response with an envelope. */
export function checkRequestIdMatches(x: Exchange): ClauseViolation | undefined {
  const r = x.response;
  if (!r || r.status < 400) return undefined;
  const parsed = ErrorEnvelope.safeParse(r.json);
  if (!parsed.success) return undefined; // the envelope check reports it
  const header = parseTextHeader(r.headers, 'X-Request-Id');
  if (!header.ok) return undefined; // the header check reports it
  if (header.value === parsed.data.error.requestId) return undefined;
  return {
    clause: '7.request-id.matches',
    expected: 'X-Request-Id equal to error.requestId',
    actual: `X-Request-Id "${header.value}", error.requestId "${parsed.data.error.requestId}"`,
  };
}

function normaliseCode(code: string): string {
  return code.toLowerCase().replace(/[^a-z0-9]/g, '');
}

/** The spec code a code resembles when it is not spelled exactly (case, separators), else undefined. */
export function misspelledSpecCode(code: string): string | undefined {
  if ((SPEC_ERROR_CODES as readonly string[]).includes(code)) return undefined;
  const n = normaliseCode(code);
  return SPEC_ERROR_CODES.find((c) => normaliseCode(c) === n);
}

/** Checks that a response is an error with the given HTTP status and code; reports under `clause`. */
export function checkErrorAnswer(
  x: Exchange,
  status: number | readonly number[],
  code: string,
  clause: ClauseId,
): ClauseViolation | undefined {
  const statuses = typeof status === 'number' ? [status] : status;
  const r = x.response;
  const got = errorCode(x);
  if (r && statuses.includes(r.status) && got === code) return undefined;
  return {
    clause,
    expected: `HTTP ${statuses.join(' or ')} with error.code "${code}"`,
    actual: r ? `HTTP ${r.status}${got !== undefined ? ` with error.code "${got}"` : ''} — ${describeBody(x)}` : describeBody(x),
  };
}

/** Every error-body violation of one exchange (envelope, request id, codes of 413/429). */
export function checkErrorResponse(x: Exchange): ClauseViolation[] {
  const out: ClauseViolation[] = [];
  const r = x.response;
  if (!r || r.status < 400) return out;
  const envelope = checkErrorEnvelope(x);
  if (envelope) out.push(envelope);
  const id = checkRequestIdMatches(x);
  if (id) out.push(id);
  if (r.status === 429) {
    const v = checkErrorAnswer(x, 429, 'rate_limit.exceeded', '8.ratelimit.429-code');
    if (v) out.push(v);
  }
  if (r.status === 413) {
    const v = checkErrorAnswer(x, 413, 'request.body_too_large', '8.body.code');
    if (v) out.push(v);
  }
  return out;
}
