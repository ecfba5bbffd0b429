/**
 * Findings of a merged run, rebuilt from every shard's trace records: the per-response header checks (the
 * same checks/response-headers every load response goes through) and the rate-limit analyzer's violations
 * over all shards together. A shard's own rate-limit findings are not reused: each shard saw only part of
 * the traffic a shared limiter answered. Pure.
 */
import type { Exchange } from '../client/exchange.js';
import { checkResponseHeaders } from '../checks/response-headers.js';
import { CITED, curlFor, loadFinding } from '../load/findings.js';
import type { TraceRecord } from '../trace/record.js';
import type { FindingRecord, RouteClass } from './schema.js';


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
    return [...this.groups.values()].map((g) => loadFinding(g.clause, strict, source, {
      expected: g.expected,
      actual: `${g.count} ${g.class} response(s), first: ${g.firstActual} (requests ${g.cited.join(', ')})`,
      curl: curlFor(g.route),
    }));
  }
}

