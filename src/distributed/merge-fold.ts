/**
 * What `merge` learns from the shards' trace records, folded one record at a time on the merged clock
 * (ms since the earliest shard started): per-class status counts (for class-narrowed thresholds), the
 * per-second timeline (the live run's TimelineBuilder), the Remaining series, the online rate-limit analysis
 * of all shards' samples together and the per-response verification. Records arrive in order of response
 * time, as they do in a live run, so memory is bounded the same way: one analyzer chunk, one second of
 * latencies, a few numbers per past second. Pure; the I/O feeds it.
 */
import { OnlineRateLimitAnalyzer } from '../ratelimit/online.js';
import type { TraceRecord } from '../trace/record.js';
import { recordToSample } from '../trace/samples.js';
import { isError, TimelineBuilder, type TimelineRow } from '../load/timeline.js';
import { MergedVerifier } from './merge-findings.js';
import type { ProfileResult, RateLimitAnalysis, RouteClass } from '../results/schema.js';

type Bucket = [number, number | null, number | null, number];

/** Responses of one class across every shard, by status. */
export interface ClassTally {
  records: number;
  completed: number;
  transport: number;
  errors: number;
  byStatus: Map<number, number>;
}

const intOrNull = (raw: string | undefined): number | null => (raw !== undefined && /^\d+$/.test(raw) ? Number(raw) : null);

/** Everything merge computes from trace records, fed one record at a time (see the file comment). */
export class TraceFold {
  readonly tally: Record<RouteClass, ClassTally> = { read: newTally(), write: newTally() };
  readonly verifier: MergedVerifier;
  /** Records seen per shard index (checked against each shard's results). */
  readonly perShard = new Map<number, number>();
  private readonly rateLimit: OnlineRateLimitAnalyzer;
  private readonly seconds = new TimelineBuilder();
  private readonly series: Record<RouteClass, Map<number, Bucket>> = { read: new Map(), write: new Map() };

  /** `bucketMs`: the Remaining series' bucket, chosen from the merged duration as a single run would. */
  constructor(analysis: ConstructorParameters<typeof OnlineRateLimitAnalyzer>[0], readonly bucketMs: number) {
    const windowSeconds = Object.fromEntries(Object.entries(analysis?.expected ?? {}).map(([c, e]) => [c, e?.windowSeconds]));
    this.verifier = new MergedVerifier(windowSeconds);
    this.rateLimit = new OnlineRateLimitAnalyzer(analysis);
  }

  /**
   * Folds one record of shard `shard`, whose clock started `offsetMs` after the merged origin; `watermark`
   * (merged clock), when known: every answered record sent before it has been added (see OnlineRateLimitAnalyzer.push).
   */
  add(shard: number, offsetMs: number, r: TraceRecord, seq: number, watermark?: number): void {
    this.perShard.set(shard, (this.perShard.get(shard) ?? 0) + 1);
    const sent = offsetMs + r.t;
    const received = sent + r.latency;
    const t = this.tally[r.class];
    t.records++;
    t.byStatus.set(r.status, (t.byStatus.get(r.status) ?? 0) + 1);
    if (r.status === 0) t.transport++;
    else t.completed++;
    if (isError(r.status)) t.errors++;

    // Latency percentiles are from the actual send: trace records carry no intended time.
    this.seconds.add(received, r.class, r.status, r.latency, r);
    const cite = r.requestId ?? `shard ${shard} #${seq}@${Math.round(r.t + r.latency)}ms`;
    this.verifier.add(r, cite);
    if (r.status === 0) return;

    const start = Math.floor(received / this.bucketMs) * this.bucketMs;
    let b = this.series[r.class].get(start);
    if (!b) this.series[r.class].set(start, (b = [start, null, null, 0]));
    if (r.status === 429) b[3]++;
    const rem = intOrNull(r.remaining);
    if (rem !== null) {
      b[1] = b[1] === null ? rem : Math.min(b[1], rem);
      b[2] = b[2] === null ? rem : Math.max(b[2], rem);
    }

    this.rateLimit.push(recordToSample(r, offsetMs), watermark);
  }

  /** The most rate-limit samples held at once (bounded by the analyzer's chunk, not by the run's length). */
  get peakSamples(): number {
    return this.rateLimit.peakRetained;
  }

  /** The rate-limit analysis over every shard's samples. */
  analysis(): RateLimitAnalysis {
    return this.rateLimit.finish();
  }

  /**
   * The merged timeline: sends and drops come from the shards' own timelines shifted by their whole-second
   * offsets (their rows carry totals, not classes); everything about responses comes from the records on
   * the merged clock.
   */
  timeline(shards: Array<{ offsetMs: number; timeline: ProfileResult['timeline'] }>): TimelineRow[] {
    const sent: number[] = [];
    const dropped: number[] = [];
    for (const s of shards) {
      const shift = Math.round(s.offsetMs / 1000);
      for (const p of s.timeline) {
        sent[p.t + shift] = (sent[p.t + shift] ?? 0) + p.sent;
        dropped[p.t + shift] = (dropped[p.t + shift] ?? 0) + p.dropped;
      }
    }
    return this.seconds.finish({ sentPerSecond: { read: sent, write: [] }, droppedPerSecond: { read: dropped, write: [] } });
  }

  /** The Remaining series per class, buckets in time order. */
  rateLimitSeries(): NonNullable<ProfileResult['rateLimitSeries']> {
    const sorted = (m: Map<number, Bucket>): Bucket[] => [...m.values()].sort((a, b) => a[0] - b[0]);
    return { bucketMs: this.bucketMs, read: sorted(this.series.read), write: sorted(this.series.write) };
  }
}

function newTally(): ClassTally {
  return { records: 0, completed: 0, transport: 0, errors: 0, byStatus: new Map() };
}
