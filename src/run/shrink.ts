/**
 * The run of `spgate shrink`, below the CLI (which parses, calls, prints and exits): the smallest schedule
 * that still shows the trace's rate-limit violation against the live target (src/shrink/), measured
 * `times` times, written as a trace, a regression profile, a standalone bash + curl script and an HTML
 * page, each whole or not at all. Bounded by maxRequests, maxTime (the whole run, final measurement
 * included) and maxWait; an abort keeps the best schedule found so far.
 */
import { mkdir, rename, writeFile } from 'node:fs/promises';
import { dirname, resolve } from 'node:path';
import { SpgateError } from '../errors.js';
import { createClient } from '../client/client.js';
import { analyzeRateLimits } from '../ratelimit/analyze.js';
import { renderShrinkPage } from '../report/shrink-page.js';
import type { RateLimitAnalysis } from '../results/schema.js';
import { createAttemptRunner, type Attempt } from '../shrink/attempts.js';
import { traceChartInput } from '../shrink/chart-input.js';
import { fidelityOf } from '../shrink/fidelity.js';
import { scheduleProfile } from '../shrink/profile-out.js';
import { scheduleOf, spanMs } from '../shrink/schedule.js';
import { fullAgainAt, msResetBudgets } from '../shrink/budget-wait.js';
import { searchMinimal, type SearchResult } from '../shrink/search.js';
import { finalReserveMs, measureFinal } from '../shrink/final.js';
import { wilson } from '../shrink/acceptance.js';
import { reproductionScript } from '../shrink/script-out.js';
import { describeSignature, pickSignature, shows, type ViolationSignature } from '../shrink/signature.js';
import type { Target } from '../target/schema.js';
import { clientTimeouts } from '../target/timeouts.js';
import { readTraceInput } from '../trace/input.js';
import type { TraceRecord } from '../trace/record.js';
import { traceToSamples } from '../trace/samples.js';
import { sanitizeRecord } from '../trace/sanitize.js';
import { checkReplayBounds } from './replay.js';
import { openTarget, type TargetOptions } from './target.js';

/** Copies of the minimal schedule in the regression profile. */
const PROFILE_COPIES = 3;

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

export interface ShrinkRunOptions {
  /** The trace (NDJSON or HAR) showing the violation. */
  input: string;
  /** HAR: the key role of its first API key. */
  keyRole: string;
  /** The violation to keep (rule id; default: the trace's first). */
  rule?: string | undefined;
  /** --target / --base-url (the embedded server's budgets are set here, from the trace). */
  target: Omit<TargetOptions, 'server'>;
  traceOut: string;
  htmlOut: string;
  profileOut?: string | undefined;
  json?: string | undefined;
  scriptOut?: string | undefined;
  attempts: number;
  times: number;
  maxRequests: number;
  maxTime: number;
  maxWait: number;
  maxDuration: number;
  signal: AbortSignal;
  /** A progress line for stderr. */
  note(line: string): void;
}

/** How a shrink ended: what the CLI prints of it (every output is written by then). */
export interface ShrinkEnd {
  target: Target;
  signature: ViolationSignature;
  search: SearchResult;
  best: SearchResult['best'];
  /** The final measurement: reproductions over attempts, send errors, whether --max-time cut it. */
  final: { rate: { reproduced: number; attempts: number }; errors: number[]; cut?: boolean };
  rate: { reproduced: number; attempts: number };
  minimalAnalysis: RateLimitAnalysis;
  summary: {
    original: { spanMs: number };
    minimal: { spanMs: number };
    fidelity: ReturnType<typeof fidelityOf>;
    stopped: 'done' | 'requests' | 'time' | 'interrupted';
  };
  seconds: number;
  interrupted: boolean;
}

