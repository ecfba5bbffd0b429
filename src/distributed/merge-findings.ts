/**
 * Findings of a merged run, rebuilt from every shard's trace records: the per-response header checks (the
 * same checks/response-headers every load response goes through) and the rate-limit analyzer's violations
 * over all shards together. A shard's own rate-limit findings are not reused: each shard saw only part of
 * the traffic a shared limiter answered. Pure.
 */
import { checkResponseHeaders } from '../checks/response-headers.js';
import { ClauseGroups, refusalCodeBroken } from '../load/findings.js';
import { headerExchange } from '../load/verify.js';
import type { TraceRecord } from '../trace/record.js';
import type { FindingRecord, RouteClass } from '../results/schema.js';

/** Collects header-check violations record by record; memory is one group per clause and class. */
export class MergedVerifier {
  private readonly groups = new ClauseGroups();

  constructor(private readonly windowSeconds: Partial<Record<RouteClass, number>>) {}

  /** Checks one response (transport failures carry no headers and are skipped). `cite` names it in findings. */
  add(r: TraceRecord, cite: string): void {
    if (r.status === 0) return;
    const x = headerExchange(cite, r.method, r.path, r.status, r, r.t, r.latency);
    const route = { method: r.method, path: r.path };
    for (const v of checkResponseHeaders(x, { windowSeconds: this.windowSeconds[r.class] })) this.groups.note(v.clause, r.class, v.expected, v.actual, route, () => cite);
    const refused = refusalCodeBroken(r.status, r.errorCode);
    if (refused) this.groups.note('8.ratelimit.429-code', r.class, refused.expected, refused.actual, route, () => cite);
  }

  /** One finding per broken clause and class, counting every response that broke it. */
  findings(strict: boolean, source: string): FindingRecord[] {
    return this.groups.findings(strict, source);
  }
}
