/**
 * `spgate load --profile NAME|FILE [--target FILE] [--base-url URL] [--duration S] [--trace FILE] [--json FILE] [--out DIR]
 *  [--workers N|auto] [--shard I/N [--start-at EPOCH_MS]] [--metrics KIND=URL...] [--metrics-interval S]`.
 * Without --target the embedded reference server is started on a loopback port. SIGINT/SIGTERM stop at
 * once; partial results are still written and the exit code is 3. The run itself is src/run/load.ts (in one
 * process, as a shard, or as local workers merged): this file parses, calls, prints, writes and exits.
 */
import type { SpgateCommand } from '../command.js';
import { SpgateError } from '../../errors.js';
import { loadProfile, type Profile } from '../../load/profile.js';
import { parseThreshold } from '../../fold/threshold.js';
import { progressLine, summaryLines } from '../../load/print.js';
import { parseShardSpec } from '../../distributed/shard.js';
import { parseWorkers } from '../../distributed/workers.js';
import { abortOnSignals, printTargetWarnings, writeOutputs } from '../session.js';
import { targetOptions } from '../../run/target.js';
import { runLoad, setUpLoad } from '../../run/load.js';
import { exitCode } from '../../run/exit-code.js';
import { metricsArgs, parseMetricsOptions } from '../../metrics/options.js';
import { metricsKindsHelp } from '../../metrics/sinks.js';
import { metricsRunId } from '../../metrics/session.js';

/** A --start-at further from now than this is a mistake (seconds instead of ms, a stale value), not a plan. */
const MAX_START_DELAY_MS = 24 * 3600 * 1000;

/** The trace of a shard run: --trace, else beside the --json file, else in --out. */
export function shardTracePath(args: Record<string, unknown>): string {
  if (args.trace !== undefined) return String(args.trace);
  if (args.json !== undefined) return String(args.json).replace(/\.json$/i, '') + '.ndjson';
  if (args.out !== undefined) return `${String(args.out).replace(/\/$/, '')}/trace.ndjson`;
  throw new SpgateError('SPGATE_ERR_USAGE', '--shard needs --json FILE (the input of spgate merge)');
}

function parseStartAt(raw: unknown): number | undefined {
  if (raw === undefined) return undefined;
  const v = Number(raw);
  if (!Number.isFinite(v) || v <= 0 || !/^\d+$/.test(String(raw).trim()))
    throw new SpgateError('SPGATE_ERR_USAGE', '--start-at must be epoch milliseconds (date +%s%3N)');
  // A shard that starts late (a pod scheduled after the others) starts at once; a day off is a wrong value.
  if (Math.abs(v - Date.now()) > MAX_START_DELAY_MS)
    throw new SpgateError('SPGATE_ERR_USAGE', `--start-at ${v} is more than 24 h from now (seconds given instead of milliseconds?)`);
  return v;
}

