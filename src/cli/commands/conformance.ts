/**
 * `spgate conformance [--target FILE] [--base-url URL] [--suite NAME...] [--runs N] [--seed S] [--json FILE] [--out DIR]`.
 * Without --target the embedded reference server is started on a loopback port. SIGINT/SIGTERM stop at
 * once; partial results are still written and the exit code is 3. The run itself is src/run/conformance.ts:
 * this file parses, calls, prints, writes and exits.
 */
import type { SpgateCommand } from '../command.js';
import { SpgateError } from '../../errors.js';
import { selectChecks, selectSuites } from '../../conformance/run.js';
import { SUITES } from '../../../suites/index.js';
import { progressLine, summaryLines } from '../../conformance/print.js';
import { randomSeed } from '../../conformance/seeds.js';
import { runConformanceCommand } from '../../run/conformance.js';
import { exitCode } from '../../run/exit-code.js';
import { conformanceDryRun } from '../dry-run.js';
import { abortOnSignals, printTargetWarnings, writeOutputs } from '../session.js';
import { openTarget, targetOptions } from '../../run/target.js';

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
      .example('$0 conformance --suite auth,pagination', 'two suites against the embedded reference server')
      .example('$0 conformance --target staging.yaml --check auth.expired --seed 7', "re-run one check as a finding's re-run line does")
      .example('$0 conformance --target staging.yaml --dry-run', 'which checks would run or skip, and the line to add for each skip')
      .option('target', { type: 'string', describe: 'target file (default: the embedded reference server)' })
      .option('base-url', { type: 'string', describe: "override the target's baseUrl" })
      .option('suite', { type: 'string', array: true, describe: 'suite name(s) to run (default: all)' })
      .option('check', { type: 'string', array: true, describe: 'check id(s) to run within the selected suites (default: all)' })
      .option('runs', { type: 'number', default: 25, describe: 'generated cases per property' })
      .option('seed', { type: 'number', describe: 'seed (default: random, printed)' })
      .option('json', { type: 'string', describe: 'write the results document to this file' })
      .option('out', { type: 'string', describe: 'write results.json and reports into this directory' })
      .option('dry-run', {
        type: 'boolean',
        default: false,
        describe: 'print the plan (suites, checks, skips, destructive checks) and send nothing',
      })
      .option('fail-on-inconclusive', {
        type: 'boolean',
        default: false,
        describe: 'a check that ran but could not judge fails the run (exit 1)',
      }),
  run: async (args) => {
    const runs = intArg(args.runs, 'runs', 1) ?? 25;
    const seed = intArg(args.seed, 'seed', 0) ?? randomSeed();
    const suites = ((args.suite as string[] | undefined) ?? []).flatMap((s) => String(s).split(',')).filter(Boolean);
    const checks = ((args.check as string[] | undefined) ?? []).flatMap((s) => String(s).split(',')).filter(Boolean);
    selectChecks(selectSuites(suites, SUITES), checks, SUITES); // an unknown name or id is a usage error before anything starts
    const opened = await openTarget(targetOptions(args, { seed }));
    printTargetWarnings(opened.target);
    if (args.dryRun === true) {
      process.stdout.write((await conformanceDryRun(opened.target, suites, runs, seed)).join('\n') + '\n');
      await opened.close();
      return 0;
    }

    const abort = abortOnSignals();
    let end;
    try {
      end = await runConformanceCommand({
        opened,
        suites,
        checks,
        runs,
        seed,
        failOnInconclusive: args.failOnInconclusive === true,
        signal: abort.signal,
        abortReason: () => abort.reason(),
        onProgress: (e) => {
          const line = progressLine(e);
          if (line) process.stdout.write(`${line}\n`);
        },
      });
    } finally {
      abort.dispose();
    }
    process.stdout.write(summaryLines({ ...end.outcome, aborted: end.aborted, seed }).join('\n') + '\n');
    const renderCode = await writeOutputs(end.results, args);
    if ('failure' in end) throw end.failure;
    // Run-level errors the results found (a run that judged nothing), each as spgate's one error line.
    for (const e of end.results.errors.slice(end.ownErrors)) process.stderr.write(`spgate: ${e}\n`);
    return exitCode(end.results, { renderCode });
  },
};
