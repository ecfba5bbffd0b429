/** `spgate compare` — regressions between two runs (the CI gate). */
import { writeFile } from 'node:fs/promises';
import type { SpgateCommand } from '../command.js';
import { SpgateError } from '../../errors.js';
import { readResults } from '../../results/io.js';
import { compareResults, DEFAULT_COMPARE_OPTIONS } from '../../results/compare.js';
import { comparisonText } from '../../report/compare-text.js';

export const compareCommand: SpgateCommand = {
  command: 'compare <base> <head>',
  describe: 'Compare two results.json files: new/fixed findings, latency, throughput and rate-limit changes; exit 1 on regression',
  builder: (y) =>
    y
      .positional('base', { type: 'string', describe: 'results.json of the baseline run' })
      .positional('head', { type: 'string', describe: 'results.json of the run under review' })
      .option('p99-regression', { type: 'number', default: DEFAULT_COMPARE_OPTIONS.p99RegressionPct, describe: 'percent p99 increase (2xx series) that fails the gate' })
      .option('throughput-regression', { type: 'number', default: DEFAULT_COMPARE_OPTIONS.throughputRegressionPct, describe: 'percent mean-throughput decrease that fails the gate' })
      .option('json', { type: 'string', describe: 'also write the comparison as JSON to this file' }),
  run: async (args) => {
    const p99 = Number(args.p99Regression);
    const tp = Number(args.throughputRegression);
    for (const [name, v] of [['--p99-regression', p99], ['--throughput-regression', tp]] as const) {
      if (!Number.isFinite(v) || v < 0) throw new SpgateError('SPGATE_ERR_USAGE', `${name} must be a non-negative number of percent`);
    }
    const [base, head] = await Promise.all([readResults(String(args.base)), readResults(String(args.head))]);
    const c = compareResults(base, head, { p99RegressionPct: p99, throughputRegressionPct: tp });
    process.stdout.write(comparisonText(c));
    if (typeof args.json === 'string') await writeFile(args.json, JSON.stringify(c, null, 2) + '\n', 'utf8');
    return c.regressions.length > 0 ? 1 : 0;
  },
};
