/**
 * Per-response verification of a load run, as responses arrive: every response goes through the same
 * header checks as conformance (checks/response-headers), plus the 429 body code. Repeats of one rule are
 * folded into one finding per clause and class that counts them and cites the first request ids, so the
 * memory is one small group per broken clause, whatever the run's length. The rate-limit analyzer's
 * violations become findings the same way.
 */
import type { Exchange } from '../client/exchange.js';
import { checkResponseHeaders } from '../checks/response-headers.js';
import type { FindingRecord } from '../results/schema.js';
import { ClauseGroups, refusalCodeBroken } from './findings.js';
import type { RateLimitSample } from '../ratelimit/sample.js';
import type { Target } from '../target/schema.js';
import type { PlannedRoute } from './plan.js';
import { latencyOf, type SampleInput } from './samples.js';
import { plainInt } from '../ratelimit/parsed.js';

/**
 * One header's part of the verdict cache key: 'a' absent, 'k' a plain integer within `max` (the checks
 * accept it, whatever its value; plainInt takes digits only, and 15 digits are always a safe integer),
 * else the raw string, length-prefixed so it cannot pass for a token.
 */
function token(raw: string | undefined, max: number): string {
  if (raw === undefined) return 'a';
  const v = plainInt(raw);
  return v >= 0 && v <= max ? 'k' : `r${raw.length}:${raw}`;
}

/** A header's code in the numeric cache key: 0 absent, 1 a plain integer within `max`, -1 anything else. */
function code(raw: string | undefined, max: number): number {
  if (raw === undefined) return 0;
  const v = plainInt(raw);
  return v >= 0 && v <= max ? 1 : -1;
}

/** 'm' missing, 'e' empty (or blank), 'k' set: all the X-Request-Id check reads. */
function requestIdState(rid: string | undefined): 'm' | 'e' | 'k' {
  if (rid === undefined) return 'm';
  // A first character that is a letter or digit cannot be trimmed away: no trim() on the hot path.
  const c = rid.charCodeAt(0);
  if ((c >= 48 && c <= 57) || (c >= 65 && c <= 90) || (c >= 97 && c <= 122)) return 'k';
  return rid.trim() === '' ? 'e' : 'k';
}

const RID_CODE = { m: 0, e: 1, k: 2 } as const;

/** How a sample is cited: its X-Request-Id, or its position (1-based) and time when the server sent none. */
export function citeSample(s: Pick<SampleInput, 'requestId' | 'received'>, index: number): string {
  return s.requestId ?? `#${index + 1}@${Math.round(s.received)}ms`;
}

/**
 * The analyzer's view of one answered response (transport failures carry no headers: undefined), written
 * into `into` when given (the aggregator reuses one record: the online analyzer copies what it keeps).
 */
export function toRateLimitSample(s: SampleInput, route: PlannedRoute, into?: RateLimitSample): RateLimitSample | undefined {
  if (s.status === 0) return undefined;
  if (!into) {
    return {
      sentAt: s.sent, receivedAt: s.received, class: route.class, status: s.status,
      limit: s.limit, remaining: s.remaining, reset: s.reset, retryAfter: s.retryAfter, requestId: s.requestId, errorCode: s.errorCode, key: route.keyRole,
    };
  }
  into.sentAt = s.sent;
  into.receivedAt = s.received;
  into.class = route.class;
  into.status = s.status;
  into.limit = s.limit;
  into.remaining = s.remaining;
  into.reset = s.reset;
  into.retryAfter = s.retryAfter;
  into.requestId = s.requestId;
  into.errorCode = s.errorCode;
  into.key = route.keyRole;
  return into;
}

/** The header fields of one load response (live samples and trace records carry the same names). */
type HeaderFields = Pick<SampleInput, 'limit' | 'remaining' | 'reset' | 'retryAfter' | 'requestId'>;

/** One load response as the Exchange the header checks read: no bodies are kept, only the headers they judge. */
export function headerExchange(id: string, method: string, url: string, status: number, h: HeaderFields, start: number, total: number): Exchange {
  return {
    id,
    request: { method, url, headers: {}, bodyBytes: 0 },
    response: { status, headers: headersOf(h), body: '', bodyBytes: 0 },
    timings: { start, total },
  };
}

