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
  /**
   * Responses this sample stands for (default 1): the online analyzer folds a run of identical refusals
   * into its first and last, and per-response rules count the last once per response it replaced.
   */
  weight?: number;
}

/** Responses the samples stand for (a folded refusal stands for its run: parsed.ts `weight`). */
export function responsesOf(list: readonly ParsedSample[]): number {
  let n = 0;
  for (const s of list) n += s.weight ?? 1;
  return n;
}

export type IntParse = { ok: true; value: number } | { ok: false; problem: 'missing' | 'not-integer' | 'negative' };

/**
 * The value of a plain run of 1–15 ASCII digits (always a safe integer), or -1 for anything else. The fast
 * path of every parse below: nearly every header of a load run is one, and a character loop costs a
 * fraction of trim() plus two regular expressions.
 */
export function plainInt(raw: string): number {
  const n = raw.length;
  if (n === 0 || n > 15) return -1;
  let v = 0;
  for (let i = 0; i < n; i++) {
    const c = raw.charCodeAt(i) - 48;
    if (c < 0 || c > 9) return -1;
    v = v * 10 + c;
  }
  return v;
}

const MISSING: IntParse = Object.freeze({ ok: false, problem: 'missing' });

/** Parses a header value the way the spec defines it: a (non-negative) integer, surrounding spaces allowed. */
export function parseIntValue(raw: string | undefined): IntParse {
  if (raw === undefined) return MISSING;
  const fast = plainInt(raw);
  if (fast >= 0) return { ok: true, value: fast };
  const t = raw.trim();
  if (/^-\d+$/.test(t)) return { ok: false, problem: 'negative' };
  if (!/^\d+$/.test(t)) return { ok: false, problem: 'not-integer' };
  const v = Number(t);
  return Number.isSafeInteger(v) ? { ok: true, value: v } : { ok: false, problem: 'not-integer' };
}

/** Like parseIntValue but keeps negative integers as numbers (Remaining bounds are their own rule). */
export function parseSignedInt(raw: string | undefined): number | null {
  if (raw === undefined) return null;
  const fast = plainInt(raw);
  if (fast >= 0) return fast;
  const t = raw.trim();
  return /^-?\d+$/.test(t) && Number.isSafeInteger(Number(t)) ? Number(t) : null;
}

/** Parses every sample; response-less samples (status 0) are dropped by the caller. */
export function parseSamples(samples: readonly RateLimitSample[]): ParsedSample[] {
  const out: ParsedSample[] = [];
  const parser = new SampleParser();
  for (let index = 0; index < samples.length; index++) {
    const s = samples[index]!;
    if (s.status > 0) out.push(parser.parse(s, index));
  }
  return out;
}

/**
 * Parses samples one at a time. Limit and Reset usually repeat one value for many responses in a row, so
 * each is parsed again only when it changes (the online analyzer parses each sample once, as it arrives).
 */
export class SampleParser {
  private readonly limit = new LastParse(intOrNull);
  private readonly reset = new LastParse(intOrNull);

  /** The parsed view of one answered sample (status > 0) at position `index`; its `raw` is `s` itself. */
  parse(s: RateLimitSample, index: number): ParsedSample {
    return this.fill(emptyParsed(s), index);
  }

  /**
   * Parses `s` into `p`, a parsed sample made by `reusableParsed` (the online analyzer reuses the ones that
   * left its buffer): `s` is copied into `p.raw`, so the caller may reuse `s` too. Returns `p`.
   */
  parseInto(p: ParsedSample, s: RateLimitSample, index: number): ParsedSample {
    const r = p.raw;
    r.sentAt = s.sentAt;
    r.receivedAt = s.receivedAt;
    r.class = s.class;
    r.status = s.status;
    r.limit = s.limit;
    r.remaining = s.remaining;
    r.reset = s.reset;
    r.retryAfter = s.retryAfter;
    r.requestId = s.requestId;
    r.errorCode = s.errorCode;
    r.bodyRecorded = s.bodyRecorded;
    r.key = s.key;
    r.dialect = s.dialect;
    r.policyWindow = s.policyWindow;
    return this.fill(p, index);
  }

  private fill(p: ParsedSample, index: number): ParsedSample {
    const s = p.raw;
    p.index = index;
    p.sentAt = s.sentAt;
    p.receivedAt = Math.max(s.sentAt, s.receivedAt);
    p.class = s.class;
    p.key = s.key ?? '';
    p.status = s.status;
    p.admitted = s.status !== 429;
    p.refused = s.status === 429;
    p.limit = this.limit.parse(s.limit);
    p.remaining = parseSignedInt(s.remaining);
    p.reset = this.reset.parse(s.reset);
    p.retryAfter = s.retryAfter === undefined ? null : intOrNull(s.retryAfter);
    p.weight = undefined;
    return p;
  }
}

/** A parsed sample with every field in place (one object shape for all of them), to be filled. */
function emptyParsed(raw: RateLimitSample): ParsedSample {
  return {
    index: 0,
    sentAt: 0,
    receivedAt: 0,
    class: 'read',
    key: '',
    status: 0,
    admitted: false,
    refused: false,
    limit: null,
    remaining: null,
    reset: null,
    retryAfter: null,
    raw,
    weight: undefined,
  };
}

/** A parsed sample with a raw record of its own, for `SampleParser.parseInto`. */
export function reusableParsed(): ParsedSample {
  return emptyParsed({
    sentAt: 0,
    receivedAt: 0,
    class: 'read',
    status: 0,
    limit: undefined,
    remaining: undefined,
    reset: undefined,
    retryAfter: undefined,
    requestId: undefined,
    errorCode: undefined,
    bodyRecorded: undefined,
    key: undefined,
    dialect: undefined,
    policyWindow: undefined,
  });
}

/** parseIntValue's value, or null when it is not ok (no result object on the fast path). */
export function intOrNull(raw: string | undefined): number | null {
  if (raw === undefined) return null;
  const fast = plainInt(raw);
  if (fast >= 0) return fast;
  const p = parseIntValue(raw);
  return p.ok ? p.value : null;
}

/** A parser that remembers its last input and result (a pure parse: same string, same value). */
class LastParse {
  private raw: string | undefined;
  private value: number | null = null;
  private primed = false;

  constructor(private readonly fn: (raw: string | undefined) => number | null) {}

  /** fn(raw), computed again only when raw differs from the previous call's. */
  parse(raw: string | undefined): number | null {
    if (this.primed && raw === this.raw) return this.value;
    this.primed = true;
    this.raw = raw;
    this.value = this.fn(raw);
    return this.value;
  }
}
