/**
 * The online aggregator of a live load run (the runner hands it every response, as autocannon's runner
 * hands results to aggregateResult): each response goes into the run's fold (src/fold/run-fold.ts: status
 * tally, per-second timeline, Remaining series, rate-limit analysis), its HDR histograms and the
 * per-response verification, is handed to the live observers and written to the trace file, then
 * forgotten. Memory is bounded by the histograms, one second of latencies, one analyzer chunk and the
 * cited evidence, plus a few numbers per second of run: it does not grow with the number of requests.
 * `finish` turns the fold into the ProfileResult and findings, thresholds evaluated on it
 * (src/fold/threshold-context.ts, the same as a merge of shards). `snapshot` gives the cumulative figures
 * while the run goes, for live outputs.
 */
import type { FindingRecord, ProfileResult, RouteClass } from '../results/schema.js';
import type { Target } from '../target/schema.js';
import type { OnlineRateLimitAnalyzer, OnlineAnalyzeOptions } from '../ratelimit/online.js';
import type { RateLimitSample } from '../ratelimit/sample.js';
import type { TraceWriter } from '../trace/writer.js';
import { responseRecord } from '../trace/from-response.js';
import type { Plan, PlannedRoute } from './plan.js';
import { maxInFlight } from './engine.js';
import type { LoadRecorder } from './recorder.js';
import { LatencyHistograms } from './histograms.js';
import { findCapacity } from './timeline.js';
import { ResponseVerifier, toRateLimitSample } from './verify.js';
import { violationFindings } from './findings.js';
import { evaluateThreshold, type Family } from './threshold.js';
import { markLowerBound, type GeneratorVerdict } from './generator-verdict.js';
import { correctedLatencyOf, latencyOf, type SampleInput } from './samples.js';
import { RunFold } from '../fold/run-fold.js';
import type { StatusTally } from '../fold/tally.js';
import { rateLimitViolations, thresholdContext, type LatencyHistogram } from '../fold/threshold-context.js';

export interface AggregatorOptions {
  plan: Plan;
  target: Target;
  /** Where every response goes, in completion order (optional). */
  trace?: TraceWriter;
  /** Chunking of the rate-limit analysis (defaults suit any run length). */
  rateLimit?: Omit<OnlineAnalyzeOptions, 'expected'>;
  /** Live outputs: each is handed every response as it is folded in (see ResponseObserver). */
  observers?: readonly ResponseObserver[];
}

/**
 * A live output's hook (a metrics exporter, src/metrics): called once per response (status 0: a transport
 * failure), after the response is folded in, with its planned route (class, method, key role). Keep it
 * cheap — it runs on the hot path — and
 * read cumulative figures from `LoadAggregator.snapshot()` when pushing rather than re-counting here.
 */
export interface ResponseObserver {
  onResponse(s: SampleInput, route: PlannedRoute): void;
}

/** The cumulative figures of a run so far (LoadAggregator.snapshot). */
export interface FoldSnapshot {
  /** Responses per class × status family (`error`: transport failures), and per class × status. */
  counts: Record<RouteClass, Record<Family | 'error', number>>;
  tally: StatusTally;
  /** One latency histogram (µs) per class × family, uncorrected (from the actual send): cumulative, copies. */
  histograms: Record<RouteClass, Record<Family, LatencyHistogram>>;
  sent: Record<RouteClass, number>;
  dropped: Record<RouteClass, number>;
  /** 429 responses. */
  refused: Record<RouteClass, number>;
  /**
   * Rate-limit violations so far: clauses the per-response checks found broken (one per clause and class)
   * plus the analyzer's rows of the chunks analysed so far (it judges in chunks, so this lags a little).
   */
  violations: number;
}

export interface FinishInput {
  rec: LoadRecorder;
  startedAt: Date;
  elapsedMs: number;
  engineError?: string;
  aborted: boolean;
  tracePath?: string;
  /** The generator's own lag and its verdict (generator-verdict.ts). */
  generator?: GeneratorVerdict;
}

/** Folds responses into the aggregates of one run. */
export class LoadAggregator {
  private readonly hist: LatencyHistograms;
  private readonly fold: RunFold;
  private readonly verifier: ResponseVerifier;
  readonly rateLimit: OnlineRateLimitAnalyzer;
  private readonly observers: readonly ResponseObserver[];
  private n = 0;
  private readonly limitStr = new LastString();
  private readonly resetStr = new LastString();
  private readonly retryAfterStr = new LastString();
  private readonly errorCodeStr = new LastString();
  /** The record each response is handed to the rate-limit analyzer in (it copies what it holds). */
  private readonly scratch: RateLimitSample = {
    sentAt: 0, receivedAt: 0, class: 'read', status: 0, limit: undefined, remaining: undefined, reset: undefined, retryAfter: undefined,
    requestId: undefined, errorCode: undefined, key: undefined,
  };

  constructor(private readonly opts: AggregatorOptions) {
    this.hist = new LatencyHistograms(opts.plan.model === 'open');
    this.verifier = new ResponseVerifier(opts.target, opts.plan.name);
    this.fold = new RunFold({ inFlight: maxInFlight(opts.plan), ...opts.rateLimit, expected: opts.target.assumptions.rateLimit, strict: opts.target.assumptions.strict });
    this.rateLimit = this.fold.rateLimit;
    this.observers = opts.observers ?? [];
  }

  /** Responses folded in so far. */
  get count(): number {
    return this.n;
  }

