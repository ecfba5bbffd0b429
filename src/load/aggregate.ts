/**
 * The online aggregator of a load run (the runner hands it every response, as autocannon's runner hands
 * results to aggregateResult): each response is folded in as it arrives — status counters, HDR
 * histograms, the per-second timeline, the fine rate-limit series, per-response verification, the
 * rate-limit analyzer's bounded chunked facade — and written to the trace file, then forgotten. Memory is
 * bounded by the histograms, one second of latencies, one analyzer chunk and the cited evidence, plus a
 * few numbers per second of run: it does not grow with the number of requests.
 * `finish` turns the aggregates into the ProfileResult and findings, thresholds evaluated on them.
 */
import type { FindingRecord, ProfileResult, RouteClass } from '../results/schema.js';
import type { Target } from '../target/schema.js';
import { OnlineRateLimitAnalyzer, type OnlineAnalyzeOptions } from '../ratelimit/online.js';
import type { RateLimitSample } from '../ratelimit/sample.js';
import type { TraceWriter } from '../trace/writer.js';
import type { Plan } from './plan.js';
import { maxInFlight } from './engine.js';
import type { LoadRecorder } from './recorder.js';
import { LatencyHistograms } from './histograms.js';
import { TimelineBuilder, findCapacity, isError } from './timeline.js';
import { RateLimitSeriesBuilder } from './ratelimit-series.js';
import { ResponseVerifier, toRateLimitSample } from './verify.js';
import { violationFindings } from './findings.js';
import { evaluateThreshold, generatorMetric, type ThresholdContext } from './threshold.js';
import { markLowerBound, type GeneratorVerdict } from './generator-verdict.js';
import { correctedLatencyOf, latencyOf, type SampleInput } from './samples.js';

export interface AggregatorOptions {
  plan: Plan;
  target: Target;
  /** Where every response goes, in completion order (optional). */
  trace?: TraceWriter;
  /** Chunking of the rate-limit analysis (defaults suit any run length). */
  rateLimit?: Omit<OnlineAnalyzeOptions, 'expected'>;
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

interface ClassCounts {
  /** Responses and transport failures. */
  all: number;
  errors: number;
  byStatus: Map<number, number>;
}

const CLASSES: RouteClass[] = ['read', 'write'];

/** Folds responses into the aggregates of one run. */
export class LoadAggregator {
  private readonly hist: LatencyHistograms;
  private readonly timeline = new TimelineBuilder();
  private readonly series = new RateLimitSeriesBuilder();
  private readonly verifier: ResponseVerifier;
  readonly rateLimit: OnlineRateLimitAnalyzer;
  private readonly counts: Record<RouteClass, ClassCounts> = {
    read: { all: 0, errors: 0, byStatus: new Map() },
    write: { all: 0, errors: 0, byStatus: new Map() },
  };
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
    this.rateLimit = new OnlineRateLimitAnalyzer({ inFlight: maxInFlight(opts.plan), ...opts.rateLimit, expected: opts.target.assumptions.rateLimit, strict: opts.target.assumptions.strict });
  }

  /** Responses folded in so far. */
  get count(): number {
    return this.n;
  }

  /** Folds one response (or transport failure) in; the recorder's sink. */
  add(s: SampleInput): void {
    const i = this.n++;
    const route = this.opts.plan.routes[s.route]!;
    const cls = route.class;
    const c = this.counts[cls];
    c.all++;
    c.byStatus.set(s.status, (c.byStatus.get(s.status) ?? 0) + 1);
    if (isError(s.status)) c.errors++;
    const latency = latencyOf(s);
    const corrected = correctedLatencyOf(s);
    this.hist.record(cls, s.status, latency, corrected);
    this.timeline.add(s.received, cls, s.status, this.hist.hasCorrected ? corrected : latency, s);
    if (s.status !== 0) this.series.add(cls, s.received, s.status, s.remaining);
    this.verifier.add(i, s, route);
    const rl = toRateLimitSample(s, route, this.scratch);
    if (rl) {
      // The analyzer holds a chunk of samples (copies of this record): repeated header values share one
      // string, and each response's own copy dies young instead of being kept (less for the collector to copy).
      rl.limit = this.limitStr.same(rl.limit);
      rl.reset = this.resetStr.same(rl.reset);
      rl.retryAfter = this.retryAfterStr.same(rl.retryAfter);
      rl.errorCode = this.errorCodeStr.same(rl.errorCode);
      this.rateLimit.push(rl);
    }
    this.opts.trace?.write({
      t: Math.max(0, s.sent), latency: Math.max(0, latency), class: cls, method: route.method, path: route.template, status: s.status,
      limit: s.limit, remaining: s.remaining, reset: s.reset, retryAfter: s.retryAfter,
      requestId: s.requestId, errorCode: s.errorCode, key: route.keyRole, error: s.error,
    });
  }

