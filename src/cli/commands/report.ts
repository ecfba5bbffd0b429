/** `spgate report` — re-render reports from a saved results.json. */
import { dirname, resolve } from 'node:path';
import type { SpgateCommand } from '../command.js';
import { SpgateError } from '../../errors.js';
import { readResults } from '../../results/io.js';
import { REPORT_FORMATS, parseFormats, renderReports } from '../../report/index.js';
import { printRenderSummary } from '../render-summary.js';

export const reportCommand: SpgateCommand = {
  command: 'report',
  describe: 'Re-render reports (HTML, JUnit, Markdown, PNG charts, JSON) from a saved results.json',
  builder: (y) =>
    y
      .option('from', { type: 'string', demandOption: true, describe: 'results.json written by run, conformance or load' })
      .option('out', { type: 'string', describe: 'output directory (default: the directory of --from)' })
      .option('format', {
        type: 'string',
        describe: `comma-separated: ${REPORT_FORMATS.join(', ')} (default: all but json when --out is the source directory)`,
      }),
  run: async (args) => {
    const from = resolve(String(args.from));
    const outDir = resolve(typeof args.out === 'string' ? args.out : dirname(from));
    // Rewriting results.json onto itself is pointless; elsewhere a copy keeps the report directory complete.
    const fallback = outDir === dirname(from) ? REPORT_FORMATS.filter((f) => f !== 'json') : REPORT_FORMATS;
    const { formats, unknown } = parseFormats(typeof args.format === 'string' ? args.format : undefined, fallback);
    if (unknown.length)
      throw new SpgateError('SPGATE_ERR_USAGE', `unknown --format ${unknown.join(', ')}; choose from ${REPORT_FORMATS.join(', ')}`);
    if (formats.length === 0) throw new SpgateError('SPGATE_ERR_USAGE', '--format names no format');
    const results = await readResults(from);
    const summary = await renderReports(results, outDir, formats);
    return printRenderSummary(summary, process.stdout, process.stderr);
  },
};
