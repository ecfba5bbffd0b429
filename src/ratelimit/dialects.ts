/**
 * Rate-limit header dialects, for `spgate analyze` of traces of other APIs and gateways (beyond the spec).
 * Detected per response and normalized to the spec's three numbers (as strings, like RateLimitSample):
 *
 * - `spec`: RateLimit-Limit / -Remaining / -Reset (the spec's part 8, and IETF draft-6); preferred
 *   whenever present, because those are the fields the conformance verdict is about.
 * - `ietf-structured`: the IETF draft's structured fields, `RateLimit: "default";r=50;t=30` with
 *   `RateLimit-Policy: "default";q=100;w=60` (draft-8 and later); of several policies, the shortest window.
 * - `ietf-draft`: the older dictionary form, `RateLimit: limit=100, remaining=50, reset=30` with
 *   `RateLimit-Policy: 100;w=60` (draft-7).
 * - `x-ratelimit`: X-RateLimit-Limit / -Remaining / -Reset, Reset as delta seconds or as an epoch
 *   timestamp (seconds or milliseconds), converted with the response's wall-clock time.
 *
 * Pure; malformed values are kept as their raw text so the analyzer reads them as unusable, never guessed.
 */

export type HeaderDialect = 'spec' | 'ietf-structured' | 'ietf-draft' | 'x-ratelimit' | 'none';

export interface NormalizedRateLimit {
  dialect: HeaderDialect;
  limit?: string;
  remaining?: string;
  reset?: string;
  retryAfter?: string;
  /** The policy window (RateLimit-Policy `w`), when the dialect announces one. */
  windowSeconds?: string;
}

/** Every header name the dialects read (lower case), for recorders that keep only these. */
export const RATE_LIMIT_HEADER_NAMES = [
  'ratelimit-limit',
  'ratelimit-remaining',
  'ratelimit-reset',
  'ratelimit',
  'ratelimit-policy',
  'x-ratelimit-limit',
  'x-ratelimit-remaining',
  'x-ratelimit-reset',
  'retry-after',
] as const;

/** Epoch seconds from 2001-09-09 on; no delta-seconds Reset is that large. */
const EPOCH_SECONDS_MIN = 1e9;
const EPOCH_MS_MIN = 1e12;

/**
 * Detects the dialect of one response's headers and normalizes it. `get` returns a header's value by
 * lower-case name; `receivedAtEpochMs` (wall clock of the response) converts epoch Reset values.
 */
export function normalizeRateLimitHeaders(get: (lowerName: string) => string | undefined, receivedAtEpochMs?: number): NormalizedRateLimit {
  const retryAfter = get('retry-after');
  const extra = (o: NormalizedRateLimit): NormalizedRateLimit =>
    retryAfter !== undefined && o.retryAfter === undefined ? { ...o, retryAfter } : o;
  const policy = get('ratelimit-policy');

  const specLimit = get('ratelimit-limit');
  const specRemaining = get('ratelimit-remaining');
  const specReset = get('ratelimit-reset');
  if (specLimit !== undefined || specRemaining !== undefined || specReset !== undefined) {
    const w = policy === undefined ? undefined : firstPolicyWindow(policy);
    return extra(defined({ dialect: 'spec', limit: specLimit, remaining: specRemaining, reset: specReset, windowSeconds: w }));
  }

  const rl = get('ratelimit');
  if (rl !== undefined) {
    const items = parseList(rl);
    if (items.some((i) => i.params.has('r') || i.params.has('t'))) return extra(structured(items, policy));
    const dict = new Map<string, string>();
    for (const i of items) if (i.key !== undefined) dict.set(i.key, i.value);
    if (dict.has('limit') || dict.has('remaining') || dict.has('reset')) {
      const w = policy === undefined ? undefined : firstPolicyWindow(policy);
      return extra(
        defined({
          dialect: 'ietf-draft',
          limit: dict.get('limit'),
          remaining: dict.get('remaining'),
          reset: dict.get('reset'),
          windowSeconds: w,
        }),
      );
    }
  }

  const xl = get('x-ratelimit-limit');
  const xr = get('x-ratelimit-remaining');
  const xs = get('x-ratelimit-reset');
  if (xl !== undefined || xr !== undefined || xs !== undefined) {
    return extra(
      defined({
        dialect: 'x-ratelimit',
        limit: xl,
        remaining: xr,
        reset: xs === undefined ? undefined : deltaSeconds(xs, receivedAtEpochMs),
      }),
    );
  }
  return extra({ dialect: 'none' });
}

