/**
 * `spgate load --workers N` (N > 1): checks every shard's plan (so a configuration error is one line before
 * anything is sent), gives the children one target (the target file, or a file describing the embedded
 * reference server this process serves), runs them (distributed/workers.ts), merges their results with the code
 * `spgate merge` uses, prints and writes the merged run, and sets the exit code.
 */
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { SpgateError } from '../errors.js';
import type { Profile } from '../load/profile.js';
import { planProfile } from '../load/plan.js';
import { summaryLines } from '../load/print.js';
import { shardProfile, shardTarget } from './shard.js';
import { configErrorOf, runWorkers, workerFailure } from './workers.js';
import { mergeShardFiles } from './merge-files.js';
import { targetFileOf } from '../target/resolve.js';
import { metricsArgs } from '../metrics/options.js';
import { mergedExitCode, mergedResults } from '../cli/commands/merge.js';
import { abortOnSignals, writeOutputs } from '../cli/session.js';
import type { OpenTarget } from '../run/target.js';

/** Time the children get to load before they all start sending together. */
const STARTUP_MS = 2500;

/** Runs the profile as `count` local shards and merges them; returns the exit code. */
export async function runLoadWorkers(args: Record<string, unknown>, profile: Profile, count: number, duration: number | undefined, opened: OpenTarget, why?: string): Promise<number> {
  const dir = await mkdtemp(join(tmpdir(), 'spgate-workers-'));
  const stop = opened.close;
  try {
    const target = opened.target;
    // Each shard judges and records the same thresholds, which merge then evaluates on the whole.
    const childArgs = ['--profile', String(args.profile), ...((args.threshold as unknown[] | undefined) ?? []).flatMap((t) => ['--threshold', String(t)])];
    // Every shard pushes its own live metrics (labelled with its shard), under the run id they share.
    childArgs.push(...metricsArgs(args.metrics, args.metricsInterval), ...(typeof args.runId === 'string' && args.runId !== '' ? ['--run-id', args.runId] : []));
    let targetFile: string;
    if (args.target !== undefined) {
      targetFile = String(args.target);
      if (args.baseUrl !== undefined) childArgs.push('--base-url', String(args.baseUrl));
    } else {
      // The children aim at this process's embedded server; the file holds its keys, so it is private and removed after.
      targetFile = join(dir, 'target.json');
      await writeFile(targetFile, JSON.stringify(targetFileOf(target), null, 2) + '\n', { mode: 0o600 });
    }
    childArgs.push('--target', targetFile);
    if (duration !== undefined) childArgs.push('--duration', String(duration));
    for (let index = 0; index < count; index++) {
      const shard = { index, count };
      planProfile(shardProfile(profile, shard).profile, shardTarget(target, shard), duration);
    }

    const abort = abortOnSignals();
    let outcomes;
    try {
      process.stderr.write(`load: ${count} workers${why ? ` (auto: ${why})` : ''}, one shard each; they start together in ${STARTUP_MS / 1000}s\n`);
      outcomes = await runWorkers({
        count, args: childArgs, dir, startAt: Date.now() + STARTUP_MS, signal: abort.signal,
        // Worker 0's warnings and progress stand for all (every shard runs the same plan, scaled).
        onStderrLine: (i, line) => {
          if (i === 0 && line.trim() !== '') process.stderr.write(line.startsWith('warning:') ? `${line}\n` : `[shard 0/${count}] ${line.replace(/\x1b\[K/g, '')}\n`);
        },
      });
    } finally {
      abort.dispose();
    }
    const configError = configErrorOf(outcomes);
    if (configError) throw configError;
    const present = outcomes.filter((w) => w.ok);
    const missingWhy = new Map(outcomes.filter((w) => !w.ok).map((w) => [w.index, workerFailure(w)] as [number, string]));
    if (present.length === 0) {
      const why = outcomes.map(workerFailure).join('; ');
      throw new SpgateError(abort.signal.aborted ? 'SPGATE_ERR_ABORTED' : 'SPGATE_ERR_INTERNAL', `no worker wrote results: ${why}`);
    }
    const merged = await mergeShardFiles({ paths: present.map((w) => w.json), traceOut: args.trace as string | undefined, missingWhy });
    merged.first.meta.target = { name: target.name, baseUrl: target.baseUrl, embedded: target.source === 'embedded' };
    process.stdout.write(summaryLines(merged.result, merged.findings).join('\n') + '\n');
    if (missingWhy.size) process.stderr.write(`spgate: ${merged.result.error}\n`);
    const results = mergedResults(merged, 'load', {
      aborted: abort.signal.aborted,
      abortReason: abort.reason(),
      secrets: Object.values(target.secrets).filter((s): s is string => typeof s === 'string'),
    });
    const renderCode = await writeOutputs(results, args);
    return mergedExitCode(merged.result, renderCode);
  } finally {
    await stop();
    await rm(dir, { recursive: true, force: true });
  }
}
