/**
 * What `merge` learns from the shards' trace records, folded one record at a time on the merged clock
 * (ms since the earliest shard started) into the run's fold (src/fold/run-fold.ts — the same status tally,
 * per-second timeline, Remaining series and online rate-limit analysis a live run folds its responses into)
 * plus the per-response verification. Records arrive in order of response time, as they do in a live run,
 * with the watermark of sends not yet answered, so memory is bounded the same way and the figures are
 * those of one fold of every shard's responses. The timeline's latency is the live run's view (corrected
 * from the intended send time in the open model: src/trace/latency.ts); the rate-limit samples keep the
 * actual send and response times, as the live run's do. Pure; the I/O feeds it.
 */
import type { OnlineAnalyzeOptions } from '../ratelimit/online.js';
import type { TraceRecord } from '../trace/record.js';
import { recordToSample } from '../trace/samples.js';
import { traceLatency } from '../trace/latency.js';
import type { TimelineRow } from '../fold/timeline.js';
import { RunFold } from '../fold/run-fold.js';
import type { StatusTally } from '../fold/tally.js';
import { MergedVerifier } from './merge-findings.js';
import type { ProfileResult, RateLimitAnalysis } from '../results/schema.js';

/** Everything merge computes from trace records, fed one record at a time (see the file comment). */
export class TraceFold {
  readonly verifier: MergedVerifier;
  /** Records seen per shard index (checked against each shard's results). */
  readonly perShard = new Map<number, number>();
  private readonly fold: RunFold;

  /**
   * `durationMs`: the merged run's length (the Remaining series' bucket is chosen from it, as a single
   * run's); `skewMs`: how far the shards' clocks may disagree (clock.ts), by which every response's
   * interval is widened for the rate-limit analysis.
   */
  constructor(
    analysis: OnlineAnalyzeOptions | undefined,
    readonly durationMs: number,
    readonly skewMs = 0,
  ) {
    const windowSeconds = Object.fromEntries(Object.entries(analysis?.expected ?? {}).map(([c, e]) => [c, e?.windowSeconds]));
    this.verifier = new MergedVerifier(windowSeconds);
    this.fold = new RunFold(analysis ?? {});
  }

  /** Responses per class × status across every shard. */
  get tally(): StatusTally {
    return this.fold.tally;
  }

  /**
   * Folds one record of shard `shard`, whose clock started `offsetMs` after the merged origin; `watermark`
   * (merged clock), when known: every answered record sent before it has been added (see OnlineRateLimitAnalyzer.push).
   */
  add(shard: number, offsetMs: number, r: TraceRecord, seq: number, watermark?: number): void {
    this.perShard.set(shard, (this.perShard.get(shard) ?? 0) + 1);
    const received = offsetMs + r.t + r.latency;
    this.verifier.add(shard, seq, r);
    // The timeline's latency (per-second percentiles, the capacity judgement) in the live run's view: from
    // the intended send time where the record carries one (open model), so the queue's lag is in it.
    const sample = r.status === 0 ? undefined : recordToSample(r, offsetMs);
    if (sample && this.skewMs > 0) {
      sample.sentAt -= this.skewMs;
      sample.receivedAt += this.skewMs;
    }
    // Sends are widened alike, so the watermark (a send time) moves with them.
    const mark = watermark !== undefined ? watermark - this.skewMs : undefined;
    this.fold.add(r.class, r.status, received, traceLatency(r), r, sample, mark);
  }

  /** The most rate-limit samples held at once (bounded by the analyzer's chunk, not by the run's length). */
  get peakSamples(): number {
    return this.fold.rateLimit.peakRetained;
  }

  /** The rate-limit analysis over every shard's samples. */
  analysis(): RateLimitAnalysis {
    return this.fold.analysis();
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
    return this.fold.timelineRows({ sentPerSecond: { read: sent, write: [] }, droppedPerSecond: { read: dropped, write: [] } });
  }

  /** The Remaining series per class, buckets in time order. */
  rateLimitSeries(): NonNullable<ProfileResult['rateLimitSeries']> {
    return this.fold.rateLimitSeries(this.durationMs);
  }
}
