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

/** Validates a value against a schema; returns a violation under `clause` when it does not fit. */
export function checkShape(schema: z.ZodType, value: unknown, clause: ClauseId, what: string): ClauseViolation | undefined {
  const parsed = schema.safeParse(value);
  if (parsed.success) return undefined;
  return { clause, expected: `${what} matching the model of the spec`, actual: describeIssues(parsed.error) };
}

/** Validates the JSON body of a 2xx response; a non-2xx answer is a violation too. */
export function checkBodyShape(x: Exchange, schema: z.ZodType, clause: ClauseId, what: string): ClauseViolation | undefined {
  const r = x.response;
  if (!r || r.status < 200 || r.status > 299) {
    return { clause, expected: `HTTP 2xx with ${what}`, actual: r ? `HTTP ${r.status}: ${r.body.slice(0, 200)}` : `no response: ${x.error?.message ?? ''}` };
  }
  if (r.json === undefined) return { clause, expected: `${what} as JSON`, actual: `body is not JSON: ${r.jsonError ?? r.body.slice(0, 100)}` };
  return checkShape(schema, r.json, clause, what);
}
