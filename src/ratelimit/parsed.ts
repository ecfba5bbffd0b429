/**
 * A sample with its headers parsed to numbers, as every rule sees it. Parsing is lenient: a malformed
 * header becomes null here and a `8.ratelimit.headers` violation elsewhere, so one bad header does not
 * hide every other rule.
 */
import type { RouteClass } from '../results/schema.js';
import type { RateLimitSample } from './sample.js';

export interface ParsedSample {
  /** Position in the input (stable tie-break, keeps the analysis deterministic). */
  index: number;
  sentAt: number;
  /** Never before sentAt (clock skew in a trace is clamped). */
  receivedAt: number;
  class: RouteClass;
  key: string;
  status: number;
  admitted: boolean;
  refused: boolean;
  limit: number | null;
  remaining: number | null;
  reset: number | null;
  retryAfter: number | null;
  /** Integer-parse outcome of the raw values (for the header rule). */
  raw: RateLimitSample;
}

export type IntParse = { ok: true; value: number } | { ok: false; problem: 'missing' | 'not-integer' | 'negative' };

/** Parses a header value the way the spec defines it: a (non-negative) integer, surrounding spaces allowed. */
export function parseIntValue(raw: string | undefined): IntParse {
  if (raw === undefined) return { ok: false, problem: 'missing' };
  const t = raw.trim();
  if (/^-\d+$/.test(t)) return { ok: false, problem: 'negative' };
  if (!/^\d+$/.test(t)) return { ok: false, problem: 'not-integer' };
  const v = Number(t);
  return Number.isSafeInteger(v) ? { ok: true, value: v } : { ok: false, problem: 'not-integer' };
}

/** Like parseIntValue but keeps negative integers as numbers (Remaining bounds are their own rule). */
export function parseSignedInt(raw: string | undefined): number | null {
  if (raw === undefined) return null;
  const t = raw.trim();
  return /^-?\d+$/.test(t) && Number.isSafeInteger(Number(t)) ? Number(t) : null;
}

/** Parses every sample; response-less samples (status 0) are dropped by the caller. */
export function parseSamples(samples: readonly RateLimitSample[]): ParsedSample[] {
  const out: ParsedSample[] = [];
  samples.forEach((s, index) => {
    if (!(s.status > 0)) return;
    const lim = parseIntValue(s.limit);
    const reset = parseIntValue(s.reset);
    const ra = parseIntValue(s.retryAfter);
    out.push({
      index,
      sentAt: s.sentAt,
      receivedAt: Math.max(s.sentAt, s.receivedAt),
      class: s.class,
      key: s.key ?? '',
      status: s.status,
      admitted: s.status !== 429,
      refused: s.status === 429,
      limit: lim.ok ? lim.value : null,
      remaining: parseSignedInt(s.remaining),
      reset: reset.ok ? reset.value : null,
      retryAfter: ra.ok ? ra.value : null,
      raw: s,
    });
  });
  return out;
}
