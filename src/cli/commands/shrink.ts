/**
 * `spgate shrink TRACE --target FILE --trace-out MIN.ndjson [--profile-out repro.json] [--html FILE]` —
 * the smallest schedule that still shows the trace's rate-limit violation against the live target
 * (src/shrink/), measured `--times` times, written as a trace, a regression profile, a standalone bash +
 * curl script and an HTML page. Bounded by --max-requests, --max-time (the whole command, final
 * measurement included) and --max-wait; SIGINT keeps the best schedule found so far.
 */
import { access, constants, mkdir, rename, writeFile } from 'node:fs/promises';
import { dirname, resolve } from 'node:path';
import type { SpgateCommand } from '../command.js';
import { SpgateError } from '../../errors.js';
import { createClient } from '../../client/client.js';
import { analyzeRateLimits } from '../../ratelimit/analyze.js';
import { formatAnalysis } from '../../ratelimit/format.js';
import { renderShrinkPage } from '../../report/shrink-page.js';
import { createAttemptRunner, type Attempt } from '../../shrink/attempts.js';
import { traceChartInput } from '../../shrink/chart-input.js';
import { fidelityOf, formatFidelity } from '../../shrink/fidelity.js';
import { scheduleProfile } from '../../shrink/profile-out.js';
import { scheduleOf, spanMs } from '../../shrink/schedule.js';
import { fullAgainAt, msResetBudgets } from '../../shrink/budget-wait.js';
import { asOftenAs, searchMinimal, type SearchResult } from '../../shrink/search.js';
import { formatRate, wilson } from '../../shrink/acceptance.js';
import { reproductionScript, scriptUsage } from '../../shrink/script-out.js';
import { describeSignature, pickSignature, shows } from '../../shrink/signature.js';
import { clientTimeouts } from '../../target/timeouts.js';
import { readTraceInput } from '../../trace/input.js';
import type { TraceRecord } from '../../trace/record.js';
import { traceToSamples } from '../../trace/samples.js';
import { sanitizeRecord } from '../../trace/sanitize.js';
import { abortOnSignals } from '../session.js';
import { openTarget, targetOptions } from '../../run/target.js';
import { checkReplayBounds } from './replay.js';

/** Copies of the minimal schedule in the regression profile. */
const PROFILE_COPIES = 3;

