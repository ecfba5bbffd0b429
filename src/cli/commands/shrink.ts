/**
 * `spgate shrink TRACE --target FILE --trace-out MIN.ndjson [--profile-out repro.json] [--html FILE]` —
 * the smallest schedule that still shows the trace's rate-limit violation against the live target
 * (src/shrink/), measured `--times` times, written as a trace, a regression profile, a standalone bash +
 * curl script and an HTML page. Bounded by --max-requests, --max-time (the whole command, final
 * measurement included) and --max-wait; SIGINT keeps the best schedule found so far. The run itself is
 * src/run/shrink.ts: this file parses, calls, prints and exits.
 */
import { access, constants } from 'node:fs/promises';
import { dirname, resolve } from 'node:path';
import type { SpgateCommand } from '../command.js';
import { SpgateError } from '../../errors.js';
import { formatAnalysis } from '../../ratelimit/format.js';
import { formatFidelity } from '../../shrink/fidelity.js';
import { formatRate } from '../../shrink/acceptance.js';
import { scriptUsage } from '../../shrink/script-out.js';
import { describeSignature } from '../../shrink/signature.js';
import { abortOnSignals } from '../session.js';
import { targetOptions } from '../../run/target.js';
import { runShrink } from '../../run/shrink.js';
import { exitCode } from '../../run/exit-code.js';

function positive(args: Record<string, unknown>, name: string, flag: string, integer = false): number {
  const v = Number(args[name]);
  if (!(v > 0) || !Number.isFinite(v) || (integer && !Number.isInteger(v)))
    throw new SpgateError('SPGATE_ERR_USAGE', `${flag} must be a positive ${integer ? 'whole ' : ''}number`);
  return v;
}

/** Fails before anything is sent when an output's directory cannot be written. */
async function writable(path: string, flag: string): Promise<void> {
  try {
    await access(dirname(resolve(path)), constants.W_OK);
  } catch (cause) {
    throw new SpgateError('SPGATE_ERR_FILE_NOT_FOUND', `${flag} ${path}: its directory does not exist or cannot be written`, { cause });
  }
}

