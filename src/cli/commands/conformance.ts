/**
 * `spgate conformance [--target FILE] [--base-url URL] [--suite NAME...] [--runs N] [--seed S] [--json FILE] [--out DIR]`.
 * Without --target the embedded reference server is started on a loopback port. SIGINT/SIGTERM stop at
 * once; partial results are still written and the exit code is 3.
 */
import { join } from 'node:path';
import type { SpgateCommand } from '../command.js';
import { SpgateError } from '../../errors.js';
import { runConformance, selectSuites, type ConformanceOutcome } from '../../conformance/run.js';
import { progressLine, summaryLines } from '../../conformance/print.js';
import { randomSeed } from '../../conformance/seeds.js';
import { loadTarget } from '../../target/load.js';
import { normaliseBaseUrl, targetFromInput } from '../../target/resolve.js';
import type { Target } from '../../target/schema.js';
import { startReferenceServer } from '../../reference/index.js';
import { buildResults } from '../../results/build.js';
import { writeResults } from '../../results/io.js';
import { renderReports } from '../../report/index.js';
import { printRenderSummary } from '../render-summary.js';
import { conformanceDryRun } from '../dry-run.js';

function intArg(value: unknown, name: string, min: number): number | undefined {
  if (value === undefined) return undefined;
  const n = Number(value);
  if (!Number.isSafeInteger(n) || n < min) throw new SpgateError('SPGATE_ERR_USAGE', `--${name} must be an integer >= ${min}`);
  return n;
}

export const conformanceCommand: SpgateCommand = {
  command: 'conformance',
  describe: 'run the conformance suites against a target, or the embedded reference server',
  builder: (y) =>
    y
      .option('target', { type: 'string', describe: 'target file (default: the embedded reference server)' })
      .option('base-url', { type: 'string', describe: "override the target's baseUrl" })
      .option('suite', { type: 'string', array: true, describe: 'suite name(s) to run (default: all)' })
      .option('runs', { type: 'number', default: 25, describe: 'generated cases per property' })
      .option('seed', { type: 'number', describe: 'seed (default: random, printed)' })
      .option('json', { type: 'string', describe: 'write the results document to this file' })
      .option('out', { type: 'string', describe: 'write results.json and reports into this directory' })
      .option('dry-run', { type: 'boolean', default: false, describe: 'print the plan (suites, checks, skips, destructive checks) and send nothing' }),
  run: async (args) => {
    const runs = intArg(args.runs, 'runs', 1) ?? 25;
    const seed = intArg(args.seed, 'seed', 0) ?? randomSeed();
    const suites = ((args.suite as string[] | undefined) ?? []).flatMap((s) => String(s).split(',')).filter(Boolean);
    selectSuites(suites); // an unknown name is a usage error before anything starts
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
    for (const w of (target as Target & { warnings?: string[] }).warnings ?? []) process.stderr.write(`warning: ${w}\n`);
    if (args.dryRun === true) {
      process.stdout.write(conformanceDryRun(target, suites, runs, seed).join('\n') + '\n');
      await closeServer?.();
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
    const startedAt = new Date();
    let outcome: ConformanceOutcome = { checks: [], findings: [], exchanges: [], aborted: false };
    const errors: string[] = [];
    let failure: unknown;
    try {
      outcome = await runConformance({
        target, suites, runs, seed, signal: controller.signal,
        onProgress: (e) => {
          const line = progressLine(e);
          if (line) process.stdout.write(`${line}\n`);
        },
      });
    } catch (err) {
      failure = err;
      errors.push(err instanceof Error ? err.message : String(err));
    } finally {
      process.off('SIGINT', onSignal);
      process.off('SIGTERM', onSignal);
      await closeServer?.();
    }
    const aborted = outcome.aborted || controller.signal.aborted;
    process.stdout.write(summaryLines({ ...outcome, aborted, seed }).join('\n') + '\n');

    const results = buildResults({
      command: 'conformance',
      target: { name: target.name, baseUrl: target.baseUrl, embedded: target.source === 'embedded' },
      seed,
      runs,
      startedAt,
      finishedAt: new Date(),
      aborted,
      ...(abortReason ? { abortReason } : {}),
      checks: outcome.checks,
      findings: outcome.findings,
      exchanges: outcome.exchanges,
      load: [],
      errors,
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
    if (failure !== undefined) throw failure;
    if (aborted) return 3;
    const failed = outcome.findings.some((f) => f.severity === 'error') || outcome.checks.some((c) => c.status === 'error');
    return Math.max(failed ? 1 : 0, renderCode);
  },
};
