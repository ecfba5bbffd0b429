/** `spgate run` — conformance suites, short load profiles and every report, in one command. */
import { randomInt } from 'node:crypto';
import { relative, resolve } from 'node:path';
import type { SpgateCommand } from '../command.js';
import { SpgateError } from '../../errors.js';
import { runPipeline } from '../../run/pipeline.js';
import { countResults } from '../../results/verdict.js';
import { exitCode } from '../../run/exit-code.js';
import { createProgress } from '../../run/progress.js';
import { printRenderSummary } from '../render-summary.js';
import { failureLines, ruleViolations } from '../../report/failures.js';
import { runDryRun } from '../dry-run.js';
import { abortOnSignals } from '../session.js';
import { targetOptions } from '../../run/target.js';
import { parseMetricsOptions, redactedCommandLine } from '../../metrics/options.js';
import { metricsKindsHelp } from '../../metrics/sinks.js';
import { createLiveMetrics, metricsRunId } from '../../metrics/session.js';

export const runCommand: SpgateCommand = {
  command: 'run',
  describe:
    'Run the conformance suites and the smoke, read-budget, write-budget and class-isolation profiles, then write every report (embedded reference server by default)',
  builder: (y) =>
    y
      .example('$0 run', 'conformance and the load profiles against the embedded reference server, every report in reports/latest')
      .example('$0 run --target staging.yaml --dry-run', 'the plan of every phase; nothing is sent, no key needed')
      .example('$0 run --target staging.yaml --seed 7 --fail-on-inconclusive', 'the CI gate: a check that could not judge fails it too')
      .option('target', { type: 'string', describe: 'target file (JSON or YAML); the embedded reference server when absent' })
      .option('base-url', { type: 'string', describe: "override the target's base URL" })
      .option('out', { type: 'string', default: 'reports', describe: 'base directory; the run writes <out>/<timestamp>/ and <out>/latest' })
      .option('seed', { type: 'number', describe: 'seed of the property runs and the embedded server (random when absent)' })
      .option('runs', { type: 'number', default: 25, describe: 'generated cases per property check' })
      .option('json', { type: 'string', describe: 'also write results.json to this file' })
      .option('dry-run', { type: 'boolean', default: false, describe: 'print the plan of every phase and send nothing' })
      .option('fail-on-inconclusive', {
        type: 'boolean',
        default: false,
        describe: 'a check that ran but could not judge fails the run (exit 1)',
      })
      .option('metrics', {
        type: 'string',
        array: true,
        describe: `push live metrics of the load phases: ${metricsKindsHelp()}; repeatable (docs/metrics.md)`,
      })
      .option('metrics-interval', { type: 'number', describe: 'seconds between metrics pushes (default 5)' }),
  run: async (args) => {
    const metrics = parseMetricsOptions(args.metrics, args.metricsInterval);
    const seed = args.seed === undefined ? randomInt(0, 2 ** 31) : Number(args.seed);
    const runs = Number(args.runs);
    if (!Number.isInteger(seed) || seed < 0) throw new SpgateError('SPGATE_ERR_USAGE', '--seed must be a non-negative integer');
    if (!Number.isInteger(runs) || runs < 1) throw new SpgateError('SPGATE_ERR_USAGE', '--runs must be a positive integer');
    if (args.dryRun === true) {
      const lines = await runDryRun({ ...targetOptions(args), seed, runs });
      process.stdout.write(lines.join('\n') + '\n');
      return 0;
    }
    const target = targetOptions(args, { seed });
    const progress = createProgress(process.stderr);
    const abort = abortOnSignals((sig) =>
      progress.note(`spgate: ${sig} received — stopping; partial results will be written (send again to quit at once)`),
    );
    // Recorded in the results: credentials of a --metrics URL must not be.
    const command = ['spgate', 'run', ...redactedCommandLine(process.argv.slice(3))].join(' ');
    const runId = metrics.endpoints.length ? metricsRunId(undefined, 'run') : undefined;
    const live = runId ? await createLiveMetrics({ ...metrics, runId, shard: '0/1', warn: (line) => progress.note(line) }) : undefined;
    try {
      const out = await runPipeline({
        ...target,
        // Noted by the pipeline once it opened the target: a configuration error stays the only line.
        banner: `spgate run · seed ${seed} · ${runs} runs per property${args.target ? ` · target ${String(args.target)}` : ' · embedded reference server'}`,
        seed,
        runs,
        command,
        outBase: resolve(String(args.out)),
        ...(typeof args.json === 'string' ? { jsonPath: resolve(args.json) } : {}),
        signal: abort.signal,
        progress,
        failOnInconclusive: args.failOnInconclusive === true,
        ...(live ? { metrics: live, runId } : {}),
      });
      const r = out.results;
      const n = countResults(r);
      const lines = [
        '',
        `verdict: ${r.verdict.toUpperCase()}${r.meta.aborted ? ` (${r.meta.abortReason ?? 'aborted'})` : ''}`,
        `checks: ${n.checks.total} · passed ${n.checks.passed} · failed ${n.checks.failed} · warned ${n.checks.warned} · inconclusive ${n.checks.inconclusive} · skipped ${n.checks.skipped} · errored ${n.checks.error}`,
        `findings: ${n.findings.error} errors, ${n.findings.warning} warnings · thresholds breached ${n.thresholds.failed}/${n.thresholds.total}${n.thresholds.notJudged ? ` (${n.thresholds.notJudged} not judged)` : ''} · rate-limit rules broken ${r.load.reduce((sum, p) => sum + ruleViolations(r.findings, p.name), 0)}${n.violations ? ` (in ${n.violations} windows)` : ''}`,
        ...r.load.map(
          (p) =>
            `load ${p.name}: ${p.status} · ${p.totals.completed} requests · ${p.throughput.meanRps.toFixed(0)}/s mean · ${p.totals.byStatus['429'] ?? 0} × 429`,
        ),
        ...(r.meta.notes ?? []).map((x) => `note: ${x}`),
        ...r.errors.map((e) => `error: ${e}`),
        ...failureLines(r),
        '',
        `report: ${relative(process.cwd(), out.runDir) || out.runDir}/index.html (latest: ${out.latest})`,
        '',
      ];
      process.stdout.write(lines.join('\n'));
      for (const e of r.errors.filter((x) => x.startsWith('SPGATE_ERR_'))) process.stderr.write(`spgate: ${e}\n`);
      const renderCode = printRenderSummary(
        { outcomes: out.render.outcomes.filter((o) => o.status === 'failed'), notes: out.render.notes },
        process.stdout,
        process.stderr,
      );
      return exitCode(r, { renderCode });
    } finally {
      abort.dispose();
    }
  },
};
