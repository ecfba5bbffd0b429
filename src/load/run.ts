/**
 * `runProfile`: plans a profile against a target and runs the closed or open engine; every response is
 * folded into the online aggregator (aggregate.ts) as it arrives and streamed to the trace, so memory does
 * not grow with the run's length. Aborting stops sending at once and still returns everything recorded so
 * far, with status 'aborted'.
 */
import type { FindingRecord, ProfileResult } from '../results/schema.js';
import type { Target } from '../target/schema.js';
import type { OnlineAnalyzeOptions } from '../ratelimit/online.js';
import type { LiveMetrics, RunFigures } from '../metrics/source.js';
import { rateLimitViolations } from '../fold/threshold-context.js';
import { createTraceWriter } from '../trace/writer.js';
import type { Profile } from './profile.js';
import { planProfile } from './plan.js';
import { discoverAndPlan, withBudgetFindings, type BudgetMemo } from './discover.js';
import { LoadRecorder, type LoadProgress } from './load-recorder.js';
import { LoadAggregator } from './aggregate.js';
import type { Engine } from './engine.js';
import { proxyFor } from '../client/transport.js';
import { runClosed } from './closed.js';
import { runOpen } from './open.js';
import { GeneratorMeter } from './generator-meter.js';
import { judgeGenerator } from '../fold/generator-verdict.js';
import { withLoadRerun } from './findings.js';

export interface RunProfileOptions {
  target: Target;
  profile: Profile;
  /** Seconds; replaces the profile's duration (and its minWindows extension). */
  durationOverride?: number;
  signal?: AbortSignal;
  tracePath?: string;
  onProgress?: (p: LoadProgress) => void;
  /** Chunking of the online rate-limit analysis (tests force small chunks; the defaults suit any run). */
  rateLimitChunking?: Omit<OnlineAnalyzeOptions, 'expected'>;
  /** Budgets earlier profiles of the same run learned (spgate run's phases share one). */
  budgetMemo?: BudgetMemo;
  /** Live metrics (`--metrics`): told of every response, pushed periodically and at the end. */
  metrics?: LiveMetrics;
  /** How the profile was named on the command line (a file path or a built-in), for re-run lines; default its name. */
  profileRef?: string;
}

export type { LoadProgress };

/** What one load run gives back: its result, its findings, and where its clock starts. */
export interface ProfileRun {
  result: ProfileResult;
  findings: FindingRecord[];
  /**
   * Epoch ms (sub-millisecond) of t = 0 of the run's trace: a shard records it, so `merge` places every
   * shard's responses on one clock (a millisecond off is enough to misorder responses of a shared budget).
   */
  originEpochMs: number;
}

const ENGINES: Record<'closed' | 'open', Engine> = { closed: runClosed, open: runOpen };

/** Runs one load profile against a target. Throws only for configuration errors (nothing sent then). */
export async function runProfile(opts: RunProfileOptions): Promise<ProfileRun> {
  const { target, profile } = opts;
  const filePlan = planProfile(profile, target, opts.durationOverride);
  // A proxy variable that is not a URL is one line (SPGATE_ERR_PROXY_INVALID) before anything is sent.
  proxyFor(target.baseUrl);
  // Opened before the run so a bad path fails before anything is sent.
  const trace = opts.tracePath ? createTraceWriter(opts.tracePath) : undefined;
  // Budgets the file does not state (or that the headers contradict) are learned before the run.
  const {
    plan,
    findings: budgetFindings,
    analysisTarget,
  } = await discoverAndPlan(filePlan, profile, target, {
    durationOverride: opts.durationOverride,
    signal: opts.signal,
    memo: opts.budgetMemo,
  });
  const startedAt = new Date();
  // The generator's own lag: CPU, event-loop delay and (open model) each send's slip behind the schedule.
  const meter = new GeneratorMeter();
  const live = opts.metrics?.start(plan.name, (): RunFigures => {
    const sendSlipMax = meter.takeSlipMax();
    return { sent: rec.sentTotal, dropped: rec.droppedTotal, ...(sendSlipMax !== undefined ? { lag: { sendSlipMax } } : {}) };
  });
  const agg = new LoadAggregator({ plan, target: analysisTarget, trace, rateLimit: opts.rateLimitChunking, observers: live ? [live] : [] });
  // Both engines record each send as it goes out: the analysis gets the watermark of in-flight sends.
  const rec: LoadRecorder = new LoadRecorder(agg, { sendsAsTheyGo: true });
  const ticker = opts.onProgress ? setInterval(() => opts.onProgress!(rec.progress(plan.durationMs / 1000)), 1000) : undefined;
  let engineError: string | undefined;
  const connections = { opened: 0, resent: 0 };
  try {
    await ENGINES[plan.model]({
      plan,
      baseUrl: target.baseUrl,
      secrets: target.secrets,
      recorder: rec,
      signal: opts.signal,
      maxRps: target.caps.maxRps,
      tls: target.tls,
      meter,
      connections,
    });
  } catch (err) {
    engineError = err instanceof Error ? err.message.split('\n')[0] : String(err);
  } finally {
    if (ticker) clearInterval(ticker);
  }
  const elapsedMs = rec.now();
  const dropped = rec.droppedTotal.read + rec.droppedTotal.write;
  const generator = judgeGenerator({ ...meter.finish(), offered: rec.sentTotal.read + rec.sentTotal.write + dropped, dropped });
  if (trace) await trace.close();
  const out = agg.finish({
    rec,
    startedAt,
    elapsedMs,
    engineError,
    aborted: opts.signal?.aborted ?? false,
    tracePath: opts.tracePath,
    generator,
    connections,
  });
  await live?.finish({ violations: rateLimitViolations(out.findings) });
  const done = withBudgetFindings(out, budgetFindings);
  return {
    ...done,
    originEpochMs: rec.originEpochMs,
    findings: withLoadRerun(done.findings, {
      profile: opts.profileRef ?? profile.name,
      targetSource: target.source,
      durationSeconds: plan.durationMs / 1000,
      ...(target.baseUrlOverride !== undefined ? { baseUrlOverride: target.baseUrlOverride } : {}),
      ...(opts.tracePath !== undefined ? { tracePath: opts.tracePath } : {}),
    }),
  };
}
