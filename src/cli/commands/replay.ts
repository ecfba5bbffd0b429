/**
 * `spgate replay TRACE.ndjson|FILE.har` — re-send a trace with its timing, record, analyze and compare;
 * with `--times N`, N attempts, each from a full budget: how often the violation reproduced, and how
 * faithfully the sends kept the schedule. The run itself is src/run/replay.ts: this file parses, calls,
 * prints and exits (1 when the replay shows a violation).
 */
import type { SpgateCommand } from '../command.js';
import { SpgateError } from '../../errors.js';
import { analyzeRateLimits } from '../../ratelimit/analyze.js';
import { formatAnalysis, formatComparison } from '../../ratelimit/format.js';
import { targetOptions } from '../../run/target.js';
import { runReplay } from '../../run/replay.js';
import { exitCode } from '../../run/exit-code.js';
import { readTraceInput } from '../../trace/input.js';
import { formatFidelity } from '../../shrink/fidelity.js';
import { traceToSamples } from '../../trace/samples.js';

export const replayCommand: SpgateCommand = {
  command: 'replay <trace>',
  describe: 're-send a trace with its timing, record the responses, and compare rate-limit violations',
  builder: (y) =>
    y
      .example('$0 replay burst.ndjson --target t.json --times 10', 'send the recorded sequence again, with its timing, ten times')
      .positional('trace', { type: 'string', describe: 'NDJSON trace file', demandOption: true })
      .option('target', { type: 'string', describe: 'target file (default: the embedded reference server)' })
      .option('base-url', { type: 'string', describe: "override the target's base URL (needs --target)" })
      .option('speed', { type: 'number', default: 1, describe: 'timing multiplier (2 = twice as fast)' })
      .option('trace-out', { type: 'string', describe: 'write the new responses as a trace to FILE' })
      .option('max-duration', { type: 'number', default: 60, describe: 'refuse traces longer than this many seconds (after --speed)' })
      .option('times', {
        type: 'number',
        describe: 'replay N times, each from a full budget (waits read from the headers); reports "reproduced k/N"',
      })
      .option('rule', { type: 'string', describe: "with --times: the violation to count (default: the trace's first)" })
      .option('max-wait', {
        type: 'number',
        default: 60,
        describe: 'with --times: the longest wait for the budget to be full again, seconds',
      })
      .option('json', { type: 'string', describe: 'write the outcome (reproduction rate, fidelity, violations) as JSON to FILE' })
      .option('key-role', { type: 'string', default: 'admin', describe: 'HAR: the key role of its first API key' }),
  run: async (args) => {
    const speed = Number(args.speed);
    const maxDuration = Number(args.maxDuration);
    if (!(speed > 0) || !Number.isFinite(speed)) throw new SpgateError('SPGATE_ERR_USAGE', '--speed must be a positive number');
    if (!(maxDuration > 0)) throw new SpgateError('SPGATE_ERR_USAGE', '--max-duration must be a positive number');
    const baseUrl = typeof args.baseUrl === 'string' ? args.baseUrl : undefined;
    if (baseUrl !== undefined && typeof args.target !== 'string') {
      throw new SpgateError('SPGATE_ERR_USAGE', '--base-url needs --target (the keys and fixture ids come from the target file)');
    }
    const times = args.times === undefined ? undefined : Number(args.times);
    if (times !== undefined && !(Number.isInteger(times) && times >= 1 && times <= 1000))
      throw new SpgateError('SPGATE_ERR_USAGE', '--times must be a whole number from 1 to 1000');
    const maxWait = Number(args.maxWait);
    if (!(maxWait > 0)) throw new SpgateError('SPGATE_ERR_USAGE', '--max-wait must be a positive number of seconds');
    if (times !== undefined && speed !== 1)
      throw new SpgateError('SPGATE_ERR_USAGE', "--times replays at the trace's own timing (--speed 1)");
    const { records } = await readTraceInput(String(args.trace), { keyRole: String(args.keyRole ?? 'admin') });
    const before = analyzeRateLimits(traceToSamples(records));

    const end = await runReplay({
      records,
      before,
      target: targetOptions(args),
      speed,
      maxDuration,
      times,
      maxWaitMs: maxWait * 1000,
      rule: typeof args.rule === 'string' ? args.rule : undefined,
      traceOut: typeof args.traceOut === 'string' ? args.traceOut : undefined,
      json: typeof args.json === 'string' ? args.json : undefined,
      note: (line) => process.stderr.write(`${line}\n`),
    });
    const { target } = end;
    const against = target.source === 'embedded' ? 'the embedded reference server' : target.baseUrl;
    const out = process.stdout;
    if (end.kind === 'repeated') {
      const { rep } = end;
      out.write(`Replayed ${records.length} requests ${times} time(s) against ${against}, each from a full budget.\n`);
      out.write(`${rep.line}\n${formatFidelity(rep.fidelity)}\n`);
      out.write('\nLast attempt:\n' + formatAnalysis(rep.last.analysis) + '\n' + formatComparison(before, rep.last.analysis));
      // A violation shown is a finding (exit-code.ts).
      return exitCode({ verdict: rep.withViolations > 0 ? 'failed' : 'passed' }, { renderCode: 0 });
    }
    const { outcome, after } = end;
    out.write(`Replayed ${outcome.records.length} of ${records.length} requests against ${against} at speed ${speed}.\n`);
    if (outcome.skipped.length > 0)
      out.write(
        `Skipped ${outcome.skipped.length}: ${outcome.skipped[0]!.path} (${outcome.skipped[0]!.reason})${outcome.skipped.length > 1 ? ' and others' : ''}\n`,
      );
    out.write(formatFidelity(end.fidelity) + '\n');
    out.write('\n' + formatAnalysis(after) + '\n' + formatComparison(before, after));
    return exitCode({ verdict: after.violations.length > 0 ? 'failed' : 'passed' }, { renderCode: 0 });
  },
};