export const loadCommand: SpgateCommand = {
  command: 'load',
  describe: 'run a load profile (built-in name or file) against a target, or the embedded reference server',
  builder: (y) =>
    y
      .example('$0 load --profile smoke', 'a short mixed load against the embedded reference server')
      .example(
        '$0 load --profile capacity --target staging.yaml --trace capacity.ndjson',
        'a capacity ramp against staging, every response traced',
      )
      .example(
        '$0 load --profile read-budget --target staging.yaml --threshold "read.p95 < 250" --duration 30',
        'a profile with a threshold of your own',
      )
      .option('profile', { type: 'string', demandOption: true, describe: 'built-in profile name or profile file' })
      .option('target', { type: 'string', describe: 'target file (default: the embedded reference server)' })
      .option('base-url', { type: 'string', describe: "override the target's baseUrl" })
      .option('duration', { type: 'number', describe: 'seconds; replaces the profile duration' })
      .option('threshold', {
        type: 'string',
        array: true,
        describe: "threshold expression(s) added to the profile's, e.g. 'read.p95 < 250' (docs/profiles.md#thresholds)",
      })
      .option('trace', { type: 'string', describe: 'write every response as NDJSON to this file' })
      .option('json', { type: 'string', describe: 'write the results document to this file' })
      .option('out', { type: 'string', describe: 'write results.json and reports into this directory' })
      .option('workers', {
        type: 'string',
        describe:
          "run as N local shards in separate processes and merge them (default auto: the cores for a remote target, at most 8 and at most the profile's connections; 1 for a target on this machine)",
      })
      .option('shard', {
        type: 'string',
        describe: 'run shard I of N (0-based, e.g. 2/4) of a distributed run; merge the shards with spgate merge',
      })
      .option('start-at', { type: 'string', describe: 'with --shard: start sending at this epoch time in ms, so shards begin together' })
      .option('run-id', {
        type: 'string',
        describe: "one id for the logical run, shared by every shard (CTRF's runId; default: SPGATE_RUN_ID, else derived from --start-at)",
      })
      .option('metrics', {
        type: 'string',
        array: true,
        describe: `push live metrics while the run goes: ${metricsKindsHelp()}; repeatable (docs/metrics.md)`,
      })
      .option('metrics-interval', { type: 'number', describe: `seconds between metrics pushes (default 5)` })
      .option('dry-run', {
        type: 'boolean',
        default: false,
        describe: 'print the plan (requests per class, rate, duration, caps applied) and send nothing',
      })
      .option('fail-on-inconclusive', {
        type: 'boolean',
        default: false,
        describe: 'a threshold the run could not judge (a budget it never spent) fails the run (exit 1)',
      }),
  run: async (args) => {
    const metrics = parseMetricsOptions(args.metrics, args.metricsInterval);
    const thresholds = ((args.threshold as unknown[] | undefined) ?? []).map(String);
    const profile = withThresholds(loadProfile(String(args.profile)), thresholds);
    const duration = args.duration as number | undefined;
    if (duration !== undefined && !(duration > 0))
      throw new SpgateError('SPGATE_ERR_USAGE', '--duration must be a positive number of seconds');
    const shard = args.shard !== undefined ? parseShardSpec(String(args.shard)) : undefined;
    const asked = args.workers !== undefined ? parseWorkers(args.workers) : 'auto';
    const startAt = parseStartAt(args.startAt);
    if (shard && typeof asked === 'number' && asked > 1)
      throw new SpgateError('SPGATE_ERR_USAGE', '--shard and --workers cannot be combined (a shard is one process)');
    if (startAt !== undefined && !shard) throw new SpgateError('SPGATE_ERR_USAGE', '--start-at goes with --shard');
    if (shard && args.target === undefined && args.dryRun !== true) {
      throw new SpgateError('SPGATE_ERR_USAGE', '--shard needs --target FILE: every shard must aim at the same deployment');
    }
    const tracePath = shard ? shardTracePath(args) : (args.trace as string | undefined);
    const givenRunId =
      typeof args.runId === 'string' && args.runId !== ''
        ? args.runId
        : shard && startAt !== undefined
          ? `${profile.name}-${shard.count}-${startAt}`
          : undefined;
    // Live metrics are labelled with a run id; the results then name the same one.
    const runId = metrics.endpoints.length ? metricsRunId(givenRunId, profile.name) : givenRunId;

    const setup = await setUpLoad({ profile, target: targetOptions(args), workers: asked, shard });
    if (args.dryRun === true) {
      try {
        printTargetWarnings(setup.whole);
        // The dry-run module plans conformance too (all suites): imported only for a dry run.
        const { loadDryRun } = await import('../dry-run.js');
        const lines = loadDryRun(setup.target, setup.profile, duration);
        if (!shard) lines.push(`workers: ${setup.workers}${setup.why ? ` (auto: ${setup.why})` : ''}`);
        process.stdout.write(lines.join('\n') + '\n');
      } finally {
        await setup.opened.close();
      }
      return 0;
    }

    const abort = abortOnSignals();
    const tty = process.stderr.isTTY === true;
    const live = setup.workers === 1;
    let end;
    try {
      end = await runLoad(setup, {
        profileRef: String(args.profile),
        duration,
        startAt,
        tracePath,
        runId,
        metrics,
        failOnInconclusive: args.failOnInconclusive === true,
        children: {
          profileRef: String(args.profile),
          thresholds,
          metrics: metricsArgs(args.metrics, args.metricsInterval),
          runId: typeof args.runId === 'string' && args.runId !== '' ? args.runId : undefined,
          targetFile: args.target !== undefined ? String(args.target) : undefined,
          baseUrl: args.baseUrl !== undefined ? String(args.baseUrl) : undefined,
          traceOut: args.trace as string | undefined,
        },
        signal: abort.signal,
        abortReason: () => abort.reason(),
        onProgress: (p) => process.stderr.write(tty ? `\r${progressLine(p)}\x1b[K` : `${progressLine(p)}\n`),
        note: (line) => process.stderr.write(`${tty && live ? '\r\x1b[K' : ''}${line}\n`),
      });
    } finally {
      abort.dispose();
      if (tty && live) process.stderr.write('\n');
    }
    process.stdout.write(summaryLines(end.result, end.findings).join('\n') + '\n');
    if (end.result.merged?.missing.length) process.stderr.write(`spgate: ${end.result.error}\n`);
    // A shard's own thresholds see part of the load: the verdict is merge's (exit-code.ts).
    return exitCode(end.results, { renderCode: await writeOutputs(end.results, args), shard: shard !== undefined });
  },
};

/** The profile with --threshold expressions added; one that does not parse is a usage error. */
function withThresholds(profile: Profile, extra: string[]): Profile {
  for (const t of extra) {
    const r = parseThreshold(t);
    if (!r.ok) throw new SpgateError('SPGATE_ERR_USAGE', `--threshold ${JSON.stringify(t)}: ${r.error}`);
  }
  return extra.length ? { ...profile, thresholds: [...profile.thresholds, ...extra] } : profile;
}
