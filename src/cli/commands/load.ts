/**
 * `spgate load --profile NAME|FILE [--target FILE] [--base-url URL] [--duration S] [--trace FILE] [--json FILE] [--out DIR]`.
 * Without --target the embedded reference server is started on a loopback port. SIGINT/SIGTERM stop at
 * once; partial results are still written and the exit code is 3.
 */
import { join } from 'node:path';
import type { SpgateCommand } from '../command.js';
import { SpgateError } from '../../errors.js';
import { loadProfile } from '../../load/profile.js';
import { runProfile } from '../../load/run.js';
import { progressLine, summaryLines } from '../../load/print.js';
import { loadTarget } from '../../target/load.js';
import { normaliseBaseUrl, targetFromInput } from '../../target/resolve.js';
import type { Target } from '../../target/schema.js';
import { startReferenceServer } from '../../reference/index.js';
import { buildResults } from '../../results/build.js';
import { writeResults } from '../../results/io.js';
import { renderReports } from '../../report/index.js';
import { printRenderSummary } from '../render-summary.js';
import { loadDryRun } from '../dry-run.js';
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
    const baseUrlOverride = args.baseUrl as string | undefined;

    // Checked before the embedded server starts, so a bad override cannot leave it running.
    if (baseUrlOverride !== undefined) normaliseBaseUrl(baseUrlOverride, '--base-url');
    let target: Target;
    let closeServer: (() => Promise<void>) | undefined;
    if (args.target !== undefined) {
      target = await loadTarget(String(args.target), { baseUrlOverride });
    } else {
      const server = await startReferenceServer({ port: 0 });
      closeServer = () => server.close();
      target = targetFromInput(server.target, 'embedded', { baseUrlOverride });
    }
    for (const w of target.warnings) process.stderr.write(`warning: ${w}\n`);
    if (args.dryRun === true) {
      try {
        process.stdout.write(loadDryRun(target, profile, duration).join('\n') + '\n');
      } finally {
        await closeServer?.();
      }
      return 0;
    }

    const controller = new AbortController();
    let abortReason: string | undefined;
    const onSignal = (sig: NodeJS.Signals): void => {
      abortReason ??= `received ${sig}`;
      controller.abort();
    };
    process.once('SIGINT', onSignal);
    process.once('SIGTERM', onSignal);
    const tty = process.stderr.isTTY === true;
    const startedAt = new Date();
    let result: ProfileResult;
    let findings: FindingRecord[];
    try {
      ({ result, findings } = await runProfile({
        target,
        profile,
        durationOverride: duration,
        signal: controller.signal,
        tracePath: args.trace as string | undefined,
        onProgress: (p) => process.stderr.write(tty ? `\r${progressLine(p)}\x1b[K` : `${progressLine(p)}\n`),
      }));
    } finally {
      process.off('SIGINT', onSignal);
      process.off('SIGTERM', onSignal);
      if (tty) process.stderr.write('\n');
      await closeServer?.();
    }

    process.stdout.write(summaryLines(result, findings).join('\n') + '\n');
    const aborted = result.status === 'aborted';
    const results = buildResults({
      command: 'load',
      target: { name: target.name, baseUrl: target.baseUrl, embedded: target.source === 'embedded' },
      startedAt,
      finishedAt: new Date(),
      aborted,
      abortReason,
      checks: [],
      findings,
      exchanges: [],
      load: [result],
      errors: result.error ? [result.error] : [],
      secrets: Object.values(target.secrets).filter((s): s is string => typeof s === 'string'),
    });
    if (args.json !== undefined) await writeResults(String(args.json), results);
    let renderCode = 0;
    if (args.out !== undefined) {
      const dir = String(args.out);
      await writeResults(join(dir, 'results.json'), results);
      const render = await renderReports(results, dir);
      process.stdout.write(`reports written to ${dir}\n`);
      // A reporter that failed is one line (results.json is already safe); the exit code says so.
      renderCode = printRenderSummary({ outcomes: render.outcomes.filter((o) => o.status === 'failed'), notes: render.notes }, process.stdout, process.stderr);
    }
    if (aborted || result.status === 'error') return 3;
    return Math.max(result.status === 'failed' ? 1 : 0, renderCode);
  },
};
