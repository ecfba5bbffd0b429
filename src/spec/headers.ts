/**
 * Lenient parsing of the headers the spec names (parts 7 and 8): names are case-insensitive, values are
 * trimmed, and every problem is returned as data instead of thrown.
 */

export type HeaderBag = Record<string, string | string[] | undefined>;

export type IntHeader =
  | { ok: true; value: number; raw: string }
  | { ok: false; problem: 'missing' | 'not-integer' | 'negative' | 'duplicated'; raw?: string };

export type TextHeader = { ok: true; value: string } | { ok: false; problem: 'missing' | 'empty' | 'duplicated'; raw?: string };

/** Returns a header's raw value(s) by case-insensitive name. */
export function getHeader(headers: HeaderBag, name: string): string | string[] | undefined {
  const direct = headers[name] ?? headers[name.toLowerCase()];
  if (direct !== undefined) return direct;
  const lower = name.toLowerCase();
  for (const k of Object.keys(headers)) if (k.toLowerCase() === lower) return headers[k];
  return undefined;
}

/** Parses a non-negative integer header (RFC 9110 delay-seconds style: digits only after trimming). */
export function parseIntHeader(headers: HeaderBag, name: string): IntHeader {
  const v = getHeader(headers, name);
  if (v === undefined) return { ok: false, problem: 'missing' };
  if (Array.isArray(v)) {
    if (v.length !== 1) return { ok: false, problem: 'duplicated', raw: v.join(', ') };
    return parseIntValue(v[0]!);
  }
  // undici/node join repeated headers with ", "
  if (v.includes(',')) return { ok: false, problem: 'duplicated', raw: v };
  return parseIntValue(v);
}

function parseIntValue(raw: string): IntHeader {
  const t = raw.trim();
  if (/^-\d+$/.test(t)) return { ok: false, problem: 'negative', raw };
  if (!/^\d+$/.test(t)) return { ok: false, problem: 'not-integer', raw };
  const value = Number(t);
  if (!Number.isSafeInteger(value)) return { ok: false, problem: 'not-integer', raw };
  return { ok: true, value, raw };
}

/** Parses a single-valued text header such as X-Request-Id. */
export function parseTextHeader(headers: HeaderBag, name: string): TextHeader {
  const v = getHeader(headers, name);
  if (v === undefined) return { ok: false, problem: 'missing' };
  if (Array.isArray(v)) {
    if (v.length !== 1) return { ok: false, problem: 'duplicated', raw: v.join(', ') };
    return nonEmpty(v[0]!);
  }
  return nonEmpty(v);
}

function nonEmpty(raw: string): TextHeader {
  const t = raw.trim();
  return t ? { ok: true, value: t } : { ok: false, problem: 'empty', raw };
}

export interface RateLimitHeaders {
  limit: IntHeader;
  remaining: IntHeader;
  reset: IntHeader;
  retryAfter: IntHeader;
  requestId: TextHeader;
}

/** Parses every header the spec requires on a response. */
export function parseRateLimitHeaders(headers: HeaderBag): RateLimitHeaders {
  return {
    limit: parseIntHeader(headers, 'RateLimit-Limit'),
    remaining: parseIntHeader(headers, 'RateLimit-Remaining'),
    reset: parseIntHeader(headers, 'RateLimit-Reset'),
    retryAfter: parseIntHeader(headers, 'Retry-After'),
    requestId: parseTextHeader(headers, 'X-Request-Id'),
  };
}
