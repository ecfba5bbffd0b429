/**
 * `spgate run` as a library: resolve the target (or start the embedded reference server), run the
 * conformance suites, then the short load profiles, build one Results document, write results.json first
 * and the reports after it. Aborting the signal stops the current phase; what ran is still written.
 */
import { join } from 'node:path';
import { runConformance } from '../conformance/run.js';
import { SUITES } from '../../suites/index.js';
import { SpgateError } from '../errors.js';
import { loadProfile } from '../load/profile.js';
import { BudgetMemo } from '../load/discover.js';
import { runProfile } from '../load/run.js';
import { renderReports, type RenderSummary, type ReportFormat } from '../report/index.js';
import { buildResults } from '../results/build.js';
import { writeResults } from '../results/io.js';
import type { CheckResult, FindingRecord, ProfileResult, Results } from '../results/schema.js';
import { openTarget, type OpenTarget, type TargetOptions } from './target.js';
import type { Target } from '../target/schema.js';
import type { Progress } from './progress.js';
import type { LiveMetrics } from '../metrics/source.js';
import { createRunDir, linkLatest } from './output.js';
import { EMBEDDED_DURATIONS, EMBEDDED_LOAD_BUDGETS, RUN_PROFILES, writeSkipReason } from './phases.js';

export interface PipelineOptions extends TargetOptions {
  seed: number;
  runs: number;
  /** Base output directory; the run writes <outBase>/<timestamp>/. */
  outBase: string;
  /** Also write results.json here. */
  jsonPath?: string;
  command: string;
  signal: AbortSignal;
  progress: Progress;
  suites?: string[];
  profiles?: readonly string[];
  /** Multiplies the embedded load durations (tests use < 1). */
  durationScale?: number;
  formats?: readonly ReportFormat[];
  /** An inconclusive check fails the run (--fail-on-inconclusive). */
  failOnInconclusive?: boolean;
  /** Live metrics of the load phases (--metrics), and the run id they are labelled with. */
  metrics?: LiveMetrics;
  runId?: string;
  /** The run's first line, noted once the target is open (so a configuration error is the only line). */
  banner?: string;
}

export interface PipelineOutcome {
  results: Results;
  runDir: string;
  render: RenderSummary;
  latest: 'symlink' | 'copy' | 'kept';
}

type ConformanceOutcome = Awaited<ReturnType<typeof runConformance>>;

