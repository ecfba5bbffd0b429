/**
 * Findings of a merged run, rebuilt from every shard's trace records: the per-response header checks, by
 * the same verifier a live run uses (load/verify.ts HeaderVerifier: checks/response-headers and the 429
 * code), and the rate-limit analyzer's violations over all shards together. A shard's own rate-limit
 * findings are not reused: each shard saw only part of the traffic a shared limiter answered. Pure.
 */
import { HeaderVerifier } from '../load/verify.js';
import type { TraceRecord } from '../trace/record.js';
import type { FindingRecord, RouteClass } from '../results/schema.js';

/** Collects header-check violations record by record; memory is one group per clause and class. */
export class MergedVerifier {
  private readonly verifier: HeaderVerifier;
  /** The shard of the record being checked (for citing it). */
  private shard = 0;
  /** How a record is cited: its X-Request-Id, or its shard, position and time (one function for every record). */
  private readonly cite = (seq: number, r: TraceRecord): string =>
    r.requestId ?? `shard ${this.shard} #${seq}@${Math.round(r.t + r.latency)}ms`;

  constructor(windowSeconds: Partial<Record<RouteClass, number>>) {
    this.verifier = new HeaderVerifier(windowSeconds);
  }

  /** Checks one record of shard `shard` (its `seq`-th); transport failures carry no headers and are skipped. */
  add(shard: number, seq: number, r: TraceRecord): void {
    if (r.status === 0) return;
    const route = { method: r.method, path: r.path };
    this.shard = shard;
    this.verifier.check(seq, r.class, r.method, r.path, r, r.t, r.latency, route, this.cite);
  }

  /** One finding per broken clause and class, counting every response that broke it. */
  findings(strict: boolean, source: string): FindingRecord[] {
    return this.verifier.findings(strict, source);
  }
}
