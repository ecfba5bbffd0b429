/** Request-input helpers shared by the handlers: JSON bodies, integers, Idempotency-Key headers. */
import type { IncomingHttpHeaders } from 'node:http';
import { invalid, type Reply } from '../reply.js';

export type Parsed<T> = { ok: true; value: T } | { ok: false; reply: Reply };

/** Parses a JSON object body; an absent body is `{}` when `optional`, else 400. */
export function jsonObject(body: Buffer | null, optional = false): Parsed<Record<string, unknown>> {
  if (body === null || body.length === 0) {
    return optional ? { ok: true, value: {} } : { ok: false, reply: invalid('a JSON object body is required') };
  }
  let value: unknown;
  try {
    value = JSON.parse(body.toString('utf8'));
  } catch {
    return { ok: false, reply: invalid('the body is not valid JSON', 'request.invalid_json') };
  }
  if (!value || typeof value !== 'object' || Array.isArray(value)) {
    return { ok: false, reply: invalid('the body must be a JSON object') };
  }
  return { ok: true, value: value as Record<string, unknown> };
}

/** Parses a page size: digits only, within 1..max; `null` means absent. */
export function pageLimit(raw: string | null, fallback: number, max: number): Parsed<number> {
  if (raw === null) return { ok: true, value: fallback };
  if (!/^\d{1,6}$/.test(raw)) return { ok: false, reply: invalid('limit must be an integer from 1 to 100') };
  const n = Number(raw);
  if (n < 1 || n > max) return { ok: false, reply: invalid('limit must be an integer from 1 to 100') };
  return { ok: true, value: n };
}

/** Reads a single-valued header as a string (undefined when absent). */
export function header(headers: IncomingHttpHeaders, name: string): string | undefined {
  const v = headers[name];
  return Array.isArray(v) ? v[0] : v;
}

/** Validates an Idempotency-Key header against a pattern; absent is allowed unless required. */
export function idempotencyKey(headers: IncomingHttpHeaders, pattern: RegExp, required: boolean, rule: string): Parsed<string | undefined> {
  const key = header(headers, 'idempotency-key');
  if (key === undefined) {
    return required
      ? { ok: false, reply: invalid(`Idempotency-Key is required (${rule})`, 'request.invalid_idempotency_key') }
      : { ok: true, value: undefined };
  }
  if (!pattern.test(key)) return { ok: false, reply: invalid(`Idempotency-Key must be ${rule}`, 'request.invalid_idempotency_key') };
  return { ok: true, value: key };
}

/**
 * Gives a validation error (code request.invalid) the dialect's status for its kind of input: some
 * deployments answer 422 for body fields and 400 for query parameters. Unparseable JSON and bad headers keep
 * their own codes and stay 400: they never reached field validation.
 */
export function withValidationStatus(status: number, reply: Reply): Reply {
  return reply.kind === 'error' && reply.status === 400 && reply.code === 'request.invalid' ? { ...reply, status } : reply;
}