/** Runs everything and writes the run directory. Throws only for configuration errors (nothing sent then). */
export async function runPipeline(opts: PipelineOptions): Promise<PipelineOutcome> {
  const { progress, signal } = opts;
  const startedAt = new Date();
  const servers: OpenTarget[] = [];
  const secrets = new Set<string>();
  const notes: string[] = [];
  const errors: string[] = [];
  const checks: CheckResult[] = [];
  const findings: FindingRecord[] = [];
  const load: ProfileResult[] = [];
  let exchanges: ConformanceOutcome['exchanges'] = [];
  let conformanceAborted = false;
  const remember = (t: Target): Target => {
    for (const s of Object.values(t.secrets)) if (s) secrets.add(s);
    return t;
  };

  let target: Target;
  const embedded = opts.targetFile === undefined;
  try {
    const opened = await openTarget(opts);
    servers.push(opened);
    target = remember(opened.target);
    if (opts.banner) progress.note(opts.banner);
    for (const w of target.warnings) progress.note(`warning: ${w}`);

    progress.phase('conformance');
    let unreachable = false;
    try {
      const conf = await runConformance({
        target,
        catalogue: SUITES,
        runs: opts.runs,
        seed: opts.seed,
        signal,
        ...(opts.suites ? { suites: opts.suites } : {}),
        onProgress: (e) => progress.update({ requests: e.requests, findings: e.findings, ...('suite' in e ? { detail: e.suite } : {}) }),
      });
      checks.push(...conf.checks);
      findings.push(...conf.findings);
      exchanges = conf.exchanges;
      conformanceAborted = conf.aborted;
      const failed = conf.checks.filter((c) => c.status === 'failed' || c.status === 'error').length;
      progress.end(`${conf.checks.length} checks · ${failed} failed · ${conf.findings.length} findings${conf.aborted ? ' · aborted' : ''}`);
    } catch (err) {
      if (!(err instanceof SpgateError) || err.code !== 'SPGATE_ERR_TARGET_UNREACHABLE') throw err;
      unreachable = true;
      errors.push(`${err.code}: ${err.message}`);
      progress.end(`target unreachable: ${err.message}`);
    }
    // The conformance server's state (budgets, data) must not leak into the load phases.
    if (embedded) await Promise.all(servers.splice(0).map((s) => s.close()));

    // One probe per class and target for the whole run: later phases reuse what an earlier one learned.
    const budgetMemo = new BudgetMemo();
    for (const name of unreachable ? [] : (opts.profiles ?? RUN_PROFILES)) {
      if (signal.aborted) break;
      const profile = loadProfile(name);
      const skip = writeSkipReason(profile, target.allowWrites);
      if (skip) {
        notes.push(skip);
        progress.note(skip);
        continue;
      }
      let phaseTarget = target;
      let server: OpenTarget | undefined;
      if (embedded) {
        server = await openTarget({ ...opts, server: { ...opts.server, budgets: EMBEDDED_LOAD_BUDGETS } });
        phaseTarget = remember(server.target);
      }
      progress.phase(`load ${name}`);
      try {
        const base = EMBEDDED_DURATIONS[name as keyof typeof EMBEDDED_DURATIONS];
        const durationOverride = embedded && base !== undefined ? Math.max(1, base * (opts.durationScale ?? 1)) : undefined;
        const { result, findings: lf } = await runProfile({
          target: phaseTarget,
          profile,
          signal,
          budgetMemo,
          metrics: opts.metrics,
          ...(durationOverride !== undefined ? { durationOverride } : {}),
          onProgress: (p) =>
            progress.update({
              requests: p.sent,
              rate: p.lastSecondRps,
              refused: p.refused,
              detail: `${Math.floor(p.elapsed)}/${Math.round(p.durationSeconds)} s`,
            }),
        });
        load.push(result);
        findings.push(...lf);
        const notesOfPlan = (result.config.notes as string[] | undefined) ?? [];
        for (const n of notesOfPlan) progress.note(`  ${name}: ${n}`);
        progress.end(
          `${result.status} · ${result.totals.completed} requests · ${result.throughput.meanRps.toFixed(0)}/s · ${result.totals.byStatus['429'] ?? 0} × 429 · ${lf.length} findings`,
        );
      } catch (err) {
        const msg = err instanceof Error ? err.message.split('\n')[0]! : String(err);
        // Configuration problems (exit 2: no fixtures for a route, writes not allowed…) skip the profile.
        if (err instanceof SpgateError && err.exitCode === 2) {
          notes.push(`load profile ${name} skipped: ${msg}`);
          progress.end(`skipped: ${msg}`);
        } else {
          errors.push(`load profile ${name}: ${msg}`);
          progress.end(`error: ${msg}`);
        }
      } finally {
        await server?.close();
      }
    }
  } finally {
    await Promise.all(servers.map((s) => s.close()));
  }

  const aborted = signal.aborted || conformanceAborted;
  const results = buildResults({
    command: opts.command,
    ...(opts.runId ? { runId: opts.runId } : {}),
    target: { name: target.name, baseUrl: target.baseUrl, embedded },
    seed: opts.seed,
    runs: opts.runs,
    startedAt,
    finishedAt: new Date(),
    aborted,
    ...(aborted ? { abortReason: abortReason(signal) } : {}),
    notes,
    checks,
    findings,
    exchanges,
    load,
    errors,
    ...(opts.failOnInconclusive ? { failOnInconclusive: true } : {}),
    secrets: [...secrets],
  });
  const runDir = await createRunDir(opts.outBase, startedAt);
  // results.json first: whatever a reporter does next, the data is safe.
  await writeResults(join(runDir, 'results.json'), results);
  if (opts.jsonPath) await writeResults(opts.jsonPath, results);
  const render = await renderReports(
    results,
    runDir,
    (opts.formats ?? ['png', 'html', 'junit', 'ctrf', 'markdown']).filter((f) => f !== 'json'),
  );
  const latest = await linkLatest(opts.outBase, runDir, runDir.split(/[\\/]/).pop()!);
  return { results, runDir, render, latest };
}

function abortReason(signal: AbortSignal): string {
  const r: unknown = signal.reason;
  if (typeof r === 'string') return r;
  if (r instanceof Error && r.name !== 'AbortError') return r.message;
  return 'interrupted';
}
