/**
 * `spgate load --profile NAME|FILE [--target FILE] [--base-url URL] [--duration S] [--trace FILE] [--json FILE] [--out DIR]`.
 * Without --target the embedded reference server is started on a loopback port. SIGINT/SIGTERM stop at
 * once; partial results are still written and the exit code is 3.
 */
import type { SpgateCommand } from '../command.js';
import { SpgateError } from '../../errors.js';
import { loadProfile } from '../../load/profile.js';
import { runProfile } from '../../load/run.js';
import { progressLine, summaryLines } from '../../load/print.js';
import { buildResults } from '../../results/build.js';
import { loadDryRun } from '../dry-run.js';
import { abortOnSignals, openTarget, printTargetWarnings, targetOptions, writeOutputs } from '../session.js';
import type { FindingRecord, ProfileResult } from '../../results/schema.js';

export const loadCommand: SpgateCommand = {
  command: 'load',
  describe: 'run a load profile (built-in name or file) against a target, or the embedded reference server',
  builder: (y) =>
    y
      .option('profile', { type: 'string', demandOption: true, describe: 'built-in profile name or profile file' })
      .option('target', { type: 'string', describe: 'target file (default: the embedded reference server)' })
      .option('base-url', { type: 'string', describe: "override the target's baseUrl" })
      .option('duration', { type: 'number', describe: 'seconds; replaces the profile duration' })
      .option('trace', { type: 'string', describe: 'write every response as NDJSON to this file' })
      .option('json', { type: 'string', describe: 'write the results document to this file' })
      .option('out', { type: 'string', describe: 'write results.json and reports into this directory' })
      .option('dry-run', { type: 'boolean', default: false, describe: 'print the plan (requests per class, rate, duration, caps applied) and send nothing' }),
  run: async (args) => {
    const profile = loadProfile(String(args.profile));
    const duration = args.duration as number | undefined;
    if (duration !== undefined && !(duration > 0)) throw new SpgateError('SPGATE_ERR_USAGE', '--duration must be a positive number of seconds');
    const { target, close } = await openTarget(targetOptions(args));
    printTargetWarnings(target);
    if (args.dryRun === true) {
      try {
        process.stdout.write(loadDryRun(target, profile, duration).join('\n') + '\n');
      } finally {
        await close();
      }
      return 0;
    }

    const abort = abortOnSignals();
    const tty = process.stderr.isTTY === true;
    const startedAt = new Date();
    let result: ProfileResult;
    let findings: FindingRecord[];
    try {
      ({ result, findings } = await runProfile({
        target,
        profile,
        durationOverride: duration,
        signal: abort.signal,
        tracePath: args.trace as string | undefined,
        onProgress: (p) => process.stderr.write(tty ? `\r${progressLine(p)}\x1b[K` : `${progressLine(p)}\n`),
      }));
    } finally {
      abort.dispose();
      if (tty) process.stderr.write('\n');
      await close();
    }

    process.stdout.write(summaryLines(result, findings).join('\n') + '\n');
    const aborted = result.status === 'aborted';
    const results = buildResults({
      command: 'load',
      target: { name: target.name, baseUrl: target.baseUrl, embedded: target.source === 'embedded' },
      startedAt,
      finishedAt: new Date(),
      aborted,
      abortReason: abort.reason(),
      checks: [],
      findings,
      exchanges: [],
      load: [result],
      errors: result.error ? [result.error] : [],
      secrets: Object.values(target.secrets).filter((s): s is string => typeof s === 'string'),
    });
    const renderCode = await writeOutputs(results, args);
    if (aborted || result.status === 'error') return 3;
    return Math.max(result.status === 'failed' ? 1 : 0, renderCode);
  },
};
