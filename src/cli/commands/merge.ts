/**
 * `spgate merge RESULTS.json... [--json FILE] [--out DIR] [--trace FILE]`: merges the shards of a
 * distributed run exactly (counts, histograms, timeline on one clock, rate-limit analysis over every
 * shard's responses), evaluates the thresholds on the whole, writes every report and sets the exit code.
 */
import type { SpgateCommand } from '../command.js';
import { SpgateError } from '../../errors.js';
import { summaryLines } from '../../load/print.js';
import { buildResults } from '../../results/build.js';
import { mergeShardFiles, type MergedFiles } from '../../distributed/merge-files.js';
import type { Results } from '../../results/schema.js';
import { writeOutputs } from '../session.js';

/** The results document of a merged run (command names the merge or the `load --workers` run). */
export function mergedResults(m: MergedFiles, command: string, extra: { aborted?: boolean; abortReason?: string; secrets?: string[] } = {}): Results {
  const aborted = extra.aborted === true || m.result.status === 'aborted';
  const notes = m.result.merged?.missing.length ? [m.result.error ?? 'incomplete'] : [];
  return buildResults({
    command,
    ...(m.runId ? { runId: m.runId } : {}),
    target: m.first.meta.target,
    startedAt: new Date(m.result.startedAt),
    finishedAt: m.finishedAt,
    aborted,
    abortReason: extra.abortReason ?? (aborted ? 'a shard was aborted' : undefined),
    notes,
    checks: [],
    findings: m.findings,
    exchanges: [],
    load: [m.result],
    errors: m.result.error ? [m.result.error] : [],
    secrets: extra.secrets,
  });
}

/** The exit code of a merged run: 3 aborted/incomplete/error, 1 failed, else the reporters' code. */
export function mergedExitCode(result: Results['load'][number], renderCode: number): number {
  if (result.status === 'aborted' || result.status === 'error') return 3;
  return Math.max(result.status === 'failed' ? 1 : 0, renderCode);
}

export const mergeCommand: SpgateCommand = {
  command: 'merge <results..>',
  describe: "merge the results of a distributed run's shards (load --shard i/N); thresholds are judged on the whole",
  builder: (y) =>
    y
      .positional('results', { type: 'string', array: true, describe: "each shard's results file (--json of load --shard)", demandOption: true })
      .option('json', { type: 'string', describe: 'write the merged results document to this file' })
      .option('out', { type: 'string', describe: 'write results.json and reports into this directory' })
      .option('trace', { type: 'string', describe: 'also write the merged trace (one clock) as NDJSON to this file' }),
  run: async (args) => {
    const paths = ((args.results as unknown[] | undefined) ?? []).map(String);
    if (paths.length === 0) throw new SpgateError('SPGATE_ERR_USAGE', 'name at least one shard results file');
    const merged = await mergeShardFiles({ paths, traceOut: args.trace as string | undefined });
    process.stdout.write(summaryLines(merged.result, merged.findings).join('\n') + '\n');
    if (merged.result.merged?.missing.length) process.stderr.write(`spgate: ${merged.result.error}\n`);
    const results = mergedResults(merged, 'merge');
    const renderCode = await writeOutputs(results, args);
    return mergedExitCode(merged.result, renderCode);
  },
};
