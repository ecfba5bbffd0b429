/** `spgate analyze TRACE.ndjson|FILE.har` — rate-limit analysis of a recorded trace or a HAR file. */
import { writeFile } from 'node:fs/promises';
import type { SpgateCommand } from '../command.js';
import { SpgateError } from '../../errors.js';
import { analyzeRateLimits, type AnalyzeOptions } from '../../ratelimit/analyze.js';
import { formatAnalysis } from '../../ratelimit/format.js';
import { readTraceInput } from '../../trace/input.js';
import { traceToSamples } from '../../trace/samples.js';

/** Builds the analyzer's expected budgets from --read-limit/--write-limit/--window. */
export function expectedFromArgs(args: Record<string, unknown>): AnalyzeOptions {
  const window = args.window as number | undefined;
  const read = args.readLimit as number | undefined;
  const write = args.writeLimit as number | undefined;
  for (const [name, v] of [
    ['--read-limit', read],
    ['--write-limit', write],
    ['--window', window],
  ] as const) {
    if (v !== undefined && !(Number.isFinite(v) && v > 0)) throw new SpgateError('SPGATE_ERR_USAGE', `${name} must be a positive number`);
  }
  if ((read !== undefined || write !== undefined) && window === undefined) {
    throw new SpgateError('SPGATE_ERR_USAGE', '--read-limit/--write-limit need --window (seconds)');
  }
  const expected: NonNullable<AnalyzeOptions['expected']> = {};
  if (read !== undefined) expected.read = { limit: read, windowSeconds: window! };
  if (write !== undefined) expected.write = { limit: write, windowSeconds: window! };
  return { expected, strict: args.strict === true };
}

export const analyzeCommand: SpgateCommand = {
  command: 'analyze <trace>',
  describe: 'rate-limit analysis of a recorded NDJSON trace or a HAR 1.2 file (exit 1 when the limiter broke a rule)',
  builder: (y) =>
    y
      .example('$0 analyze burst.ndjson', 'budgets, windows and violations of a recorded trace')
      .example('$0 analyze session.har --key-role admin', 'the same for a HAR file from browser devtools')
      .positional('trace', { type: 'string', describe: 'NDJSON trace file (from --trace), or a .har file', demandOption: true })
      .option('key-role', {
        type: 'string',
        describe: 'HAR: the key role of its first API key (further keys: ROLE#2, …)',
        default: 'admin',
      })
      .option('json', { type: 'string', describe: 'also write the analysis as JSON to FILE' })
      .option('read-limit', { type: 'number', describe: 'expected read budget per window' })
      .option('write-limit', { type: 'number', describe: 'expected write budget per window' })
      .option('window', { type: 'number', describe: 'expected window length in seconds' })
      .option('strict', { type: 'boolean', describe: 'judge against the stated budget even where the headers announce another' }),
  run: async (args) => {
    const opts = expectedFromArgs(args);
    const { records, ignored, format } = await readTraceInput(String(args.trace), { keyRole: String(args.keyRole ?? 'admin') });
    if (format === 'har')
      process.stdout.write(
        `HAR: ${records.length} API request(s) read${ignored > 0 ? `, ${ignored} other entr${ignored === 1 ? 'y' : 'ies'} ignored` : ''}.\n`,
      );
    const analysis = analyzeRateLimits(traceToSamples(records), opts);
    process.stdout.write(formatAnalysis(analysis));
    if (typeof args.json === 'string') {
      try {
        await writeFile(args.json, JSON.stringify(analysis, null, 2) + '\n');
      } catch (cause) {
        throw new SpgateError('SPGATE_ERR_FILE_NOT_FOUND', `cannot write ${args.json}`, { cause });
      }
    }
    return analysis.violations.length > 0 ? 1 : 0;
  },
};
