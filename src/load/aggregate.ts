/**
 * The online aggregator of a live load run (the runner hands it every response, as autocannon's runner
 * hands results to aggregateResult): each response goes into the run's fold (src/fold/run-fold.ts: status
 * tally, per-second timeline, Remaining series, rate-limit analysis), its HDR histograms and the
 * per-response verification, is handed to the live observers and written to the trace file, then
 * forgotten. Memory is bounded by the histograms, one second of latencies, one analyzer chunk and the
 * cited evidence, plus a few numbers per second of run: it does not grow with the number of requests.
 * `finish` hands the fold to the one ProfileResult assembler (src/fold/profile-result.ts, the same
 * as a merge of shards or workers). `snapshot` gives the cumulative figures
 * while the run goes: the live outputs (src/metrics) read them there, and keep no count of their own.
 */
import type { FindingRecord, ProfileResult } from '../results/schema.js';
import type { Target } from '../target/schema.js';
import type { OnlineRateLimitAnalyzer, OnlineAnalyzeOptions } from '../ratelimit/online.js';
import type { RateLimitSample } from '../ratelimit/sample.js';
import type { TraceWriter } from '../trace/writer.js';
import { responseRecord } from './from-response.js';
import type { Plan } from './plan.js';
import { maxInFlight } from './engine.js';
import type { LoadRecorder } from './load-recorder.js';
import { ResponseVerifier, toRateLimitSample } from './verify.js';
import { violationFindings } from './findings.js';
import { evaluateThreshold } from '../fold/threshold.js';
import type { GeneratorVerdict } from '../fold/generator-verdict.js';
import { correctedLatencyOf, latencyOf, type SampleInput } from './samples.js';
import { RunFold } from '../fold/run-fold.js';
import { FoldHistograms } from '../fold/histograms.js';
import { LastRemaining } from '../fold/last-remaining.js';
import type { FoldObserver, FoldSnapshot } from '../fold/observer.js';
import { profileResult } from '../fold/profile-result.js';

export interface AggregatorOptions {
  plan: Plan;
  target: Target;
  /** Where every response goes, in completion order (optional). */
  trace?: TraceWriter;
  /** Chunking of the rate-limit analysis (defaults suit any run length). */
  rateLimit?: Omit<OnlineAnalyzeOptions, 'expected'>;
  /** Live outputs: each is handed the fold once, and reads its cumulative figures when it pushes. */
  observers?: readonly FoldObserver[];
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
  /** Connections the engine opened and requests it re-sent (EngineOptions.connections, filled at its end). */
  connections?: { opened: number; resent: number };
}

/** Folds responses into the aggregates of one run. */
export class LoadAggregator {
  private readonly hist: FoldHistograms;
  private readonly remaining: LastRemaining;
  private readonly fold: RunFold;
  private readonly verifier: ResponseVerifier;
  readonly rateLimit: OnlineRateLimitAnalyzer;
  private n = 0;
  private readonly limitStr = new LastString();
  private readonly resetStr = new LastString();
  private readonly retryAfterStr = new LastString();
  private readonly errorCodeStr = new LastString();
  /** The record each response is handed to the rate-limit analyzer in (it copies what it holds). */
  private readonly scratch: RateLimitSample = {
    sentAt: 0,
    receivedAt: 0,
    class: 'read',
    status: 0,
    limit: undefined,
    remaining: undefined,
    reset: undefined,
    retryAfter: undefined,
    requestId: undefined,
    errorCode: undefined,
    key: undefined,
  };

  constructor(private readonly opts: AggregatorOptions) {
    this.hist = new FoldHistograms(opts.plan.routes, opts.plan.model === 'open');
    this.remaining = new LastRemaining(opts.plan.routes);
    this.verifier = new ResponseVerifier(opts.target, opts.plan.name);
    this.fold = new RunFold({
      inFlight: maxInFlight(opts.plan),
      ...opts.rateLimit,
      expected: opts.target.assumptions.rateLimit,
      strict: opts.target.assumptions.strict,
    });
    this.rateLimit = this.fold.rateLimit;
    for (const o of opts.observers ?? []) o.attach(this);
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
    this.hist.record(s.route, cls, s.status, latency, corrected);
    this.remaining.add(s.route, s.status, s.remaining);
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
    this.opts.trace?.write(responseRecord(s, route));
  }

  /** The cumulative figures so far, for live outputs (live views: read them at once). */
  snapshot(): FoldSnapshot {
    return { series: this.hist.series(), remaining: this.remaining.gauges() };
  }

  /** The ProfileResult and findings of the run, from the aggregates (thresholds evaluated by the assembler). */
  finish(f: FinishInput): { result: ProfileResult; findings: FindingRecord[] } {
    const { plan, target } = this.opts;
    const { rec } = f;
    const responses = this.fold.tally.count('completed');
    const transport = rec.transportErrors;
    const dropped = rec.droppedTotal.read + rec.droppedTotal.write;
    const sent = rec.sentTotal.read + rec.sentTotal.write;
    const analysis = this.fold.analysis();
    const verified = this.verifier.findings();
    let error = f.engineError;
    if (!error && !f.aborted && responses === 0 && transport > 0) {
      error = `target unreachable: ${rec.firstError ?? 'transport error'} on every request`;
    }
    return profileResult({
      head: plan,
      startedAt: f.startedAt.toISOString(),
      durationMs: f.elapsedMs,
      tally: this.fold.tally,
      counts: { sent, dropped, errors: transport },
      figures: {
        histogram: (cls, family) => this.hist.merged(cls, family),
        sent: (cls) => (cls ? rec.sentTotal[cls] : sent),
        dropped: (cls) => (cls ? rec.droppedTotal[cls] : dropped),
      },
      latency: this.hist.summaries(),
      points: this.fold.timelineRows(rec),
      analysis,
      rateLimitSeries: this.fold.rateLimitSeries(f.elapsedMs),
      findings: [...verified, ...violationFindings(analysis.violations, verified, plan.routes, target.assumptions.strict, plan.name)],
      thresholds: (ctx) => plan.thresholds.map((t) => evaluateThreshold(t, ctx)),
      error,
      aborted: f.aborted,
      capacity: plan.capacity,
      generator: f.generator,
      trace: f.tracePath,
      connections: f.connections,
    });
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