function headersOf(s: HeaderFields): Record<string, string> {
  const h: Record<string, string> = {};
  const put = (name: string, v: string | undefined): void => {
    if (v !== undefined) h[name] = v;
  };
  put('ratelimit-limit', s.limit);
  put('ratelimit-remaining', s.remaining);
  put('ratelimit-reset', s.reset);
  put('retry-after', s.retryAfter);
  put('x-request-id', s.requestId);
  return h;
}

/** Verifies responses one at a time; `findings()` gives one finding per broken clause and class. */
export class ResponseVerifier {
  private readonly groups = new ClauseGroups();
  /**
   * The header checks' verdicts by everything they read (class, status, the RateLimit-* values, whether
   * X-Request-Id is missing, empty or set): the checks run once per distinct combination, not once per
   * response. Bounded: cleared when it fills.
   */
  private readonly verdicts = new Map<string, ReturnType<typeof checkResponseHeaders>>();
  /**
   * The same cache for the common case of headers that are all absent or plain accepted integers, keyed
   * by a number (class, status, one code per header, X-Request-Id state): no key string per response.
   */
  private readonly plainVerdicts = new Map<number, ReturnType<typeof checkResponseHeaders>>();

  constructor(private readonly target: Target, private readonly source: string) {}

  /** Checks one response (`index`: its position in the run, for citing); transport failures are skipped. */
  add(index: number, s: SampleInput, route: PlannedRoute): void {
    if (s.status === 0) return;
    const rid = requestIdState(s.requestId);
    const window = this.target.assumptions.rateLimit[route.class]?.windowSeconds;
    const resetMax = window === undefined ? Infinity : Math.ceil(window);
    // Plain integers the checks accept stand for one token, so the verdict of a 2xx whose Remaining
    // counts down is computed once (Remaining must not exceed a plain Limit; Reset not the window).
    const lim = s.limit !== undefined ? plainInt(s.limit) : -1;
    const cl = s.limit === undefined ? 0 : lim >= 0 ? 1 : -1;
    const cm = code(s.remaining, lim);
    const cr = code(s.reset, resetMax);
    const ca = code(s.retryAfter, Infinity);
    let numeric = -1;
    if (cl >= 0 && cm >= 0 && cr >= 0 && ca >= 0 && s.status >= 0 && s.status < 1000) {
      numeric = ((((((route.class === 'read' ? 0 : 1) * 1000 + s.status) * 2 + cl) * 2 + cm) * 2 + cr) * 2 + ca) * 3 + RID_CODE[rid];
    }
    const key = numeric >= 0 ? '' : `${route.class}|${s.status}|${token(s.limit, Infinity)}|${token(s.remaining, lim)}|` +
      `${token(s.reset, resetMax)}|${token(s.retryAfter, Infinity)}|${rid}`;
    let verdict = numeric >= 0 ? this.plainVerdicts.get(numeric) : this.verdicts.get(key);
    if (!verdict) {
      verdict = checkResponseHeaders(headerExchange(`load-${index + 1}`, route.method, route.template, s.status, s, s.sent, latencyOf(s)), { windowSeconds: window });
      if (numeric >= 0) this.plainVerdicts.set(numeric, verdict);
      else {
        if (this.verdicts.size >= 4096) this.verdicts.clear();
        this.verdicts.set(key, verdict);
      }
    }
    const refused = refusalCodeBroken(s.status, s.errorCode);
    // Nearly every response breaks nothing: no citing closure for those.
    if (verdict.length === 0 && !refused) return;
    const cite = (): string => citeSample(s, index);
    for (const v of verdict) this.groups.note(v.clause, route.class, v.expected, v.actual, route, cite);
    if (refused) this.groups.note('8.ratelimit.429-code', route.class, refused.expected, refused.actual, route, cite);
  }

  /** One finding per broken clause and class, in the order the clauses first broke. */
  findings(): FindingRecord[] {
    return this.groups.findings(this.target.assumptions.strict, this.source);
  }
}