/** Shrinks the trace's schedule against the target (opened and closed here) and writes every output. */
export async function runShrink(o: ShrinkRunOptions): Promise<ShrinkEnd> {
  const { records } = await readTraceInput(o.input, { keyRole: o.keyRole });
  const before = analyzeRateLimits(traceToSamples(records));
  const { signature } = pickSignature(before, o.rule, o.input);

  const budget = (cls: 'read' | 'write') => before.classes.find((c) => c.class === cls)?.observedLimit ?? undefined;
  const windowSeconds = before.classes.map((c) => c.windowSeconds).find((w): w is number => w !== null && Number.isInteger(w) && w > 0);
  const opened = await openTarget({ ...o.target, server: { budgets: { read: budget('read'), write: budget('write'), windowSeconds } } });
  const started = performance.now();
  try {
    const target = opened.target;
    checkReplayBounds(records, target, 1, o.maxDuration);
    const client = createClient({ baseUrl: target.baseUrl, secrets: target.secrets, tls: target.tls, ...clientTimeouts(target) });
    let search: SearchResult;
    let chosen: SearchResult['best'] | undefined;
    let final: { rate: { reproduced: number; attempts: number }; last?: Attempt; errors: number[]; cut?: boolean } = {
      rate: { reproduced: 0, attempts: 0 },
      errors: [],
    };
    // --max-time bounds the whole command: the search stops early enough for the final measurement of its
    // best schedule and of the two kept before it (should the best prove less reliable: it is dropped at its
    // first misses too many, src/shrink/final.ts), each priced at its longest attempt, its wait for a budget
    // included and its phase at the latest (the spread in force: none once the limiter's windows proved to
    // start with each attempt). While the original is measured, at its longest attempt so far.
    const end = started + o.maxTime * 1000;
    /** The longest attempt of each kept schedule, the original first, its phase left out; and of the schedule being judged. */
    const keptMs: number[] = [];
    let judgedMs = 0;
    /** The phase spread the next attempts wait at the latest (ms): the attempt runner's, once it exists. */
    let spreadMs = (): number => 0;
    const priced = (ms: readonly number[]): number[] => ms.map((x) => x + spreadMs());
    // The original's own estimate counts toward its final measurement (src/shrink/final.ts): its reserve is
    // for the rest of it; while it is measured, for all of it.
    const reserve = () =>
      keptMs.length > 0 ? finalReserveMs(priced(keptMs), o.times, o.attempts) : finalReserveMs(priced([judgedMs]), o.times);
    try {
      // Attempts start at phases spread over the violation's window (attempts.ts phaseAt), so the search's
      // acceptance and the final rate measure what a user re-running it at any moment would see. Only a
      // window the trace itself spans is trusted for that (a limiter whose Reset counts ms announces a
      // window a thousand times too long), and never beyond --max-wait.
      const own = before.classes.find((c) => c.class === signature.class && (signature.key === undefined || c.key === signature.key));
      const windowMs = (own?.windowSeconds ?? 0) * 1000;
      const phaseSpreadMs = windowMs > 0 && windowMs <= spanMs(scheduleOf(records)) && windowMs <= o.maxWait * 1000 ? windowMs : undefined;
      const runner = createAttemptRunner({
        client,
        target,
        maxWaitMs: o.maxWait * 1000,
        signal: o.signal,
        known: records,
        note: (line) => o.note(`  ${line}`),
        ...(phaseSpreadMs !== undefined ? { phaseSpreadMs } : {}),
      });
      spreadMs = () => runner.spreadMs();
      const original = scheduleOf(records);
      o.note(`shrinking ${original.length} requests showing ${describeSignature(signature)} against ${target.baseUrl}`);
      search = await searchMinimal({
        schedule: original,
        signature,
        attempts: o.attempts,
        maxRequests: o.maxRequests,
        deadline: () => end - reserve(),
        signal: o.signal,
        attempt: async (s) => {
          const t0 = performance.now();
          const a = await runner.run(s);
          judgedMs = Math.max(judgedMs, performance.now() - t0 - a.phaseMs);
          return a;
        },
        onStep: (line, best) => {
          if (line.startsWith('kept') || line.startsWith('original')) keptMs.push(judgedMs);
          judgedMs = 0;
          const left = Math.max(0, (end - performance.now()) / 1000);
          o.note(`  [best ${best.schedule.length} requests, ${left.toFixed(0)} s left] ${line}`);
        },
      });
      // The final rate, over --times attempts of the minimal schedule, backing off along the kept ones
      // while one reproduces less often than the original did (src/shrink/final.ts).
      if (!o.signal.aborted) {
        const kept = search.kept;
        const m = await measureFinal<Attempt>({
          kept,
          original: search.original.rate,
          times: o.times,
          pastDeadline: () => performance.now() > end,
          // A level measured whole at its longest attempt, and the original's rest after it.
          fits: (j) =>
            performance.now() +
              o.times * (priced(keptMs)[j] ?? Infinity) +
              (j > 0 ? finalReserveMs(priced(keptMs.slice(0, 1)), o.times, o.attempts) : 0) <=
            end,
          attempt: async (i) => {
            if (o.signal.aborted) return undefined;
            try {
              const a = await runner.run(kept[i]!.schedule);
              return { shows: shows(a.analysis, signature), outcome: a, sendErrors: a.sendErrors };
            } catch (err) {
              if (err instanceof SpgateError && err.code === 'SPGATE_ERR_ABORTED') return undefined;
              throw err;
            }
          },
          onDrop: (i, rate, next) =>
            o.note(
              `  the ${kept[i]!.schedule.length}-request schedule reproduced ${rate.reproduced}/${rate.attempts}, less often than the original can be: back to the ${kept[next]!.schedule.length}-request one${next < i - 1 ? ` (three drops in a row, and no time to measure each: halfway back to the original)` : ''}`,
            ),
        });
        chosen = kept[m.index];
        final = { rate: m.rate, errors: m.errors, ...(m.last ? { last: m.last } : {}), ...(m.cut ? { cut: true } : {}) };
      }
    } finally {
      await client.close();
    }
    const interrupted = o.signal.aborted;
    if (!interrupted && final.rate.reproduced === 0) {
      throw new SpgateError(
        'SPGATE_ERR_NOT_REPRODUCED',
        `the schedule stopped reproducing: ${(chosen ?? search.best).schedule.length} requests, 0/${final.rate.attempts} in the final measurement (${(chosen ?? search.best).rate.reproduced}/${(chosen ?? search.best).rate.attempts} during the search); nothing written`,
      );
    }
    const best = chosen ?? search.best;
    const minimal: TraceRecord[] = final.last?.records ?? best.records;
    const minimalAnalysis = final.last?.analysis ?? best.analysis;
    const rate = final.rate.attempts > 0 ? final.rate : best.rate;
    const seconds = (performance.now() - started) / 1000;

    // Outputs, each whole or not at all.
    await writeWhole(o.traceOut, minimal.map((r) => JSON.stringify(sanitizeRecord(r))).join('\n') + '\n');
    if (o.profileOut !== undefined) {
      // Three copies, each after the wait for a full budget the minimal trace's headers claim (plus a second).
      const full = fullAgainAt(minimal, new Set([...msResetBudgets(records), ...msResetBudgets(minimal)]));
      const t0 = minimal.reduce((m, r) => Math.min(m, r.t), Infinity);
      const periodMs = Math.ceil((full.atMs !== null ? full.atMs - t0 : spanMs(best.schedule) + 1000) + 1000);
      const profile = scheduleProfile(
        best.schedule,
        signature,
        `repro-${signature.rule.replace(/^8\.ratelimit\./, '')}-${signature.class ?? 'all'}`,
        { times: PROFILE_COPIES, periodMs },
      );
      await writeWhole(o.profileOut, JSON.stringify(profile, null, 2) + '\n');
    }
    const summary = {
      violation: signature,
      original: {
        requests: search.original.schedule.length,
        spanMs: spanMs(search.original.schedule),
        rate: search.original.rate,
        interval: wilson(search.original.rate),
      },
      minimal: {
        requests: best.schedule.length,
        spanMs: spanMs(best.schedule),
        rate,
        interval: wilson(rate),
        searchRate: best.rate,
        ...(final.cut ? { cutByMaxTime: true } : {}),
      },
      fidelity: fidelityOf(final.errors),
      steps: search.steps,
      stopped: interrupted ? 'interrupted' : search.stopped,
      requestsSent: search.sent,
      seconds: Math.round(seconds * 10) / 10,
    };
    await writeWhole(
      o.htmlOut,
      renderShrinkPage({
        title: describeSignature(signature),
        original: traceChartInput('original', search.original.records, search.original.analysis),
        minimal: traceChartInput('minimal', minimal, minimalAnalysis),
        minimalAnalysis,
        originalRequests: search.original.schedule.length,
        minimalRequests: best.schedule.length,
        originalRate: search.original.rate,
        rate,
        steps: search.steps,
      }),
    );
    if (o.json !== undefined) await writeWhole(o.json, JSON.stringify(summary, null, 2) + '\n');
    if (o.scriptOut !== undefined) {
      await writeWhole(o.scriptOut, reproductionScript({ schedule: best.schedule, target, signature, analysis: minimalAnalysis, rate }));
    }

    return { target, signature, search, best, final, rate, minimalAnalysis, summary, seconds, interrupted };
  } finally {
    await opened.close();
  }
}
