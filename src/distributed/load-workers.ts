/**
 * `spgate load --workers N` (N > 1): checks every shard's plan (so a configuration error is one line before
 * anything is sent), gives the children one target (the target file, or a file describing the embedded
 * reference server this process serves), runs them (distributed/workers.ts) and merges their results with the
 * code `spgate merge` uses. It returns what a run in one process returns (src/run/load.ts), so `spgate load`
 * prints, writes and exits one way whatever the run's shape.
 */
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { SpgateError } from '../errors.js';
import type { Profile } from '../load/profile.js';
import { planProfile } from '../load/plan.js';
import { shardProfile, shardTarget } from './shard.js';
import { configErrorOf, runWorkers, workerFailure } from './workers.js';
import { mergeShardFiles } from './merge-files.js';
import { mergedResults } from './merged-results.js';
import { targetFileOf } from '../target/resolve.js';
import type { FindingRecord, ProfileResult, Results } from '../results/schema.js';
import type { Target } from '../target/schema.js';

/** Time the children get to load before they all start sending together. */
const STARTUP_MS = 2500;

/** What every child is given besides its shard: the same profile, thresholds, live metrics and target. */
export interface WorkerChildArgs {
  /** --profile as given. */
  profileRef: string;
  /** --threshold expressions: each shard judges and records them, merge evaluates them on the whole. */
  thresholds: string[];
  /** The --metrics and --metrics-interval arguments, as given (each shard pushes its own, labelled with its shard). */
  metrics: string[];
  /** --run-id, when given: the one id every shard's metrics and results share. */
  runId?: string | undefined;
  /** --target; absent: the children aim at this process's embedded server. */
  targetFile?: string | undefined;
  baseUrl?: string | undefined;
  /** Where the merged trace goes (--trace). */
  traceOut?: string | undefined;
}

export interface LoadWorkersOptions {
  profile: Profile;
  count: number;
  duration?: number | undefined;
  /** --fail-on-inconclusive: a threshold not judged fails the merged run. */
  failOnInconclusive?: boolean | undefined;
  /** The parent's open target (closed here once the merge is done: an embedded server serves the children until then). */
  opened: { target: Target; close(): Promise<void> };
  /** Why this count, when chosen automatically. */
  why?: string | undefined;
  children: WorkerChildArgs;
  signal: AbortSignal;
  abortReason(): string | undefined;
  /** A line for stderr (the start, worker 0's warnings and progress). */
  note(line: string): void;
}

/** Runs the profile as `count` local shards and merges them: what a run in one process returns, and its results document. */
export async function runLoadWorkers(
  o: LoadWorkersOptions,
): Promise<{ result: ProfileResult; findings: FindingRecord[]; results: Results }> {
  const { count, duration } = o;
  const dir = await mkdtemp(join(tmpdir(), 'spgate-workers-'));
  try {
    const target = o.opened.target;
    const childArgs = ['--profile', o.children.profileRef, ...o.children.thresholds.flatMap((t) => ['--threshold', t])];
    childArgs.push(...o.children.metrics, ...(o.children.runId ? ['--run-id', o.children.runId] : []));
    let targetFile: string;
    if (o.children.targetFile !== undefined) {
      targetFile = o.children.targetFile;
      if (o.children.baseUrl !== undefined) childArgs.push('--base-url', o.children.baseUrl);
    } else {
      // The children aim at this process's embedded server; the file holds its keys, so it is private and removed after.
      targetFile = join(dir, 'target.json');
      await writeFile(targetFile, JSON.stringify(targetFileOf(target), null, 2) + '\n', { mode: 0o600 });
    }
    childArgs.push('--target', targetFile);
    if (duration !== undefined) childArgs.push('--duration', String(duration));
    for (let index = 0; index < count; index++) {
      const shard = { index, count };
      planProfile(shardProfile(o.profile, shard).profile, shardTarget(target, shard), duration);
    }

    o.note(`load: ${count} workers${o.why ? ` (auto: ${o.why})` : ''}, one shard each; they start together in ${STARTUP_MS / 1000}s`);
    const outcomes = await runWorkers({
      count,
      args: childArgs,
      dir,
      startAt: Date.now() + STARTUP_MS,
      signal: o.signal,
      // Worker 0's warnings and progress stand for all (every shard runs the same plan, scaled).
      onStderrLine: (i, line) => {
        if (i === 0 && line.trim() !== '')
          o.note(line.startsWith('warning:') ? line : `[shard 0/${count}] ${line.replace(/\x1b\[K/g, '')}`);
      },
    });
    const configError = configErrorOf(outcomes);
    if (configError) throw configError;
    const present = outcomes.filter((w) => w.ok);
    const missingWhy = new Map(outcomes.filter((w) => !w.ok).map((w) => [w.index, workerFailure(w)] as [number, string]));
    if (present.length === 0) {
      const why = outcomes.map(workerFailure).join('; ');
      throw new SpgateError(o.signal.aborted ? 'SPGATE_ERR_ABORTED' : 'SPGATE_ERR_INTERNAL', `no worker wrote results: ${why}`);
    }
    const merged = await mergeShardFiles({ paths: present.map((w) => w.json), traceOut: o.children.traceOut, missingWhy });
    merged.first.meta.target = { name: target.name, baseUrl: target.baseUrl, embedded: target.source === 'embedded' };
    const results = mergedResults(merged, 'load', {
      ...(o.failOnInconclusive ? { failOnInconclusive: true } : {}),
      aborted: o.signal.aborted,
      abortReason: o.abortReason(),
      secrets: Object.values(target.secrets).filter((s): s is string => typeof s === 'string'),
    });
    return { result: merged.result, findings: merged.findings, results };
  } finally {
    await o.opened.close();
    await rm(dir, { recursive: true, force: true });
  }
}
