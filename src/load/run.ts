/**
 * `runProfile`: plans a profile against a target, runs the closed or open engine, then turns the recorded
 * responses into a ProfileResult (histograms, timeline, rate-limit analysis, thresholds) and findings.
 * Aborting stops sending at once and still returns everything recorded so far, with status 'aborted'.
 */
import type { FindingRecord, ProfileResult, RateLimitAnalysis, RouteClass } from '../results/schema.js';
import type { Target } from '../target/schema.js';
import { analyzeRateLimits } from '../ratelimit/analyze.js';
import { createTraceWriter, type TraceWriter } from '../trace/writer.js';
import type { Profile } from './profile.js';
import { planProfile, type Plan } from './plan.js';
import { discoverAndPlan, withBudgetFindings } from './discover.js';
import { LoadRecorder, type Progress } from './recorder.js';
import { runClosed } from './closed.js';
import { runOpen } from './open.js';
import { LatencyHistograms } from './histograms.js';
import { buildTimeline, findCapacity, isError } from './timeline.js';
import { buildRateLimitSeries } from './ratelimit-series.js';
import { toRateLimitSamples, verifyResponses, violationFindings } from './verify.js';
import { evaluateThreshold, type ThresholdContext } from './threshold.js';
import { H_LIMIT, H_REMAINING, H_RESET, H_RETRY_AFTER } from './samples.js';

export interface RunProfileOptions {
  target: Target;
  profile: Profile;
  /** Seconds; replaces the profile's duration (and its minWindows extension). */
  durationOverride?: number;
  signal?: AbortSignal;
  tracePath?: string;
  onProgress?: (p: Progress) => void;
}

export type { Progress };

/** Runs one load profile against a target. Throws only for configuration errors (nothing sent then). */
export async function runProfile(opts: RunProfileOptions): Promise<{ result: ProfileResult; findings: FindingRecord[] }> {
  const { target, profile } = opts;
  const filePlan = planProfile(profile, target, opts.durationOverride);
  // Opened before the run so a bad path fails before anything is sent.
  const trace = opts.tracePath ? createTraceWriter(opts.tracePath) : undefined;
  // Budgets the file does not state (or that the headers contradict) are learned before the run.
  const { plan, findings: budgetFindings, analysisTarget } = await discoverAndPlan(filePlan, profile, target, { durationOverride: opts.durationOverride, signal: opts.signal });
  const startedAt = new Date();
  const rec = new LoadRecorder();
  const ticker = opts.onProgress ? setInterval(() => opts.onProgress!(rec.progress(plan.durationMs / 1000)), 1000) : undefined;
  let engineError: string | undefined;
  try {
    const engine = { plan, baseUrl: target.baseUrl, secrets: target.secrets, recorder: rec, signal: opts.signal };
    if (plan.model === 'closed') await runClosed(engine);
    else await runOpen({ ...engine, maxRps: target.caps.maxRps });
  } catch (err) {
    engineError = err instanceof Error ? err.message.split('\n')[0] : String(err);
  } finally {
    if (ticker) clearInterval(ticker);
  }
  const elapsedMs = rec.now();
  if (trace) await writeTrace(trace, rec, plan);
  const out = summarize({ plan, rec, target: analysisTarget, startedAt, elapsedMs, engineError, aborted: opts.signal?.aborted ?? false, tracePath: opts.tracePath });
  return withBudgetFindings(out, budgetFindings);
}

async function writeTrace(w: TraceWriter, rec: LoadRecorder, plan: Plan): Promise<void> {
  const buf = rec.buffer;
  for (let i = 0; i < buf.length; i++) {
    const route = plan.routes[buf.route[i]!]!;
    const status = buf.status[i]!;
    w.write({
      t: Math.max(0, buf.sent[i]!), latency: Math.max(0, buf.latency(i)), class: route.class, method: route.method, path: route.template, status,
      limit: buf.header(i, H_LIMIT), remaining: buf.header(i, H_REMAINING), reset: buf.header(i, H_RESET), retryAfter: buf.header(i, H_RETRY_AFTER),
      requestId: buf.requestIds[i], errorCode: buf.errorCodes.get(i), key: route.keyRole, error: buf.errors.get(i),
    });
  }
  await w.close();
}

interface SummaryInput {
  plan: Plan;
  rec: LoadRecorder;
  target: Target;
  startedAt: Date;
  elapsedMs: number;
  engineError?: string;
  aborted: boolean;
  tracePath?: string;
}