  /** Counts of one class (or both) whose status passes `keep`. */
  private countWhere(cls: RouteClass | undefined, keep: (status: number) => boolean): number {
    let n = 0;
    for (const c of cls ? [cls] : CLASSES) for (const [st, k] of this.counts[c].byStatus) if (keep(st)) n += k;
    return n;
  }

  /** The ProfileResult and findings of the run, from the aggregates (thresholds evaluated here). */
  finish(f: FinishInput): { result: ProfileResult; findings: FindingRecord[] } {
    const { plan, target } = this.opts;
    const { rec } = f;
    const byStatus: Record<string, number> = {};
    for (const c of CLASSES) for (const [st, k] of this.counts[c].byStatus) byStatus[st === 0 ? 'error' : String(st)] = (byStatus[st === 0 ? 'error' : String(st)] ?? 0) + k;
    const byClass = { read: this.counts.read.all, write: this.counts.write.all };
    const responses = this.countWhere(undefined, (st) => st !== 0);
    const transport = rec.transportErrors;
    const dropped = rec.droppedTotal.read + rec.droppedTotal.write;
    const sent = rec.sentTotal.read + rec.sentTotal.write;

    const analysis = this.rateLimit.finish();
    const verified = this.verifier.findings();
    const findings = [...verified, ...violationFindings(analysis.violations, verified, plan.routes, target.assumptions.strict, plan.name)];
    const points = this.timeline.finish(rec);

    const seconds = Math.max(f.elapsedMs / 1000, 1e-3);
    const hist = this.hist;
    const ctx: ThresholdContext = {
      latency: (metric, cls, family) => {
        const h = hist.merged(cls, family);
        if (h.totalCount === 0) return null;
        const v = metric === 'min' ? h.minNonZeroValue : metric === 'max' ? h.maxValue : metric === 'mean' ? h.mean
          : h.getValueAtPercentile(metric === 'p999' ? 99.9 : Number(metric.slice(1)));
        return v / 1000;
      },
      count: (metric, cls) => {
        if (metric === 'ratelimit.violations') return findings.filter((x) => x.clause.startsWith('8.ratelimit')).length;
        if (metric === 'sent') return cls ? rec.sentTotal[cls] : sent;
        if (metric === 'dropped') return cls ? rec.droppedTotal[cls] : dropped;
        return this.countWhere(cls, (st) => (metric === 'completed' ? st !== 0 : metric === 'transport' ? st === 0 : metric === '429' ? st === 429
          : st !== 0 && Math.floor(st / 100) === Number(metric[0])));
      },
      errorRate: (cls) => {
        let n = 0;
        let e = 0;
        for (const c of cls ? [cls] : CLASSES) {
          n += this.counts[c].all;
          e += this.counts[c].errors;
        }
        return n === 0 ? null : e / n;
      },
      rps: (cls) => this.countWhere(cls, (st) => st !== 0) / seconds,
      generator: (metric) => generatorMetric(f.generator, metric),
    };
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
      latency: hist.summaries(),
      timeline: points.map(({ errors: _e, ...p }) => p),
      thresholds,
      rateLimit: analysis,
      rateLimitSeries: this.series.build(f.elapsedMs),
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
