/**
 * Findings of a merged run, rebuilt from every shard's trace records: the per-response header checks (the
 * same checks/response-headers every load response goes through) and the rate-limit analyzer's violations
 * over all shards together. A shard's own rate-limit findings are not reused: each shard saw only part of
 * the traffic a shared limiter answered. Pure.
 */
import type { Exchange } from '../client/exchange.js';
import { checkResponseHeaders } from '../checks/response-headers.js';
import { clause, isClauseId } from '../spec/clauses.js';
import type { TraceRecord } from '../trace/record.js';
import type { FindingRecord, RateLimitViolation, RouteClass } from './schema.js';

const CITED = 5;

interface Group {
  clause: string;
  class: RouteClass;
  expected: string;
  firstActual: string;
  count: number;
  cited: string[];
  route: { method: string; path: string };
}

/** Collects header-check violations record by record; memory is one group per clause and class. */
export class MergedVerifier {
  private readonly groups = new Map<string, Group>();

  constructor(private readonly windowSeconds: Partial<Record<RouteClass, number>>) {}

  /** Checks one response (transport failures carry no headers and are skipped). `cite` names it in findings. */
  add(r: TraceRecord, cite: string): void {
    if (r.status === 0) return;
    const headers: Record<string, string> = {};
    if (r.limit !== undefined) headers['ratelimit-limit'] = r.limit;
    if (r.remaining !== undefined) headers['ratelimit-remaining'] = r.remaining;
    if (r.reset !== undefined) headers['ratelimit-reset'] = r.reset;
    if (r.retryAfter !== undefined) headers['retry-after'] = r.retryAfter;
    if (r.requestId !== undefined) headers['x-request-id'] = r.requestId;
    const x = {
      id: cite,
      request: { method: r.method, url: r.path, headers: {}, bodyBytes: 0 },
      response: { status: r.status, headers, body: '', bodyBytes: 0 },
      timings: { start: r.t, total: r.latency },
    } satisfies Exchange;
    for (const v of checkResponseHeaders(x, { windowSeconds: this.windowSeconds[r.class] })) this.note(v.clause, r, v.expected, v.actual, cite);
    if (r.status === 429 && r.errorCode !== 'rate_limit.exceeded') {
      this.note('8.ratelimit.429-code', r, 'a 429 body { error: { code: "rate_limit.exceeded" } }', `code ${JSON.stringify(r.errorCode ?? null)}`, cite);
    }
  }

  private note(cl: string, r: TraceRecord, expected: string, actual: string, cite: string): void {
    const k = `${cl}|${r.class}`;
    let g = this.groups.get(k);
    if (!g) this.groups.set(k, (g = { clause: cl, class: r.class, expected, firstActual: actual, count: 0, cited: [], route: { method: r.method, path: r.path } }));
    g.count++;
    if (g.cited.length < CITED) g.cited.push(cite);
  }

  /** One finding per broken clause and class, counting every response that broke it. */
  findings(strict: boolean, source: string): FindingRecord[] {
    return [...this.groups.values()].map((g) => finding(g.clause, strict, source, {
      expected: g.expected,
      actual: `${g.count} ${g.class} response(s), first: ${g.firstActual} (requests ${g.cited.join(', ')})`,
      ids: g.cited,
      curl: curlFor(g.route),
    }));
  }
}

/** The merged analysis's violations as findings, one per rule and class, skipping clauses already reported. */
export function mergedViolationFindings(
  violations: RateLimitViolation[], already: FindingRecord[], routes: Array<{ class: string; method: string; path: string }>, strict: boolean, source: string,
): FindingRecord[] {
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
    const route = routes.find((r) => r.class === v.class) ?? routes[0] ?? { method: 'GET', path: '/me' };
    const where = v.window ? ` in the window ${Math.round(v.window.start)}–${Math.round(v.window.end)} ms` : '';
    const more = vs.length > 1 ? `; ${vs.length} windows or groups in all` : '';
    return finding(v.rule, strict, source, {
      expected: isClauseId(v.rule) ? clause(v.rule).summary : v.rule,
      actual: `${v.class ? `${v.class}: ` : ''}${v.message}${where}${more} across all shards (requests ${ids.join(', ') || 'none cited'})`,
      ids,
      curl: curlFor(route),
    });
  });
}

function finding(cl: string, strict: boolean, source: string, f: { expected: string; actual: string; ids: string[]; curl: string }): FindingRecord {
  const known = isClauseId(cl) ? clause(cl) : undefined;
  const basis = known?.basis ?? 'spec';
  return {
    checkId: `load.${cl}`,
    clause: cl,
    basis,
    severity: basis === 'assumed' && !strict ? 'warning' : 'error',
    title: known?.summary ?? cl,
    expected: f.expected,
    actual: f.actual,
    exchangeIds: [],
    reproduction: { curl: [f.curl], command: `spgate load --profile ${source}` },
    source,
  };
}

/** A curl line for the route template (ids stay as {placeholders}: traces never hold filled paths). */
function curlFor(route: { method: string; path: string }): string {
  return `curl -i -X ${route.method} -H "Authorization: Bearer $SPGATE_API_KEY" "$SPGATE_BASE_URL${route.path}"`;
}
