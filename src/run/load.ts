/**
 * The run of `spgate load`, below the CLI (which parses, calls, prints and exits): open the target once,
 * choose the worker count, slice a shard, then run the profile in this process or as local workers
 * (src/distributed/load-workers.ts). Both paths end here in one LoadEnd — the ProfileResult, its findings
 * and the results document — which the CLI prints, writes once and turns into the exit code
 * (src/run/exit-code.ts).
 */
import { sleepUnlessAborted } from '../sleep.js';
import { availableParallelism } from 'node:os';
import type { Profile } from '../load/profile.js';
import { runProfile, type LoadProgress, type ProfileRun } from '../load/run.js';
import { clockId } from '../distributed/clock.js';
import { shardProfile, shardRecord, shardTarget, type ShardSpec } from '../distributed/shard.js';
import { autoWorkers, placeOf } from '../distributed/auto-workers.js';
import { runLoadWorkers, type WorkerChildArgs } from '../distributed/load-workers.js';
import { buildResults } from '../results/build.js';
import type { FindingRecord, ProfileResult, Results } from '../results/schema.js';
import type { Target } from '../target/schema.js';
import type { MetricsOptions } from '../metrics/options.js';
import { createLiveMetrics } from '../metrics/session.js';
import { resultsHeader } from './header.js';
import { openTarget, type OpenTarget, type TargetOptions } from './target.js';

export interface LoadSetupOptions {
  /** The profile, with any --threshold expressions already added. */
  profile: Profile;
  target: TargetOptions;
  /** --workers: a count, or auto (the machine's cores within the bounds of auto-workers.ts). */
  workers: number | 'auto';
  /** --shard: this process runs one slice of a distributed run. */
  shard?: ShardSpec | undefined;
}

/** A load run ready to go: its target open (close it once), its profile sliced when it is a shard. */
export interface LoadSetup {
  opened: OpenTarget;
  /** The whole target, and the one this process aims at (a shard's slice of the keys and caps). */
  whole: Target;
  target: Target;
  profile: Profile;
  shard?: { spec: ShardSpec; notes: string[] } | undefined;
  /** Processes the run uses, and why when chosen automatically. */
  workers: number;
  why?: string | undefined;
}

/** Opens the target and settles the run's shape (workers, shard slice); nothing is sent yet. */
export async function setUpLoad(o: LoadSetupOptions): Promise<LoadSetup> {
  const opened = await openTarget(o.target);
  const whole = opened.target;
  try {
    // A shard is one process; otherwise the count asked for, or the machine's cores within the bounds.
    const auto =
      o.workers === 'auto' && !o.shard
        ? autoWorkers({ cores: availableParallelism(), place: placeOf(whole), profile: o.profile, caps: whole.caps })
        : undefined;
    const workers = o.shard ? 1 : (auto?.count ?? (o.workers as number));
    if (!o.shard || workers > 1) return { opened, whole, target: whole, profile: o.profile, workers, why: auto?.why };
    const sliced = shardProfile(o.profile, o.shard);
    return {
      opened,
      whole,
      target: shardTarget(whole, o.shard),
      profile: sliced.profile,
      shard: { spec: o.shard, notes: sliced.notes },
      workers,
    };
  } catch (err) {
    await opened.close();
    throw err;
  }
}

export interface LoadRunOptions {
  /** --profile as given (recorded in the results and a shard's record). */
  profileRef: string;
  duration?: number | undefined;
  /** --start-at: a shard starts sending at this epoch time (ms). */
  startAt?: number | undefined;
  tracePath?: string | undefined;
  /** The run id the results (and live metrics) carry, when known (a live-metrics run always has one). */
  runId?: string | undefined;
  metrics: MetricsOptions;
  /** --fail-on-inconclusive: a threshold the run could not judge (a budget never spent) fails it. */
  failOnInconclusive?: boolean | undefined;
  /** What local workers are given besides the profile (their own --metrics, thresholds, target file...). */
  children: WorkerChildArgs;
  signal: AbortSignal;
  abortReason(): string | undefined;
  onProgress?: (p: LoadProgress) => void;
  /** A line for stderr (target warnings, the workers' notes, metrics warnings). */
  note(line: string): void;
}

/** How a load run ended, in one process or in workers: what runProfile returns, and its results document. */
export interface LoadEnd {
  result: ProfileResult;
  findings: FindingRecord[];
  results: Results;
}

/** Runs a set-up load (in this process, as a shard, or as local workers) and closes its target. */
export async function runLoad(s: LoadSetup, o: LoadRunOptions): Promise<LoadEnd> {
  if (s.workers > 1)
    return runLoadWorkers({
      profile: s.profile,
      count: s.workers,
      duration: o.duration,
      failOnInconclusive: o.failOnInconclusive,
      opened: s.opened,
      why: s.why,
      children: o.children,
      signal: o.signal,
      abortReason: o.abortReason,
      note: o.note,
    });
  for (const w of s.whole.warnings) o.note(`warning: ${w}`);
  const shard = s.shard?.spec;
  const runId = o.runId;
  let out: ProfileRun;
  let startedAt = new Date();
  try {
    if (o.startAt !== undefined) await sleepUntil(o.startAt, o.signal);
    startedAt = new Date();
    out = await runProfile({
      target: s.target,
      profile: s.profile,
      durationOverride: o.duration,
      signal: o.signal,
      tracePath: o.tracePath,
      profileRef: o.profileRef,
      metrics: await createLiveMetrics({
        ...o.metrics,
        runId: runId ?? '',
        shard: shard ? `${shard.index}/${shard.count}` : '0/1',
        warn: o.note,
      }),
      onProgress: o.onProgress,
    });
  } finally {
    await s.opened.close();
  }
  const { result, findings } = out;
  if (s.shard) {
    // What merge needs to check and align the shard, and a note that it is one.
    result.shard = shardRecord(s.shard.spec, out.originEpochMs, o.profileRef, s.whole, clockId());
    result.config = { ...result.config, notes: [...s.shard.notes, ...((result.config.notes as string[] | undefined) ?? [])] };
  }
  const results = buildResults({
    command: 'load',
    ...(runId ? { runId } : {}),
    ...resultsHeader(s.target),
    startedAt,
    finishedAt: new Date(),
    aborted: result.status === 'aborted',
    abortReason: o.abortReason(),
    checks: [],
    findings,
    exchanges: [],
    load: [result],
    errors: result.error ? [result.error] : [],
    ...(o.failOnInconclusive ? { failOnInconclusive: true } : {}),
  });
  return { result, findings, results };
}

function sleepUntil(epochMs: number, signal: AbortSignal): Promise<void> {
  return sleepUnlessAborted(epochMs - Date.now(), signal);
}
