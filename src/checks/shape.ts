/** zod shape checks: validate a JSON value against a resource schema and describe what is wrong. */
import type { z } from 'zod';
import type { Exchange } from '../client/exchange.js';
import type { ClauseId } from '../spec/clauses.js';
import { RFC3339_ONLY } from '../spec/resources.js';
import type { ClauseViolation } from './envelope.js';

/** Lists at most `max` zod issues as "path: message". */
export function describeIssues(issues: readonly z.core.$ZodIssue[], max = 5): string {
  const parts = issues.slice(0, max).map((i) => `${i.path.length ? i.path.join('.') : '(root)'}: ${i.message}`);
  if (issues.length > max) parts.push(`… ${issues.length - max} more`);
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

/** True for the issue a date-time raises only for being ISO 8601 without being RFC 3339 (see resources.DateTime). */
const rfc3339Only = (i: z.core.$ZodIssue): boolean =>
  i.code === 'custom' && (i.params as { kind?: unknown } | undefined)?.kind === RFC3339_ONLY;

/**
 * The issues of `value` against `schema`, split: `errors` break the spec's model; `rfc3339` are date-times
 * that are ISO 8601 (the spec's word) but not RFC 3339 (the standard's), worth a warning only.
 */
export function shapeIssues(schema: z.ZodType, value: unknown): { errors: z.core.$ZodIssue[]; rfc3339: z.core.$ZodIssue[] } {
  const parsed = schema.safeParse(value);
  const issues = parsed.success ? [] : parsed.error.issues;
  return { errors: issues.filter((i) => !rfc3339Only(i)), rfc3339: issues.filter(rfc3339Only) };
}

/**
 * Validates a value against a schema; returns a violation under `clause` (refined, see refineShapeClause)
 * when it does not fit. When the only issues are date-times that are ISO 8601 but not RFC 3339, a warning
 * under 2.datetime.rfc3339 (the standard's recommendation; the spec says only ISO 8601).
 */
export function checkShape(schema: z.ZodType, value: unknown, clause: ClauseId, what: string): ClauseViolation | undefined {
  const { errors, rfc3339 } = shapeIssues(schema, value);
  if (errors.length)
    return {
      clause: refineShapeClause(errors, clause),
      expected: `${what} matching the model of the spec`,
      actual: describeIssues(errors),
    };
  if (rfc3339.length)
    return {
      clause: '2.datetime.rfc3339',
      severity: 'warning',
      expected: 'RFC 3339 date-times (seconds and Z or a ±hh:mm offset)',
      actual: describeIssues(rfc3339),
    };
  return undefined;
}

/** The non-2xx / non-JSON violation of a response that should carry `what`, or undefined when it is a JSON 2xx. */
function answerViolation(x: Exchange, clause: ClauseId, what: string): ClauseViolation | undefined {
  const r = x.response;
  if (!r || r.status < 200 || r.status > 299) {
    return {
      clause,
      expected: `HTTP 2xx with ${what}`,
      actual: r ? `HTTP ${r.status}: ${r.body.slice(0, 200)}` : `no response: ${x.error?.message ?? ''}`,
    };
  }
  if (r.json === undefined)
    return { clause, expected: `${what} as JSON`, actual: `body is not JSON: ${r.jsonError ?? r.body.slice(0, 100)}` };
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
export function checkDataEnvelope(
  x: Exchange,
  envelope: z.ZodType,
  envelopeClause: ClauseId,
  itemClause: ClauseId,
  what: string,
): ClauseViolation | undefined {
  const r = x.response;
  if (!r || r.status !== 200) {
    return {
      clause: envelopeClause,
      expected: `HTTP 200 with { data: ${what} }`,
      actual: r ? `HTTP ${r.status}: ${r.body.slice(0, 200)}` : `no response: ${x.error?.message ?? ''}`,
    };
  }
  if (r.json === undefined)
    return {
      clause: envelopeClause,
      expected: `{ data: ${what} } as JSON`,
      actual: `body is not JSON: ${r.jsonError ?? r.body.slice(0, 100)}`,
    };
  const body = r.json;
  const keys = body && typeof body === 'object' && !Array.isArray(body) ? Object.keys(body) : undefined;
  // Other top-level keys beside `data` are not forbidden by the spec (no shape of part 2 or 4 is closed).
  if (!keys || !keys.includes('data')) {
    return {
      clause: envelopeClause,
      expected: `{ data: ${what} }`,
      actual: keys
        ? `an object with keys ${keys.join(', ') || '(none)'}`
        : Array.isArray(body)
          ? 'an array'
          : `a ${body === null ? 'null' : typeof body}`,
    };
  }
  return checkShape(envelope, body, itemClause, what);
}
