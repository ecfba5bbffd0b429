/**
 * The fold of a load run's responses: every per-response figure is defined here once — the status tally
 * per class × status, the per-second timeline, the RateLimit-Remaining series and the online rate-limit
 * analysis (fed with the watermark of in-flight sends when known). A live run folds its responses as they
 * arrive (load/aggregate.ts adds histograms, verification and the trace around it); a merge of shards
 * folds every shard's trace records on one clock in response order (distributed/merge-fold.ts), so the
 * merged figures are the fold of all responses. The tally merges as it is (StatusTally.merge); the
 * timeline and the analysis depend on the order of responses across shards, so a merge re-folds records.
 * Memory is bounded as the parts are: one second of latencies, one analyzer chunk, a few numbers a second.
 */
import type { ProfileResult, RouteClass } from '../results/schema.js';
import { OnlineRateLimitAnalyzer, type OnlineAnalyzeOptions } from '../ratelimit/online.js';
import type { RateLimitSample } from '../ratelimit/sample.js';
import type { RateLimitAnalysis } from '../results/schema.js';
import { TimelineBuilder, type SendsPerSecond, type TimelineRow } from './timeline.js';
import { RateLimitSeriesBuilder } from './ratelimit-series.js';
import { StatusTally } from './tally.js';

/** The RateLimit-* header strings a response carried (live samples and trace records name them alike). */
export interface HeaderStrings {
  limit?: string;
  remaining?: string;
  reset?: string;
}

export class RunFold {
  readonly tally = new StatusTally();
  readonly rateLimit: OnlineRateLimitAnalyzer;
  private readonly timeline = new TimelineBuilder();
  private readonly series = new RateLimitSeriesBuilder();

  constructor(analysis: OnlineAnalyzeOptions) {
    this.rateLimit = new OnlineRateLimitAnalyzer(analysis);
  }

  /**
   * Folds one response (status 0: a transport failure) of class `cls`, answered at `received` ms;
   * `latencyMs` is the view the timeline reports, `sample` the analyzer's view (none for a transport
   * failure), `watermark` the earliest send still in flight (see OnlineRateLimitAnalyzer.push).
   */
  add(
    cls: RouteClass,
    status: number,
    received: number,
    latencyMs: number,
    h: HeaderStrings,
    sample: RateLimitSample | undefined,
    watermark?: number,
  ): void {
    this.tally.add(cls, status);
    this.timeline.add(received, cls, status, latencyMs, h);
    if (status === 0) return;
    this.series.add(cls, received, status, h.remaining);
    if (sample) this.rateLimit.push(sample, watermark);
  }

  /** The per-second timeline, every second closed, with the sends and drops per second added. */
  timelineRows(sends: SendsPerSecond): TimelineRow[] {
    return this.timeline.finish(sends);
  }

  /** The Remaining series of a run of `durationMs`. */
  rateLimitSeries(durationMs: number): NonNullable<ProfileResult['rateLimitSeries']> {
    return this.series.build(durationMs);
  }

  /** The rate-limit analysis of every response folded in. */
  analysis(): RateLimitAnalysis {
    return this.rateLimit.finish();
  }
}
