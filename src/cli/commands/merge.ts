/**
 * `spgate merge RESULTS.json... [--json FILE] [--out DIR] [--trace FILE]`: merges the shards of a
 * distributed run exactly (counts, histograms, timeline on one clock, rate-limit analysis over every
 * shard's responses), evaluates the thresholds on the whole, writes every report and sets the exit code (src/run/exit-code.ts).
 */
import type { SpgateCommand } from '../command.js';
import { SpgateError } from '../../errors.js';
import { summaryLines } from '../../load/print.js';
import { mergeShardFiles } from '../../distributed/merge-files.js';
import { mergedResults } from '../../distributed/merged-results.js';
import { exitCode } from '../../run/exit-code.js';
import { writeOutputs } from '../session.js';

export const mergeCommand: SpgateCommand = {
  command: 'merge <results..>',
  describe: "merge the results of a distributed run's shards (load --shard i/N); thresholds are judged on the whole",
  builder: (y) =>
    y
      .positional('results', {
        type: 'string',
        array: true,
        describe: "each shard's results file (--json of load --shard)",
        demandOption: true,
      })
      .option('json', { type: 'string', describe: 'write the merged results document to this file' })
      .option('out', { type: 'string', describe: 'write results.json and reports into this directory' })
      .option('trace', { type: 'string', describe: 'also write the merged trace (one clock) as NDJSON to this file' })
      .option('fail-on-inconclusive', {
        type: 'boolean',
        default: false,
        describe: 'a threshold the merged run could not judge (a budget it never spent) fails it (exit 1)',
      }),
  run: async (args) => {
    const paths = ((args.results as unknown[] | undefined) ?? []).map(String);
    if (paths.length === 0) throw new SpgateError('SPGATE_ERR_USAGE', 'name at least one shard results file');
    const merged = await mergeShardFiles({ paths, traceOut: args.trace as string | undefined });
    process.stdout.write(summaryLines(merged.result, merged.findings).join('\n') + '\n');
    if (merged.result.merged?.missing.length) process.stderr.write(`spgate: ${merged.result.error}\n`);
    const results = mergedResults(merged, 'merge', args.failOnInconclusive === true ? { failOnInconclusive: true } : {});
    return exitCode(results, { renderCode: await writeOutputs(results, args) });
  },
};
