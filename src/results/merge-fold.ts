/**
 * What `merge` learns from the shards' trace records, folded one record at a time on the merged clock
 * (ms since the earliest shard started): per-class status counts (for class-narrowed thresholds), the
 * per-second completions, latencies and RateLimit snapshot, the Remaining series, the analyzer's samples
 * (all shards together) and the per-response verification. Pure; the I/O feeds it.
 */
import type { RateLimitSample } from '../ratelimit/sample.js';
import type { TraceRecord } from '../trace/record.js';
import { recordToSample } from '../trace/samples.js';
import { familyOf } from '../load/histograms.js';
import { isError } from '../load/timeline.js';
import { MergedVerifier } from './merge-findings.js';
import type { ProfileResult, RouteClass } from './schema.js';

type Bucket = [number, number | null, number | null, number];
type Snapshot = { limit: number | null; remaining: number | null; reset: number | null };

/** Responses of one class across every shard, by status. */
export interface ClassTally {
  records: number;
  completed: number;
  transport: number;
  errors: number;
  byStatus: Map<number, number>;
}

interface Second {
  completed: number;
  errors: number;
  byFamily: Record<string, number>;
  refused: Record<RouteClass, number>;
  lat: number[];
  last: Partial<Record<RouteClass, { at: number; snap: Snapshot }>>;
}

const intOrNull = (raw: string | undefined): number | null => (raw !== undefined && /^\d+$/.test(raw) ? Number(raw) : null);

/** The same nearest-rank percentile the single-run timeline uses. */
function percentile(sorted: number[], p: number): number | null {
  if (!sorted.length) return null;
  const i = Math.min(sorted.length - 1, Math.max(0, Math.ceil((p / 100) * sorted.length) - 1));
  return Math.round(sorted[i]! * 1000) / 1000;
}

/** Everything merge computes from trace records, fed one record at a time (see the file comment). */
export class TraceFold {
  readonly tally: Record<RouteClass, ClassTally> = { read: newTally(), write: newTally() };
  readonly samples: RateLimitSample[] = [];
  readonly verifier: MergedVerifier;
  /** Records seen per shard index (checked against each shard's results). */
  readonly perShard = new Map<number, number>();
  private readonly seconds: Second[] = [];
  private readonly series: Record<RouteClass, Map<number, Bucket>> = { read: new Map(), write: new Map() };

  /** `bucketMs`: the Remaining series' bucket, chosen from the merged duration as a single run would. */
  constructor(windowSeconds: Partial<Record<RouteClass, number>>, readonly bucketMs: number) {
    this.verifier = new MergedVerifier(windowSeconds);
  }

  /** Folds one record of shard `shard`, whose clock started `offsetMs` after the merged origin. */
  add(shard: number, offsetMs: number, r: TraceRecord, seq: number): void {
    this.perShard.set(shard, (this.perShard.get(shard) ?? 0) + 1);
    const sent = offsetMs + r.t;
    const received = sent + r.latency;
    const t = this.tally[r.class];
    t.records++;
    t.byStatus.set(r.status, (t.byStatus.get(r.status) ?? 0) + 1);
    if (r.status === 0) t.transport++;
    else t.completed++;
    if (isError(r.status)) t.errors++;

    const sec = this.second(Math.floor(received / 1000));
    sec.completed++;
    if (isError(r.status)) sec.errors++;
    const fam = familyOf(r.status) ?? 'error';
    sec.byFamily[fam] = (sec.byFamily[fam] ?? 0) + 1;
    const cite = r.requestId ?? `shard ${shard} #${seq}@${Math.round(r.t + r.latency)}ms`;
    this.verifier.add(r, cite);
    if (r.status === 0) return;
    if (r.status === 429) sec.refused[r.class]++;
    sec.lat.push(r.latency);
    const prev = sec.last[r.class];
    if (!prev || prev.at <= received) sec.last[r.class] = { at: received, snap: { limit: intOrNull(r.limit), remaining: intOrNull(r.remaining), reset: intOrNull(r.reset) } };

    const start = Math.floor(received / this.bucketMs) * this.bucketMs;
    let b = this.series[r.class].get(start);
    if (!b) this.series[r.class].set(start, (b = [start, null, null, 0]));
    if (r.status === 429) b[3]++;
    const rem = intOrNull(r.remaining);
    if (rem !== null) {
      b[1] = b[1] === null ? rem : Math.min(b[1], rem);
      b[2] = b[2] === null ? rem : Math.max(b[2], rem);
    }

    this.samples.push(recordToSample(r, offsetMs));
  }

  private second(i: number): Second {
    while (this.seconds.length <= i) {
      this.seconds.push({ completed: 0, errors: 0, byFamily: {}, refused: { read: 0, write: 0 }, lat: [], last: {} });
    }
    return this.seconds[i]!;
  }

  /**
   * The merged timeline: sends and drops come from the shards' own timelines shifted by their whole-second
   * offsets; everything about responses comes from the records on the merged clock. Latency percentiles
   * are from the actual send (trace records carry no intended time).
   */
  timeline(shards: Array<{ offsetMs: number; timeline: ProfileResult['timeline'] }>): Array<ProfileResult['timeline'][number] & { errors: number }> {
    const sentAt: number[] = [];
    const droppedAt: number[] = [];
    for (const s of shards) {
      const shift = Math.round(s.offsetMs / 1000);
      for (const p of s.timeline) {
        sentAt[p.t + shift] = (sentAt[p.t + shift] ?? 0) + p.sent;
        droppedAt[p.t + shift] = (droppedAt[p.t + shift] ?? 0) + p.dropped;
      }
    }
    const n = Math.max(this.seconds.length, sentAt.length, droppedAt.length);
    const out: Array<ProfileResult['timeline'][number] & { errors: number }> = [];
    for (let t = 0; t < n; t++) {
      const s = this.seconds[t];
      const lat = s ? [...s.lat].sort((a, b) => a - b) : [];
      const rateLimit: ProfileResult['timeline'][number]['rateLimit'] = {};
      for (const cls of ['read', 'write'] as const) if (s?.last[cls]) rateLimit[cls] = s.last[cls].snap;
      out.push({
        t,
        sent: sentAt[t] ?? 0,
        completed: s?.completed ?? 0,
        dropped: droppedAt[t] ?? 0,
        errors: s?.errors ?? 0,
        byFamily: { ...(s?.byFamily ?? {}) },
        p50: percentile(lat, 50),
        p95: percentile(lat, 95),
        p99: percentile(lat, 99),
        rateLimit,
        refused: { read: s?.refused.read ?? 0, write: s?.refused.write ?? 0 },
      });
    }
    return out;
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