function positive(args: Record<string, unknown>, name: string, flag: string, integer = false): number {
  const v = Number(args[name]);
  if (!(v > 0) || !Number.isFinite(v) || (integer && !Number.isInteger(v))) throw new SpgateError('SPGATE_ERR_USAGE', `${flag} must be a positive ${integer ? 'whole ' : ''}number`);
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

/** Writes beside the destination, then renames: a file is there whole or not at all. */
async function writeWhole(path: string, text: string): Promise<void> {
  const tmp = `${path}.${process.pid}.tmp`;
  try {
    await mkdir(dirname(resolve(path)), { recursive: true });
    await writeFile(tmp, text);
    await rename(tmp, path);
  } catch (cause) {
    throw new SpgateError('SPGATE_ERR_FILE_NOT_FOUND', `cannot write ${path}`, { cause });
  }
}

/** A shell word, quoted only when it needs to be. */
function sh(word: string): string {
  return /^[A-Za-z0-9_@%+=:,./-]+$/.test(word) ? word : `'${word.replace(/'/g, `'\\''`)}'`;
}

export const shrinkCommand: SpgateCommand = {
  command: 'shrink <trace>',
  describe: 'find the smallest request schedule that still shows a trace\'s rate-limit violation against the live target',
  builder: (y) =>
    y
      .example("$0 shrink burst.ndjson --target t.json --trace-out min.ndjson --profile-out repro.json", "the smallest schedule that still shows the violation, as a profile")
      .positional('trace', { type: 'string', describe: 'NDJSON trace (from --trace) or a .har file showing the violation', demandOption: true })
      .option('target', { type: 'string', describe: 'target file (default: the embedded reference server)' })
      .option('base-url', { type: 'string', describe: "override the target's base URL (needs --target)" })
      .option('trace-out', { type: 'string', demandOption: true, describe: 'write the minimal schedule (its last reproducing attempt) as an NDJSON trace' })
      .option('profile-out', { type: 'string', describe: 'write the minimal schedule as a regression profile (fails while the bug is there)' })
      .option('html', { type: 'string', describe: 'write the shrink page (minimal beside original timeline); default: beside --trace-out' })
      .option('json', { type: 'string', describe: 'write the shrink outcome as JSON to FILE' })
      .option('rule', { type: 'string', describe: "the violation to keep (rule id; default: the trace's first)" })
      .option('script-out', { type: 'string', describe: 'write the minimal schedule as a standalone bash + curl script (keys from environment variables)' })
      .option('attempts', { type: 'number', default: 3, describe: "attempts that measure the original's reproduction rate; each smaller schedule is held to it by a sequential test" })
      .option('times', { type: 'number', default: 10, describe: 'attempts of the final measurement of the minimal schedule' })
      .option('max-requests', { type: 'number', default: 20000, describe: 'requests the search may send in all (--max-time is the bound that usually stops it)' })
      .option('max-time', { type: 'number', default: 600, describe: 'seconds the whole command may take, final measurement included (the best schedule so far is kept)' })
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
    if (args.baseUrl !== undefined && typeof args.target !== 'string') throw new SpgateError('SPGATE_ERR_USAGE', '--base-url needs --target (the keys and fixture ids come from the target file)');
    const traceOut = String(args.traceOut);
    const htmlOut = typeof args.html === 'string' ? args.html : traceOut.replace(/\.ndjson$/i, '') + '.html';
    const outputs: Array<[string, string]> = [[traceOut, '--trace-out'], [htmlOut, '--html']];
    if (typeof args.profileOut === 'string') outputs.push([args.profileOut, '--profile-out']);
    if (typeof args.json === 'string') outputs.push([args.json, '--json']);
    if (typeof args.scriptOut === 'string') outputs.push([args.scriptOut, '--script-out']);
    for (const [p, flag] of outputs) await writable(p, flag);

    const input = String(args.trace);
    const { records } = await readTraceInput(input, { keyRole: String(args.keyRole ?? 'admin') });
    const before = analyzeRateLimits(traceToSamples(records));
    const { signature } = pickSignature(before, typeof args.rule === 'string' ? args.rule : undefined, input);

    const budget = (cls: 'read' | 'write') => before.classes.find((c) => c.class === cls)?.observedLimit ?? undefined;
    const windowSeconds = before.classes.map((c) => c.windowSeconds).find((w): w is number => w !== null && Number.isInteger(w) && w > 0);
    const opened = await openTarget(targetOptions(args, { server: { budgets: { read: budget('read'), write: budget('write'), windowSeconds } } }));
    const abort = abortOnSignals(() => process.stderr.write('interrupted: keeping the best schedule so far (Ctrl-C again to quit at once)\n'));
    const started = performance.now();
    try {
      const target = opened.target;
      checkReplayBounds(records, target, 1, maxDuration);
      const client = createClient({ baseUrl: target.baseUrl, secrets: target.secrets, tls: target.tls, ...clientTimeouts(target) });
      let search: SearchResult;
      let chosen: SearchResult['best'] | undefined;
      let final: { rate: { reproduced: number; attempts: number }; last?: Attempt; errors: number[]; cut?: boolean } = { rate: { reproduced: 0, attempts: 0 }, errors: [] };
      // --max-time bounds the whole command: the search stops early enough for the final measurement of
      // its best schedule, priced at what one attempt of that schedule took (its wait for a budget included).
      const end = started + maxTime * 1000;
      let lastAttemptMs = 0;
      let bestAttemptMs = 0;
      const reserve = () => times * bestAttemptMs;
      try {
        const runner = createAttemptRunner({ client, target, maxWaitMs: maxWait * 1000, signal: abort.signal, known: records });
        const original = scheduleOf(records);
        process.stderr.write(`shrinking ${original.length} requests showing ${describeSignature(signature)} against ${target.baseUrl}\n`);
        search = await searchMinimal({
          schedule: original, signature, attempts, maxRequests, deadline: () => end - reserve(), signal: abort.signal,
          attempt: async (s) => {
            const t0 = performance.now();
            const a = await runner.run(s);
            lastAttemptMs = performance.now() - t0;
            if (bestAttemptMs === 0) bestAttemptMs = lastAttemptMs;
            return a;
          },
          onStep: (line, best) => {
            if (line.startsWith('kept')) bestAttemptMs = lastAttemptMs;
            const left = Math.max(0, (end - performance.now()) / 1000);
            process.stderr.write(`  [best ${best.schedule.length} requests, ${left.toFixed(0)} s left] ${line}\n`);
          },
        });
        // The final rate, over --times attempts of the minimal schedule (skipped once interrupted). A
        // schedule that proves to reproduce less often than the original did (a window-phase bug kept by
        // luck in a few attempts) is dropped for the one kept before it.
        for (let i = search.kept.length - 1; i >= 0 && !abort.signal.aborted; i--) {
          const cand = search.kept[i]!;
          final = { rate: { reproduced: 0, attempts: 0 }, errors: [] };
          for (let k = 0; k < times && !abort.signal.aborted; k++) {
            if (performance.now() > end) {
              final.cut = true;
              break;
            }
            let a: Attempt;
            try {
              a = await runner.run(cand.schedule);
            } catch (err) {
              if (err instanceof SpgateError && err.code === 'SPGATE_ERR_ABORTED') break;
              throw err;
            }
            final.errors.push(...a.sendErrors);
            final.rate.attempts += 1;
            if (shows(a.analysis, signature)) {
              final.rate.reproduced += 1;
              final.last = a;
            }
          }
          chosen = cand;
          if (abort.signal.aborted || final.cut || asOftenAs(final.rate, search.original.rate) || i === 0) break;
          process.stderr.write(`  the ${cand.schedule.length}-request schedule reproduced ${final.rate.reproduced}/${final.rate.attempts}, less often than the original: back to the ${search.kept[i - 1]!.schedule.length}-request one\n`);
        }
      } finally {
        await client.close();
      }
      const interrupted = abort.signal.aborted;
      if (!interrupted && final.rate.reproduced === 0) {
        throw new SpgateError('SPGATE_ERR_NOT_REPRODUCED', `the schedule stopped reproducing: ${(chosen ?? search.best).schedule.length} requests, 0/${final.rate.attempts} in the final measurement (${(chosen ?? search.best).rate.reproduced}/${(chosen ?? search.best).rate.attempts} during the search); nothing written`);
      }
      const best = chosen ?? search.best;
      const minimal: TraceRecord[] = final.last?.records ?? best.records;
      const minimalAnalysis = final.last?.analysis ?? best.analysis;
      const rate = final.rate.attempts > 0 ? final.rate : best.rate;
      const seconds = (performance.now() - started) / 1000;

      // Outputs, each whole or not at all.
      await writeWhole(traceOut, minimal.map((r) => JSON.stringify(sanitizeRecord(r))).join('\n') + '\n');
      if (typeof args.profileOut === 'string') {
        // Three copies, each after the wait for a full budget the minimal trace's headers claim (plus a second).
        const full = fullAgainAt(minimal, new Set([...msResetBudgets(records), ...msResetBudgets(minimal)]));
        const t0 = minimal.reduce((m, r) => Math.min(m, r.t), Infinity);
        const periodMs = Math.ceil((full.atMs !== null ? full.atMs - t0 : spanMs(best.schedule) + 1000) + 1000);
        const profile = scheduleProfile(best.schedule, signature, `repro-${signature.rule.replace(/^8\.ratelimit\./, '')}-${signature.class ?? 'all'}`, { times: PROFILE_COPIES, periodMs });
        await writeWhole(args.profileOut, JSON.stringify(profile, null, 2) + '\n');
      }
      const summary = {
        violation: signature,
        original: { requests: search.original.schedule.length, spanMs: spanMs(search.original.schedule), rate: search.original.rate, interval: wilson(search.original.rate) },
        minimal: { requests: best.schedule.length, spanMs: spanMs(best.schedule), rate, interval: wilson(rate), searchRate: best.rate, ...(final.cut ? { cutByMaxTime: true } : {}) },
        fidelity: fidelityOf(final.errors),
        steps: search.steps,
        stopped: interrupted ? 'interrupted' : search.stopped,
        requestsSent: search.sent,
        seconds: Math.round(seconds * 10) / 10,
      };
      await writeWhole(htmlOut, renderShrinkPage({
        title: describeSignature(signature),
        original: traceChartInput('original', search.original.records, search.original.analysis),
        minimal: traceChartInput('minimal', minimal, minimalAnalysis),
        minimalAnalysis,
        originalRequests: search.original.schedule.length,
        minimalRequests: best.schedule.length,
        originalRate: search.original.rate,
        rate,
        steps: search.steps,
      }));
      if (typeof args.json === 'string') await writeWhole(args.json, JSON.stringify(summary, null, 2) + '\n');
      if (typeof args.scriptOut === 'string') {
        await writeWhole(args.scriptOut, reproductionScript({ schedule: best.schedule, target, signature, analysis: minimalAnalysis, rate }));
      }

      const out = process.stdout;
      const stoppedWhy = { done: 'every step tried', requests: '--max-requests reached', time: '--max-time reached', interrupted: 'interrupted' }[summary.stopped];
      out.write(`Shrunk ${search.original.schedule.length} requests (${(summary.original.spanMs / 1000).toFixed(2)} s) to ${best.schedule.length} (${(summary.minimal.spanMs / 1000).toFixed(2)} s) showing ${describeSignature(signature)}; ${stoppedWhy}; ${search.sent} requests sent in ${seconds.toFixed(1)} s.\n`);
      out.write(`original reproduced ${formatRate(search.original.rate)}; minimal reproduced ${formatRate(rate)}${final.rate.attempts > 0 ? (final.cut ? ` (the final measurement was cut at --max-time after ${final.rate.attempts} of ${times})` : '') : ' (during the search; the final measurement was interrupted)'}\n`);
      if (final.errors.length > 0) out.write(formatFidelity(summary.fidelity) + '\n');
      out.write('\n' + formatAnalysis(minimalAnalysis));
      const targetArgs = typeof args.target === 'string' ? ` --target ${sh(args.target)}${typeof args.baseUrl === 'string' ? ` --base-url ${sh(args.baseUrl)}` : ''}` : '';
      const written = [traceOut, htmlOut, args.profileOut, args.json, args.scriptOut].filter((x): x is string => typeof x === 'string');
      out.write(`\nWritten: ${written.join(', ')}\n`);
      out.write(`Re-run: spgate replay ${sh(traceOut)}${targetArgs} --times ${times}${signature.rule ? ` --rule ${signature.rule}` : ''}\n`);
      if (typeof args.profileOut === 'string') out.write(`Regression check: spgate load --profile ${sh(args.profileOut)}${targetArgs}\n`);
      if (typeof args.scriptOut === 'string') out.write(`Without spgate: ${scriptUsage(target, best.schedule)} bash ${sh(args.scriptOut)}\n`);
      return interrupted ? 3 : 1;
    } finally {
      abort.dispose();
      await opened.close();
    }
  },
};
