/**
 * Replies are values until the last moment, so idempotent operations can store one and replay it, and so
 * the headers every response needs (request id, rate limits) are added in exactly one place.
 */
import type { ServerResponse } from 'node:http';
import type { FaultSet } from './fault-set.js';
import type { RateDecision } from './rate-limiter.js';

export type Reply =
  | { kind: 'json'; status: number; body: string | Buffer }
  | { kind: 'error'; status: number; code: string; message: string }
  | { kind: 'empty'; status: number }
  | { kind: 'raw'; status: number; contentType: string; body: string | Buffer };

/** A JSON reply from a value. */
export function json(status: number, value: unknown): Reply {
  return { kind: 'json', status, body: JSON.stringify(value) };
}

/** A JSON reply from text (or UTF-8 bytes) that is already JSON. */
export function jsonText(status: number, body: string | Buffer): Reply {
  return { kind: 'json', status, body };
}

/** A non-JSON reply (only faults produce one: the API answers JSON). */
export function raw(status: number, contentType: string, body: string | Buffer): Reply {
  return { kind: 'raw', status, contentType, body };
}

/** An error reply; the envelope and its requestId are filled in when it is sent. */
export function fail(status: number, code: string, message: string): Reply {
  return { kind: 'error', status, code, message };
}

/** A reply without a body (204). */
export function empty(status = 204): Reply {
  return { kind: 'empty', status };
}

/** Shorthand for the 404 every unknown route or resource gets. */
export function notFound(what = 'no such route or resource'): Reply {
  return fail(404, 'route.not_found', what);
}

/** Shorthand for a 400 validation error. */
export function invalid(message: string, code = 'request.invalid'): Reply {
  return fail(400, code, message);
}

export interface SendOptions {
  requestId: string;
  /** Rate-limit state of this request (only /v1 responses carry it). */
  rate: RateDecision | null;
  faults: FaultSet;
  /** Makes a fresh id for the request-id-mismatch fault. */
  otherRequestId: () => string;
  /** Closes the connection after the response (used when a request body was left unread). */
  close?: boolean;
  /** Errors carry an extra `error.details` object (dialects with extras; the envelope is not closed). */
  errorDetails?: boolean;
}

/** Writes a reply with every header the spec requires on a response. */
export function send(res: ServerResponse, reply: Reply, opts: SendOptions): void {
  const { status } = reply;
  const headers: Record<string, string | number> = {};
  const faults = opts.faults;
  if (status < 400 ? !faults.has('request-id-missing-on-success') : true) headers['X-Request-Id'] = opts.requestId;
  const rate = opts.rate;
  if (rate && !(status >= 400 && status < 500 && faults.has('ratelimit-headers-missing-on-errors'))) {
    headers['RateLimit-Limit'] = rate.limit;
    headers['RateLimit-Remaining'] = rate.remaining;
    headers['RateLimit-Reset'] = rate.reset;
  }
  if (rate && rate.retryAfter !== undefined && status === 429) headers['Retry-After'] = rate.retryAfter;
  if (opts.close) headers.Connection = 'close';
  let body: string | Buffer | undefined;
  if (reply.kind === 'json' || reply.kind === 'raw') body = reply.body;
  else if (reply.kind === 'error') {
    const requestId = faults.has('request-id-mismatch') ? opts.otherRequestId() : opts.requestId;
    const code = faultyCode(reply.code, faults);
    const error = opts.errorDetails
      ? { code, message: reply.message, requestId, details: { status, docs: `https://reference.invalid/errors/${reply.code}` } }
      : { code, message: reply.message, requestId };
    body = JSON.stringify(faults.has('error-envelope-flat') ? { code, message: reply.message } : { error });
  }
  if (body === undefined) {
    res.writeHead(status, headers);
    res.end();
    return;
  }
  // encode once: a string body would be scanned for its length and then encoded again on write
  const bytes = typeof body === 'string' ? Buffer.from(body) : body;
  headers['Content-Type'] = reply.kind === 'raw' ? reply.contentType : 'application/json; charset=utf-8';
  headers['Content-Length'] = bytes.length;
  res.writeHead(status, headers);
  res.end(bytes);
}

/** The error codes four faults rename; every other code passes through. */
function faultyCode(code: string, faults: FaultSet): string {
  // error-codes-upper-case: the enum's constant name is serialized instead of its value
  if (faults.has('error-codes-upper-case')) return code.toUpperCase().replace(/\./g, '_');
  if (code === 'route.not_found' && faults.has('not-found-code')) return 'not_found';
  if (code === 'rate_limit.exceeded' && faults.has('ratelimit-429-code')) return 'too_many_requests';
  if (code === 'request.body_too_large' && faults.has('body-limit-code')) return 'payload_too_large';
  return code;
}