/** A shell word, quoted only when it needs to be. */
function sh(word: string): string {
  return /^[A-Za-z0-9_@%+=:,./-]+$/.test(word) ? word : `'${word.replace(/'/g, `'\\''`)}'`;
}

export const shrinkCommand: SpgateCommand = {
  command: 'shrink <trace>',
  describe: "find the smallest request schedule that still shows a trace's rate-limit violation against the live target",
  builder: (y) =>
    y
      .example(
        '$0 shrink burst.ndjson --target t.json --trace-out min.ndjson --profile-out repro.json',
        'the smallest schedule that still shows the violation, as a profile',
      )
      .positional('trace', {
        type: 'string',
        describe: 'NDJSON trace (from --trace) or a .har file showing the violation',
        demandOption: true,
      })
      .option('target', { type: 'string', describe: 'target file (default: the embedded reference server)' })
      .option('base-url', { type: 'string', describe: "override the target's base URL (needs --target)" })
      .option('trace-out', {
        type: 'string',
        demandOption: true,
        describe: 'write the minimal schedule (its last reproducing attempt) as an NDJSON trace',
      })
      .option('profile-out', {
        type: 'string',
        describe: 'write the minimal schedule as a regression profile (fails while the bug is there)',
      })
      .option('html', { type: 'string', describe: 'write the shrink page (minimal beside original timeline); default: beside --trace-out' })
      .option('json', { type: 'string', describe: 'write the shrink outcome as JSON to FILE' })
      .option('rule', { type: 'string', describe: "the violation to keep (rule id; default: the trace's first)" })
      .option('script-out', {
        type: 'string',
        describe: 'write the minimal schedule as a standalone bash + curl script (keys from environment variables)',
      })
      .option('attempts', {
        type: 'number',
        default: 3,
        describe: "attempts that measure the original's reproduction rate; each smaller schedule is held to it by a sequential test",
      })
      .option('times', { type: 'number', default: 10, describe: 'attempts of the final measurement of the minimal schedule' })
      .option('max-requests', {
        type: 'number',
        default: 20000,
        describe: 'requests the search may send in all (--max-time is the bound that usually stops it)',
      })
      .option('max-time', {
        type: 'number',
        default: 600,
        describe: 'seconds the whole command may take, final measurement included (the best schedule so far is kept)',
      })
      .option('max-wait', { type: 'number', default: 60, describe: 'the longest wait for a budget to be full again, seconds' })
      .option('max-duration', { type: 'number', default: 60, describe: 'refuse traces longer than this many seconds' })
      .option('key-role', { type: 'string', default: 'admin', describe: 'HAR: the key role of its first API key' }),
  run: async (args) => {
    const attempts = positive(args, 'attempts', '--attempts', true);
    const times = positive(args, 'times', '--times', true);
    const maxRequests = positive(args, 'maxRequests', '--max-requests', true);
    const maxTime = positive(args, 'maxTime', '--max-time');
    const maxWait = positive(args, 'maxWait', '--max-wait');
    const maxDuration = positive(args, 'maxDuration', '--max-duration');
    if (args.baseUrl !== undefined && typeof args.target !== 'string')
      throw new SpgateError('SPGATE_ERR_USAGE', '--base-url needs --target (the keys and fixture ids come from the target file)');
    const traceOut = String(args.traceOut);
    const htmlOut = typeof args.html === 'string' ? args.html : traceOut.replace(/\.ndjson$/i, '') + '.html';
    const outputs: Array<[string, string]> = [
      [traceOut, '--trace-out'],
      [htmlOut, '--html'],
    ];
    if (typeof args.profileOut === 'string') outputs.push([args.profileOut, '--profile-out']);
    if (typeof args.json === 'string') outputs.push([args.json, '--json']);
    if (typeof args.scriptOut === 'string') outputs.push([args.scriptOut, '--script-out']);
    for (const [p, flag] of outputs) await writable(p, flag);

    const abort = abortOnSignals(() =>
      process.stderr.write('interrupted: keeping the best schedule so far (Ctrl-C again to quit at once)\n'),
    );
    let end;
    try {
      end = await runShrink({
        input: String(args.trace),
        keyRole: String(args.keyRole ?? 'admin'),
        rule: typeof args.rule === 'string' ? args.rule : undefined,
        target: targetOptions(args),
        traceOut,
        htmlOut,
        profileOut: typeof args.profileOut === 'string' ? args.profileOut : undefined,
        json: typeof args.json === 'string' ? args.json : undefined,
        scriptOut: typeof args.scriptOut === 'string' ? args.scriptOut : undefined,
        attempts,
        times,
        maxRequests,
        maxTime,
        maxWait,
        maxDuration,
        signal: abort.signal,
        note: (line) => process.stderr.write(`${line}\n`),
      });
    } finally {
      abort.dispose();
    }
    const { target, signature, search, best, final, rate, minimalAnalysis, summary, seconds } = end;
    const out = process.stdout;
    const stoppedWhy = {
      done: 'every step tried',
      requests: '--max-requests reached',
      time: '--max-time reached',
      interrupted: 'interrupted',
    }[summary.stopped];
    out.write(
      `Shrunk ${search.original.schedule.length} requests (${(summary.original.spanMs / 1000).toFixed(2)} s) to ${best.schedule.length} (${(summary.minimal.spanMs / 1000).toFixed(2)} s) showing ${describeSignature(signature)}; ${stoppedWhy}; ${search.sent} requests sent in ${seconds.toFixed(1)} s.\n`,
    );
    out.write(
      `original reproduced ${formatRate(search.original.rate)}; minimal reproduced ${formatRate(rate)}${final.rate.attempts > 0 ? (final.cut ? ` (the final measurement was cut at --max-time after ${final.rate.attempts} of ${times})` : '') : ' (during the search; the final measurement was interrupted)'}\n`,
    );
    if (final.errors.length > 0) out.write(formatFidelity(summary.fidelity) + '\n');
    out.write('\n' + formatAnalysis(minimalAnalysis));
    const targetArgs =
      typeof args.target === 'string'
        ? ` --target ${sh(args.target)}${typeof args.baseUrl === 'string' ? ` --base-url ${sh(args.baseUrl)}` : ''}`
        : '';
    const written = [traceOut, htmlOut, args.profileOut, args.json, args.scriptOut].filter((x): x is string => typeof x === 'string');
    out.write(`\nWritten: ${written.join(', ')}\n`);
    out.write(`Re-run: spgate replay ${sh(traceOut)}${targetArgs} --times ${times}${signature.rule ? ` --rule ${signature.rule}` : ''}\n`);
    if (typeof args.profileOut === 'string') out.write(`Regression check: spgate load --profile ${sh(args.profileOut)}${targetArgs}\n`);
    if (typeof args.scriptOut === 'string') out.write(`Without spgate: ${scriptUsage(target, best.schedule)} bash ${sh(args.scriptOut)}\n`);
    // The violation reproduced is a finding (1); interrupted, the best schedule so far was kept (3).
    return exitCode({ verdict: end.interrupted ? 'aborted' : 'failed' }, { renderCode: 0 });
  },
};
