/**
 * Per-response verification of a load run, as responses arrive: every response goes through the same
 * header checks as conformance (checks/response-headers), plus the 429 body code. Repeats of one rule are
 * folded into one finding per clause and class that counts them and cites the first request ids, so the
 * memory is one small group per broken clause, whatever the run's length. The rate-limit analyzer's
 * violations become findings the same way.
 */
import type { Exchange } from '../client/exchange.js';
import { checkResponseHeaders } from '../checks/response-headers.js';
import type { FindingRecord, RouteClass } from '../results/schema.js';
import { ClauseGroups, refusalCodeBroken, type CurlRoute } from './findings.js';
import type { RateLimitSample } from '../ratelimit/sample.js';
import type { Target } from '../target/schema.js';
import type { PlannedRoute } from './plan.js';
import { latencyOf, type SampleInput } from './samples.js';
import { plainInt } from '../ratelimit/parsed.js';
import { ROUTE_CLASSES } from '../spec/routes.js';

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
      sentAt: s.sent,
      receivedAt: s.received,
      class: route.class,
      status: s.status,
      limit: s.limit,
      remaining: s.remaining,
      reset: s.reset,
      retryAfter: s.retryAfter,
      requestId: s.requestId,
      errorCode: s.errorCode,
      key: route.keyName,
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
  into.key = route.keyName;
  return into;
}

/** The header fields of one load response (live samples and trace records carry the same names). */
type HeaderFields = Pick<SampleInput, 'limit' | 'remaining' | 'reset' | 'retryAfter' | 'requestId'>;

/** One load response as the Exchange the header checks read: no bodies are kept, only the headers they judge. */
export function headerExchange(
  id: string,
  method: string,
  url: string,
  status: number,
  h: HeaderFields,
  start: number,
  total: number,
): Exchange {
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

/** What one response's verification reads besides its headers. */
export interface VerifiedResponse extends HeaderFields {
  status: number;
  errorCode?: string;
}

/**
 * The per-response verification of any load response — a live sample or a shard's trace record: the
 * header checks (cached by everything they read) and the 429 body code, grouped into one finding per
 * broken clause and class. A live run (ResponseVerifier) and a merge of shards both verify through it.
 */
export class HeaderVerifier {
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

  /** `windowSeconds`: each class's stated window, which bounds Reset (none: unbounded). */
  constructor(private readonly windowSeconds: Partial<Record<RouteClass, number>>) {}

  /**
   * Checks one response (transport failures, status 0, are skipped) of class `cls` on route `method`
   * `template`; `start`/`total` its send time and latency; `curl` the route its findings reproduce;
   * `cite(index, s)` names it in findings (called only for a response that broke something: pass one
   * function for every response, not a closure per response).
   */
  check<R extends VerifiedResponse>(
    index: number,
    cls: RouteClass,
    method: string,
    template: string,
    s: R,
    start: number,
    total: number,
    curl: CurlRoute,
    cite: (index: number, s: R) => string,
  ): void {
    if (s.status === 0) return;
    const rid = requestIdState(s.requestId);
    const window = this.windowSeconds[cls];
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
      numeric = ((((((cls === 'read' ? 0 : 1) * 1000 + s.status) * 2 + cl) * 2 + cm) * 2 + cr) * 2 + ca) * 3 + RID_CODE[rid];
    }
    const key =
      numeric >= 0
        ? ''
        : `${cls}|${s.status}|${token(s.limit, Infinity)}|${token(s.remaining, lim)}|` +
          `${token(s.reset, resetMax)}|${token(s.retryAfter, Infinity)}|${rid}`;
    let verdict = numeric >= 0 ? this.plainVerdicts.get(numeric) : this.verdicts.get(key);
    if (!verdict) {
      verdict = checkResponseHeaders(headerExchange(`load-${index + 1}`, method, template, s.status, s, start, total), {
        windowSeconds: window,
      });
      if (numeric >= 0) this.plainVerdicts.set(numeric, verdict);
      else {
        if (this.verdicts.size >= 4096) this.verdicts.clear();
        this.verdicts.set(key, verdict);
      }
    }
    const refused = refusalCodeBroken(s.status, s.errorCode);
    // Nearly every response breaks nothing: no citing closure for those.
    if (verdict.length === 0 && !refused) return;
    const name = (): string => cite(index, s);
    for (const v of verdict) this.groups.note(v.clause, cls, v.expected, v.actual, curl, name);
    if (refused) this.groups.note('8.ratelimit.429-code', cls, refused.expected, refused.actual, curl, name);
  }

  /** One finding per broken clause and class, in the order the clauses first broke. */
  findings(strict: boolean, source: string): FindingRecord[] {
    return this.groups.findings(strict, source);
  }
}

const citeLive = (index: number, s: SampleInput): string => citeSample(s, index);

/** Verifies a live run's responses one at a time; `findings()` gives one finding per broken clause and class. */
export class ResponseVerifier {
  private readonly verifier: HeaderVerifier;

  constructor(
    private readonly target: Target,
    private readonly source: string,
  ) {
    const windows: Partial<Record<RouteClass, number>> = {};
    for (const c of ROUTE_CLASSES) {
      const w = target.assumptions.rateLimit[c]?.windowSeconds;
      if (w !== undefined) windows[c] = w;
    }
    this.verifier = new HeaderVerifier(windows);
  }

  /** Checks one response (`index`: its position in the run, for citing); transport failures are skipped. */
  add(index: number, s: SampleInput, route: PlannedRoute): void {
    if (s.status === 0) return;
    this.verifier.check(index, route.class, route.method, route.template, s, s.sent, latencyOf(s), route, citeLive);
  }

  /** One finding per broken clause and class, in the order the clauses first broke. */
  findings(): FindingRecord[] {
    return this.verifier.findings(this.target.assumptions.strict, this.source);
  }
}
