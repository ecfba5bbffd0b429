/** `spgate compare` — regressions between two runs (the CI gate). */
import { writeFile } from 'node:fs/promises';
import type { SpgateCommand } from '../command.js';
import { SpgateError } from '../../errors.js';
import { readResults } from '../../results/io.js';
import { compareResults, DEFAULT_COMPARE_OPTIONS, type CompareOptions } from '../../results/compare.js';
import { comparisonText } from '../../report/compare-text.js';

const D = DEFAULT_COMPARE_OPTIONS;

/** The numeric options, each with its flag, its key in CompareOptions and what kind of number it takes. */
const NUMERIC = [
  [
    'p50-regression',
    'p50RegressionPct',
    'percent',
    'percent the p50 of a 2xx series may rise (beyond the 95 % intervals) before it fails the gate',
  ],
  [
    'p99-regression',
    'p99RegressionPct',
    'percent',
    'percent the p99 of a 2xx series may rise (beyond the 95 % intervals) before it fails the gate',
  ],
  [
    'throughput-regression',
    'throughputRegressionPct',
    'percent',
    'percent the answered (non-429) throughput may fall (beyond the 95 % intervals) before it fails the gate',
  ],
  [
    'min-delta-ms',
    'minDeltaMs',
    'milliseconds',
    'a latency percentile that moved by no more than this is no regression, whatever the percent',
  ],
  ['min-delta-rps', 'minDeltaRps', 'requests per second', 'a throughput that fell by no more than this is no regression'],
  [
    'min-samples',
    'minSamples',
    'samples',
    'below this many responses in either run a figure is "not enough data" (neither a pass nor a regression)',
  ],
] as const satisfies ReadonlyArray<readonly [string, keyof CompareOptions, string, string]>;

export const compareCommand: SpgateCommand = {
  command: 'compare <base> <head>',
  describe:
    'Compare two results.json files: new/fixed findings, latency and throughput with 95 % intervals, rate-limit changes; exit 1 on a supported regression',
  builder: (y) => {
    let b = y
      .positional('base', { type: 'string', describe: 'results.json of the baseline run' })
      .positional('head', { type: 'string', describe: 'results.json of the run under review' });
    for (const [flag, key, , describe] of NUMERIC) b = b.option(flag, { type: 'number', default: D[key], describe });
    return b.option('json', { type: 'string', describe: 'also write the comparison as JSON to this file' });
  },
  run: async (args) => {
    const options = { ...D };
    for (const [flag, key, unit] of NUMERIC) {
      const v = Number(args[flag.replace(/-([a-z0-9])/g, (_, ch: string) => ch.toUpperCase())]);
      if (!Number.isFinite(v) || v < 0) throw new SpgateError('SPGATE_ERR_USAGE', `--${flag} must be a non-negative number of ${unit}`);
      options[key] = v;
    }
    // One after the other: with both files bad, the error names the base's every time (read side by side,
    // it named whichever failed first).
    const base = await readResults(String(args.base));
    const head = await readResults(String(args.head));
    const c = compareResults(base, head, options);
    if (c.refused) throw new SpgateError('SPGATE_ERR_COMPARE_MISMATCH', c.refused);
    process.stdout.write(comparisonText(c));
    if (typeof args.json === 'string') await writeFile(args.json, JSON.stringify(c, null, 2) + '\n', 'utf8');
    return c.regressions.length > 0 ? 1 : 0;
  },
};
