/**
 * Per-response verification of a load run, after the fact: every recorded response goes through the same
 * header checks as conformance (checks/response-headers), plus the 429 body code. Repeats of one rule are
 * folded into one finding per clause and class that counts them and cites the first request ids. The
 * rate-limit analyzer's violations become findings the same way.
 */
import type { Exchange } from '../client/exchange.js';
import { checkResponseHeaders } from '../checks/response-headers.js';
import type { FindingRecord, RateLimitViolation, RouteClass } from '../results/schema.js';
import type { RateLimitSample } from '../ratelimit/sample.js';
import { clause, isClauseId } from '../spec/clauses.js';
import type { Target } from '../target/schema.js';
import type { PlannedRoute } from './plan.js';
import { H_LIMIT, H_REMAINING, H_RESET, H_RETRY_AFTER, type SampleBuffer } from './samples.js';

const CITED = 5;

interface Group {
  clause: string;
  class: RouteClass;
  expected: string;
  firstActual: string;
  count: number;
  cited: number[];
}

/** How a sample is cited: its X-Request-Id, or its position and time when the server sent none. */
export function citeSample(buf: SampleBuffer, i: number): string {
  return buf.requestIds[i] ?? `#${i + 1}@${Math.round(buf.received[i]!)}ms`;
}

/** The analyzer's view of every response (transport failures are left out: they carry no headers). */
export function toRateLimitSamples(buf: SampleBuffer, routes: PlannedRoute[]): RateLimitSample[] {
  const out: RateLimitSample[] = [];
  for (let i = 0; i < buf.length; i++) {
    const status = buf.status[i]!;
    if (status === 0) continue;
    const route = routes[buf.route[i]!]!;
    out.push({
      sentAt: buf.sent[i]!, receivedAt: buf.received[i]!, class: route.class, status,
      limit: buf.header(i, H_LIMIT), remaining: buf.header(i, H_REMAINING), reset: buf.header(i, H_RESET),
      retryAfter: buf.header(i, H_RETRY_AFTER), requestId: buf.requestIds[i], errorCode: buf.errorCodes.get(i), key: route.keyRole,
    });
  }
  return out;
}

function headersOf(buf: SampleBuffer, i: number): Record<string, string> {
  const h: Record<string, string> = {};
  const put = (name: string, v: string | undefined): void => {
    if (v !== undefined) h[name] = v;
  };
  put('ratelimit-limit', buf.header(i, H_LIMIT));
  put('ratelimit-remaining', buf.header(i, H_REMAINING));
  put('ratelimit-reset', buf.header(i, H_RESET));
  put('retry-after', buf.header(i, H_RETRY_AFTER));
  put('x-request-id', buf.requestIds[i]);
  return h;
}

/** Verifies every response of the run; one finding per broken clause and class. */
export function verifyResponses(buf: SampleBuffer, routes: PlannedRoute[], target: Target, source: string): FindingRecord[] {
  const groups = new Map<string, Group>();
  const add = (cl: string, cls: RouteClass, expected: string, actual: string, i: number): void => {
    const k = `${cl}|${cls}`;
    let g = groups.get(k);
    if (!g) groups.set(k, (g = { clause: cl, class: cls, expected, firstActual: actual, count: 0, cited: [] }));
    g.count++;
    if (g.cited.length < CITED) g.cited.push(i);
  };
  for (let i = 0; i < buf.length; i++) {
    const status = buf.status[i]!;
    if (status === 0) continue;
    const route = routes[buf.route[i]!]!;
    const x = {
      id: `load-${i + 1}`,
      request: { method: route.method, url: route.template, headers: {}, bodyBytes: 0 },
      response: { status, headers: headersOf(buf, i), body: '', bodyBytes: 0 },
      timings: { start: buf.sent[i]!, total: buf.latency(i) },
    } satisfies Exchange;
    for (const v of checkResponseHeaders(x, { windowSeconds: target.assumptions.rateLimit[route.class]?.windowSeconds })) {
      add(v.clause, route.class, v.expected, v.actual, i);
    }
    if (status === 429 && buf.errorCodes.get(i) !== 'rate_limit.exceeded') {
      add('8.ratelimit.429-code', route.class, 'a 429 body { error: { code: "rate_limit.exceeded" } }', `code ${JSON.stringify(buf.errorCodes.get(i) ?? null)}`, i);
    }
  }
  return [...groups.values()].map((g) => {
    const ids = g.cited.map((i) => citeSample(buf, i));
    const first = g.cited[0]!;
    const route = routes[buf.route[first]!]!;
    return finding(g.clause, target, source, {
      expected: g.expected,
      actual: `${g.count} ${g.class} response(s), first: ${g.firstActual} (requests ${ids.join(', ')})`,
      ids,
      curl: curlFor(route),
    });
  });
}

/**
 * Turns the analyzer's violations into findings, one per rule and class (the analyzer reports one per
 * window), skipping clauses the per-response checks already reported.
 */
export function violationFindings(violations: RateLimitViolation[], already: FindingRecord[], routes: PlannedRoute[], target: Target, source: string): FindingRecord[] {
  const seen = new Set(already.map((f) => f.clause));
  const groups = new Map<string, RateLimitViolation[]>();
  for (const v of violations) {
    if (seen.has(v.rule)) continue;
    const k = `${v.rule}|${v.class ?? ''}`;
    groups.set(k, [...(groups.get(k) ?? []), v]);
  }
  return [...groups.values()].map((vs) => {
    const v = vs[0]!;
    const ids = [...new Set(vs.flatMap((x) => x.samples.map((s) => s.requestId ?? `${Math.round(s.t)}ms`)))].slice(0, CITED);
    const route = routes.find((r) => r.class === v.class) ?? routes[0]!;
    const where = v.window ? ` in the window ${Math.round(v.window.start)}–${Math.round(v.window.end)} ms` : '';
    const more = vs.length > 1 ? `; ${vs.length} windows or groups in all` : '';
    return finding(v.rule, target, source, {
      expected: isClauseId(v.rule) ? clause(v.rule).summary : v.rule,
      actual: `${v.class ? `${v.class}: ` : ''}${v.message}${where}${more} (requests ${ids.join(', ') || 'none cited'})`,
      ids,
      curl: curlFor(route),
    });
  });
}

function finding(cl: string, target: Target, source: string, f: { expected: string; actual: string; ids: string[]; curl: string }): FindingRecord {
  const known = isClauseId(cl) ? clause(cl) : undefined;
  const basis = known?.basis ?? 'spec';
  return {
    checkId: `load.${cl}`,
    clause: cl,
    basis,
    severity: basis === 'assumed' && !target.assumptions.strict ? 'warning' : 'error',
    title: known?.summary ?? cl,
    expected: f.expected,
    actual: f.actual,
    // Load runs keep no exchanges (only samples); the request ids are cited in `actual` instead.
    exchangeIds: [],
    reproduction: { curl: [f.curl], command: `spgate load --profile ${source}` },
    source,
  };
}

/** A curl line for one request of the route, the key left as $SPGATE_API_KEY. */
function curlFor(route: PlannedRoute): string {
  const body = route.body ? ` -H 'Content-Type: application/json' --data '${route.body(1)}'` : '';
  const idem = route.idempotencyKey ? ` -H "Idempotency-Key: spgate-repro-$RANDOM$RANDOM"` : '';
  return `curl -i -X ${route.method} -H "Authorization: Bearer $SPGATE_API_KEY"${idem}${body} "$SPGATE_BASE_URL${route.path}"`;
}
