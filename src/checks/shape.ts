/** zod shape checks: validate a JSON value against a resource schema and describe what is wrong. */
import type { z } from 'zod';
import type { Exchange } from '../client/exchange.js';
import type { ClauseId } from '../spec/clauses.js';
import type { ClauseViolation } from './envelope.js';

/** Lists at most `max` zod issues as "path: message". */
export function describeIssues(error: z.ZodError, max = 5): string {
  const parts = error.issues.slice(0, max).map((i) => `${i.path.length ? i.path.join('.') : '(root)'}: ${i.message}`);
  if (error.issues.length > max) parts.push(`… ${error.issues.length - max} more`);
  return parts.join('; ');
}

const isFormat = (i: z.core.$ZodIssue, format: string): boolean => i.code === 'invalid_format' && i.format === format;
const KEY_FIELDS = new Set<PropertyKey>(['status', 'priority']);

/**
 * The most precise clause for a shape violation: every issue a date-time format issue → `2.datetime`; a
 * conversation whose only issues are status/priority keys off the pattern → `2.conversation.key-pattern`;
 * anything else (or a mix) stays under the check's own clause, which names the whole model.
 */
export function refineShapeClause(issues: readonly z.core.$ZodIssue[], clause: ClauseId): ClauseId {
  if (issues.length === 0) return clause;
  if (issues.every((i) => isFormat(i, 'datetime'))) return '2.datetime';
  if (clause === '2.conversation.shape' && issues.every((i) => isFormat(i, 'regex') && i.path.length === 1 && KEY_FIELDS.has(i.path[0]!))) {
    return '2.conversation.key-pattern';
  }
  return clause;
}

/** Validates a value against a schema; returns a violation under `clause` (refined, see refineShapeClause) when it does not fit. */
export function checkShape(schema: z.ZodType, value: unknown, clause: ClauseId, what: string): ClauseViolation | undefined {
  const parsed = schema.safeParse(value);
  if (parsed.success) return undefined;
  return { clause: refineShapeClause(parsed.error.issues, clause), expected: `${what} matching the model of the spec`, actual: describeIssues(parsed.error) };
}

/** The non-2xx / non-JSON violation of a response that should carry `what`, or undefined when it is a JSON 2xx. */
function answerViolation(x: Exchange, clause: ClauseId, what: string): ClauseViolation | undefined {
  const r = x.response;
  if (!r || r.status < 200 || r.status > 299) {
    return { clause, expected: `HTTP 2xx with ${what}`, actual: r ? `HTTP ${r.status}: ${r.body.slice(0, 200)}` : `no response: ${x.error?.message ?? ''}` };
  }
  if (r.json === undefined) return { clause, expected: `${what} as JSON`, actual: `body is not JSON: ${r.jsonError ?? r.body.slice(0, 100)}` };
  return undefined;
}

/** Validates the JSON body of a 2xx response; a non-2xx answer is a violation too. */
export function checkBodyShape(x: Exchange, schema: z.ZodType, clause: ClauseId, what: string): ClauseViolation | undefined {
  return answerViolation(x, clause, what) ?? checkShape(schema, x.response!.json, clause, what);
}

/**
 * Validates a `{ data: <item> }` answer in two steps, each under its own clause: the answer itself (HTTP 200,
 * JSON, an object with a `data` key) under `envelopeClause`; then the whole body against `envelope`
 * (the item inside its envelope, so issue paths read `data.…`) under `itemClause`, refined.
 */
export function checkDataEnvelope(x: Exchange, envelope: z.ZodType, envelopeClause: ClauseId, itemClause: ClauseId, what: string): ClauseViolation | undefined {
  const r = x.response;
  if (!r || r.status !== 200) {
    return { clause: envelopeClause, expected: `HTTP 200 with { data: ${what} }`, actual: r ? `HTTP ${r.status}: ${r.body.slice(0, 200)}` : `no response: ${x.error?.message ?? ''}` };
  }
  if (r.json === undefined) return { clause: envelopeClause, expected: `{ data: ${what} } as JSON`, actual: `body is not JSON: ${r.jsonError ?? r.body.slice(0, 100)}` };
  const body = r.json;
  const keys = body && typeof body === 'object' && !Array.isArray(body) ? Object.keys(body) : undefined;
  // Other top-level keys beside `data` are not forbidden by the spec (no shape of part 2 or 4 is closed).
  if (!keys || !keys.includes('data')) {
    return {
      clause: envelopeClause, expected: `{ data: ${what} }`,
      actual: keys ? `an object with keys ${keys.join(', ') || '(none)'}` : Array.isArray(body) ? 'an array' : `a ${body === null ? 'null' : typeof body}`,
    };
  }
  return checkShape(envelope, body, itemClause, what);
}