function summarize(s: SummaryInput): { result: ProfileResult; findings: FindingRecord[] } {
  const { plan, rec, target } = s;
  const buf = rec.buffer;
  const corrected = plan.model === 'open';
  const hist = new LatencyHistograms(buf, plan.routes, corrected);
  const points = buildTimeline(rec, plan.routes, corrected);

  const byStatus: Record<string, number> = {};
  const byClass = { read: 0, write: 0 };
  const classOf = (i: number): RouteClass => plan.routes[buf.route[i]!]!.class;
  let responses = 0;
  for (let i = 0; i < buf.length; i++) {
    const st = buf.status[i]!;
    const k = st === 0 ? 'error' : String(st);
    byStatus[k] = (byStatus[k] ?? 0) + 1;
    byClass[classOf(i)]++;
    if (st !== 0) responses++;
  }
  const transport = rec.transportErrors;
  const dropped = rec.dropped.read.length + rec.dropped.write.length;
  const sent = rec.sentTotal.read + rec.sentTotal.write;

  const analysis: RateLimitAnalysis = analyzeRateLimits(toRateLimitSamples(buf, plan.routes), { expected: target.assumptions.rateLimit });
  const verified = verifyResponses(buf, plan.routes, target, plan.name);
  const findings = [...verified, ...violationFindings(analysis.violations, verified, plan.routes, target, plan.name)];

  const seconds = Math.max(s.elapsedMs / 1000, 1e-3);
  const ctx: ThresholdContext = {
    latency: (metric, cls, family) => {
      const h = hist.merged(cls, family);
      if (h.totalCount === 0) return null;
      const v = metric === 'min' ? h.minNonZeroValue : metric === 'max' ? h.maxValue : metric === 'mean' ? h.mean
        : h.getValueAtPercentile(metric === 'p999' ? 99.9 : Number(metric.slice(1)));
      return v / 1000;
    },
    count: (metric, cls) => {
      if (metric === 'ratelimit.violations') return findings.filter((f) => f.clause.startsWith('8.ratelimit')).length;
      if (metric === 'sent') return cls ? rec.sentTotal[cls] : sent;
      if (metric === 'dropped') return cls ? rec.dropped[cls].length : dropped;
      let n = 0;
      for (let i = 0; i < buf.length; i++) {
        if (cls && classOf(i) !== cls) continue;
        const st = buf.status[i]!;
        if (metric === 'completed' ? st !== 0 : metric === 'transport' ? st === 0 : metric === '429' ? st === 429
          : st !== 0 && Math.floor(st / 100) === Number(metric[0])) n++;
      }
      return n;
    },
    errorRate: (cls) => {
      let n = 0;
      let e = 0;
      for (let i = 0; i < buf.length; i++) {
        if (cls && classOf(i) !== cls) continue;
        n++;
        if (isError(buf.status[i]!)) e++;
      }
      return n === 0 ? null : e / n;
    },
    rps: (cls) => {
      let n = 0;
      for (let i = 0; i < buf.length; i++) if ((!cls || classOf(i) === cls) && buf.status[i] !== 0) n++;
      return n / seconds;
    },
  };
  const thresholds = plan.thresholds.map((t) => evaluateThreshold(t, ctx));

  let error = s.engineError;
  if (!error && !s.aborted && responses === 0 && transport > 0) {
    error = `target unreachable: ${buf.errors.get(0) ?? 'transport error'} on every request`;
  }
  const status: ProfileResult['status'] = s.aborted ? 'aborted' : error ? 'error'
    : thresholds.some((t) => !t.ok) || findings.some((f) => f.severity === 'error') ? 'failed' : 'passed';

  const full = points.filter((p) => p.t < Math.floor(seconds));
  const result: ProfileResult = {
    name: plan.name,
    description: plan.description,
    model: plan.model,
    startedAt: s.startedAt.toISOString(),
    durationMs: Math.round(s.elapsedMs),
    config: plan.config,
    totals: { sent, completed: responses, dropped, errors: transport, byStatus, byClass },
    throughput: { meanRps: round(responses / seconds), peakRps: Math.max(0, ...(full.length ? full : points).map((p) => p.completed)) },
    latency: hist.summaries(),
    timeline: points.map(({ errors: _e, ...p }) => p),
    thresholds,
    rateLimit: analysis,
    rateLimitSeries: buildRateLimitSeries(rec, plan.routes, s.elapsedMs),
    status,
  };
  if (s.tracePath) result.trace = s.tracePath;
  if (error) result.error = error;
  if (plan.capacity) result.capacity = findCapacity(points, plan.capacity, Math.floor(seconds));
  return { result, findings };
}

function round(v: number): number {
  return Math.round(v * 100) / 100;
}
