/**
 * Keeps secrets out of traces: a trace is shared in bug reports, so a route must never carry a signed URL's
 * query string and free text must never carry a key. Pure; used by the writer on every record.
 */
import type { TraceRecord } from './record.js';

// Anything after "?" is dropped: trace paths are route templates, and a query string is where signed
// URLs carry their credentials (X-Amz-Signature, sig=, token=, Expires=...).
const QUERY = /[?#].*$/s;
const ABSOLUTE = /^[a-z][a-z0-9+.-]*:\/\/[^/]*/i;
const KEY_LIKE = /\bpk_[A-Za-z0-9_-]+/g;
const BEARER = /\bBearer\s+[^\s,;"']+/gi;
const URL_QUERY = /(https?:\/\/[^\s?#"']*)\?[^\s"']*/gi;
const SIGNATURE_PARAM = /([?&](?:[a-z0-9_-]*(?:signature|sig|token|key|credential|expires|secret)[a-z0-9_-]*)=)[^&\s"']*/gi;

/** Reduces a path to its route part: no scheme/host, no query string or fragment. */
export function sanitizePath(path: string): string {
  const p = path.replace(ABSOLUTE, '').replace(QUERY, '');
  return p === '' ? '/' : p.replace(KEY_LIKE, '[redacted]');
}

/** Removes key-like tokens, bearer credentials and URL query strings from free text. */
export function sanitizeText(text: string): string {
  return text
    .replace(URL_QUERY, '$1?[redacted]')
    .replace(SIGNATURE_PARAM, '$1[redacted]')
    .replace(BEARER, 'Bearer [redacted]')
    .replace(KEY_LIKE, '[redacted]');
}

/** A key role is a short name like "admin"; anything that looks like a secret is replaced. */
export function sanitizeKeyRole(role: string): string {
  return /^pk_/.test(role) || role.length > 64 || /\s/.test(role) ? '[redacted]' : role;
}

/** Returns a copy of the record that is safe to write: only schema fields, secrets stripped. */
export function sanitizeRecord(r: TraceRecord): TraceRecord {
  const out: TraceRecord = {
    t: r.t,
    latency: r.latency,
    ...(r.intended !== undefined ? { intended: r.intended } : {}),
    class: r.class,
    method: r.method,
    path: sanitizePath(r.path),
    status: r.status,
  };
  if (r.limit !== undefined) out.limit = r.limit;
  if (r.remaining !== undefined) out.remaining = r.remaining;
  if (r.reset !== undefined) out.reset = r.reset;
  if (r.retryAfter !== undefined) out.retryAfter = r.retryAfter;
  if (r.requestId !== undefined) out.requestId = sanitizeText(r.requestId);
  if (r.errorCode !== undefined) out.errorCode = r.errorCode;
  if (r.bodyRecorded !== undefined) out.bodyRecorded = r.bodyRecorded;
  if (r.key !== undefined) out.key = sanitizeKeyRole(r.key);
  if (r.error !== undefined) out.error = sanitizeText(r.error);
  return out;
}