  /** Folds one response (or transport failure) in; the recorder's sink (`watermark`: see ResponseSink). */
  add(s: SampleInput, watermark?: number): void {
    const i = this.n++;
    const route = this.opts.plan.routes[s.route]!;
    const cls = route.class;
    const latency = latencyOf(s);
    const corrected = correctedLatencyOf(s);
    this.hist.record(cls, s.status, latency, corrected);
    this.verifier.add(i, s, route);
    const rl = toRateLimitSample(s, route, this.scratch);
    if (rl) {
      // The analyzer holds a chunk of samples (copies of this record): repeated header values share one
      // string, and each response's own copy dies young instead of being kept (less for the collector to copy).
      rl.limit = this.limitStr.same(rl.limit);
      rl.reset = this.resetStr.same(rl.reset);
      rl.retryAfter = this.retryAfterStr.same(rl.retryAfter);
      rl.errorCode = this.errorCodeStr.same(rl.errorCode);
    }
    this.fold.add(cls, s.status, s.received, this.hist.hasCorrected ? corrected : latency, s, rl, watermark);
    for (const o of this.observers) o.onResponse(s, route);
    this.opts.trace?.write(responseRecord(s, route));
  }

  /** The cumulative figures so far, for live outputs; `rec` gives the sends and drops. */
  snapshot(rec: Pick<LoadRecorder, 'sentTotal' | 'droppedTotal'>): FoldSnapshot {
    const tally = this.fold.tally;
    const fam = (cls: RouteClass): Record<Family | 'error', number> => ({
      '2xx': tally.count('2xx', cls), '429': tally.count('429', cls), other: tally.count('completed', cls) - tally.count('2xx', cls) - tally.count('429', cls), error: tally.count('transport', cls),
    });
    const hists = (cls: RouteClass): Record<Family, LatencyHistogram> =>
      ({ '2xx': this.hist.merged(cls, '2xx', false), '429': this.hist.merged(cls, '429', false), other: this.hist.merged(cls, 'other', false) });
    return {
      counts: { read: fam('read'), write: fam('write') },
      tally,
      histograms: { read: hists('read'), write: hists('write') },
      sent: { ...rec.sentTotal },
      dropped: { ...rec.droppedTotal },
      refused: { read: tally.count('429', 'read'), write: tally.count('429', 'write') },
      violations: rateLimitViolations(this.verifier.findings()) + this.rateLimit.violationsSoFar,
    };
  }

  /** The ProfileResult and findings of the run, from the aggregates (thresholds evaluated here). */
  finish(f: FinishInput): { result: ProfileResult; findings: FindingRecord[] } {
    const { plan, target } = this.opts;
    const { rec } = f;
    const tally = this.fold.tally;
    const byStatus = tally.byStatusRecord();
    const byClass = { read: tally.byClass.read.records, write: tally.byClass.write.records };
    const responses = tally.count('completed');
    const transport = rec.transportErrors;
    const dropped = rec.droppedTotal.read + rec.droppedTotal.write;
    const sent = rec.sentTotal.read + rec.sentTotal.write;

    const analysis = this.fold.analysis();
    const verified = this.verifier.findings();
    const findings = [...verified, ...violationFindings(analysis.violations, verified, plan.routes, target.assumptions.strict, plan.name)];
    const points = this.fold.timelineRows(rec);

    const seconds = Math.max(f.elapsedMs / 1000, 1e-3);
    const ctx = thresholdContext({
      tally, findings, seconds,
      histogram: (cls, family) => this.hist.merged(cls, family),
      sent: (cls) => (cls ? rec.sentTotal[cls] : sent),
      dropped: (cls) => (cls ? rec.droppedTotal[cls] : dropped),
      ...(f.generator ? { generator: f.generator } : {}),
    });
    const thresholds = plan.thresholds.map((t) => evaluateThreshold(t, ctx));

    let error = f.engineError;
    if (!error && !f.aborted && responses === 0 && transport > 0) {
      error = `target unreachable: ${rec.firstError ?? 'transport error'} on every request`;
    }
    const status: ProfileResult['status'] = f.aborted ? 'aborted' : error ? 'error'
      : thresholds.some((t) => !t.ok) || findings.some((x) => x.severity === 'error') ? 'failed' : 'passed';

    const full = points.filter((p) => p.t < Math.floor(seconds));
    const result: ProfileResult = {
      name: plan.name,
      description: plan.description,
      model: plan.model,
      startedAt: f.startedAt.toISOString(),
      durationMs: Math.round(f.elapsedMs),
      config: plan.config,
      totals: { sent, completed: responses, dropped, errors: transport, byStatus, byClass },
      throughput: { meanRps: round(responses / seconds), peakRps: Math.max(0, ...(full.length ? full : points).map((p) => p.completed)) },
      latency: this.hist.summaries(),
      timeline: points.map(({ errors: _e, ...p }) => p),
      thresholds,
      rateLimit: analysis,
      rateLimitSeries: this.fold.rateLimitSeries(f.elapsedMs),
      status,
    };
    if (f.tracePath) result.trace = f.tracePath;
    if (error) result.error = error;
    if (plan.capacity) result.capacity = findCapacity(points, plan.capacity, Math.floor(seconds));
    if (f.generator) {
      result.generator = f.generator;
      if (result.capacity) result.capacity = markLowerBound(result.capacity, f.generator);
    }
    return { result, findings };
  }
}

/** Remembers the last string seen, to hand back the same instance while the value repeats. */
class LastString {
  private last: string | undefined;

  /** `v`, or the equal string seen just before (one instance for a run of equal values). */
  same(v: string | undefined): string | undefined {
    if (v === this.last) return this.last;
    this.last = v;
    return v;
  }
}

function round(v: number): number {
  return Math.round(v * 100) / 100;
}