/**
 * X-RateLimit-Reset as delta seconds: small integers are deltas already; epoch seconds (≥ 1e9) and epoch
 * milliseconds (≥ 1e12) are converted with the response time (rounded up, as the spec's Reset is).
 * Without a response time an epoch value cannot be converted and is left out.
 */
export function deltaSeconds(raw: string, receivedAtEpochMs: number | undefined): string | undefined {
  const t = raw.trim();
  if (!/^\d+(\.\d+)?$/.test(t)) return raw;
  const v = Number(t);
  if (v < EPOCH_SECONDS_MIN) return Number.isInteger(v) ? t : String(Math.ceil(v));
  if (receivedAtEpochMs === undefined) return undefined;
  const atMs = v >= EPOCH_MS_MIN ? v : v * 1000;
  return String(Math.max(0, Math.ceil((atMs - receivedAtEpochMs) / 1000)));
}

interface Item {
  /** Dictionary key (`limit=100` form), when the member has one. */
  key?: string;
  /** The member's bare value: a string's content, a token or a number, as text. */
  value: string;
  params: Map<string, string>;
}

/**
 * The structured form with several policies: the one with the shortest window (the one a load run meets
 * first), else the first item. The choice must not change from response to response — picking the lowest
 * `r` would switch policies as they drain and make Limit and Remaining jump.
 */
function structured(items: Item[], policy: string | undefined): NormalizedRateLimit {
  const policies = policy === undefined ? [] : parseList(policy);
  const named = items.filter((i) => policies.some((p) => p.value === i.value));
  const byWindow = (i: Item) => num(policies.find((p) => p.value === i.value)?.params.get('w'));
  const chosen = [...named].sort((a, b) => byWindow(a) - byWindow(b))[0] ?? items[0]!;
  const p = policies.find((x) => x.value === chosen.value) ?? (policies.length === 1 ? policies[0] : undefined);
  return defined({
    dialect: 'ietf-structured',
    remaining: chosen.params.get('r'),
    reset: chosen.params.get('t'),
    limit: p?.params.get('q'),
    windowSeconds: p?.params.get('w'),
  });
}

function firstPolicyWindow(policy: string): string | undefined {
  return parseList(policy)[0]?.params.get('w');
}

function num(v: string | undefined): number {
  const n = v === undefined ? NaN : Number(v);
  return Number.isFinite(n) ? n : Infinity;
}

/**
 * A lenient reader of structured-field lists and dictionaries (RFC 8941 shapes): members separated by
 * commas outside quotes, each `value;p=v;q=w` or `key=value`. Malformed members keep their raw text.
 */
export function parseList(raw: string): Item[] {
  const out: Item[] = [];
  for (const member of splitOutsideQuotes(raw, ',')) {
    const parts = splitOutsideQuotes(member, ';').map((p) => p.trim());
    const head = parts[0] ?? '';
    const item: Item = { value: unquote(head), params: new Map() };
    const eq = head.indexOf('=');
    if (eq > 0 && !head.startsWith('"')) {
      item.key = head.slice(0, eq).trim().toLowerCase();
      item.value = unquote(head.slice(eq + 1).trim());
    }
    for (const p of parts.slice(1)) {
      const i = p.indexOf('=');
      if (i > 0) item.params.set(p.slice(0, i).trim().toLowerCase(), unquote(p.slice(i + 1).trim()));
    }
    if (head !== '' || item.params.size > 0) out.push(item);
  }
  return out;
}

function splitOutsideQuotes(s: string, sep: string): string[] {
  const out: string[] = [];
  let cur = '';
  let quoted = false;
  for (let i = 0; i < s.length; i++) {
    const ch = s[i]!;
    if (ch === '"' && s[i - 1] !== '\\') quoted = !quoted;
    if (ch === sep && !quoted) {
      out.push(cur);
      cur = '';
    } else cur += ch;
  }
  out.push(cur);
  return out.map((x) => x.trim()).filter((x) => x !== '');
}

function unquote(v: string): string {
  return v.length >= 2 && v.startsWith('"') && v.endsWith('"') ? v.slice(1, -1).replace(/\\(.)/g, '$1') : v;
}

function defined(o: NormalizedRateLimit): NormalizedRateLimit {
  const r: NormalizedRateLimit = { dialect: o.dialect };
  for (const k of ['limit', 'remaining', 'reset', 'retryAfter', 'windowSeconds'] as const) if (o[k] !== undefined) r[k] = o[k];
  return r;
}
