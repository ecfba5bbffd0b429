/**
 * Runs a schedule against the live target as one attempt: wait until the budgets the last attempt on the same
 * keys used are full again (from its headers, see budget-wait.ts), replay, check the attempt really started
 * full (else wait and try again, three times at most), analyze. Where the target gives the schedule's roles
 * key pools, attempts take turns over the keys (key-slots.ts), so an attempt waits only for a budget its keys
 * spent. Shared by `spgate shrink` and `spgate replay --times`.
 */
import { sleepUnlessAborted } from '../sleep.js';
import type { HttpClient } from '../client/types.js';
import { SpgateError } from '../errors.js';
import { analyzeRateLimits } from '../ratelimit/analyze.js';
import type { RateLimitAnalysis } from '../results/schema.js';
import type { Target } from '../target/schema.js';
import type { TraceRecord } from '../trace/record.js';
import { replayTrace, roleFor } from '../trace/replay.js';
import { traceToSamples } from '../trace/samples.js';
import { fullAgainAt, msResetBudgets, notStartedFull, resetUnits } from './budget-wait.js';
import { keySlots } from './key-slots.js';
import { asRecords, type Send } from './schedule.js';
import { NO_WINDOW_STARTS, observeWindowStarts, windowsStartWithAttempts } from './window-starts.js';

/** Attempts that did not start from a full budget are repeated this often before giving up. */
const START_TRIES = 3;

export interface Attempt {
  records: TraceRecord[];
  analysis: RateLimitAnalysis;
  /** How late each request went out against its schedule (ms). */
  sendErrors: number[];
  /** Requests sent, including attempts repeated because the budget was not full. */
  sent: number;
  /** Ms spent waiting for the budget before this attempt (its phase part included). */
  waitedMs: number;
  /** The part of waitedMs spent reaching its phase of the window (phaseSpreadMs). */
  phaseMs: number;
}

export interface AttemptRunnerOptions {
  client: HttpClient;
  target: Target;
  /** The longest wait for a budget to be full again (ms). */
  maxWaitMs: number;
  signal?: AbortSignal;
  /** Records of the original trace: they tell whether a budget's Reset counts ms (then waits are read in ms). */
  known?: readonly TraceRecord[];
  /**
   * The window of the budget the attempts are about (ms): each attempt then starts a further part of it
   * after the budget is full, the parts spread evenly over the window (phaseAt), so attempts land at every
   * phase of a limiter's windows rather than just after one of its resets. Stops once the first answers show
   * windows that start with each attempt (window-starts.ts): then every phase is the same.
   */
  phaseSpreadMs?: number;
  /** A progress line: which keys the attempts take turns over, and when they stop (counts and names, never a key). */
  note?: (line: string) => void;
}

/**
 * Where in the window each attempt starts: the golden-ratio sequence, frac(n / φ), which covers [0, 1)
 * evenly for any number of attempts (0, 0.62, 0.24, 0.85, 0.47, …). An attempt that waits for the budget
 * starts just after a window refilled; a limiter whose windows run on its own clock (a store per replica,
 * each resetting on its own timer) shows a bug only at some phases of them, and back-to-back attempts at
 * one phase would all reproduce or all miss together: a smaller schedule kept on four lucky attempts then
 * reproduced 4/10 in the final measurement. Spread over the window, each attempt samples the phases as a
 * user running the reproduction at any moment would.
 */
export function phaseAt(n: number): number {
  return (n * 0.6180339887498949) % 1;
}

export interface AttemptRunner {
  run(schedule: readonly Send[]): Promise<Attempt>;
  /** The phase spread the next attempts wait (ms): phaseSpreadMs, or 0 once the windows start with each attempt (window-starts.ts). */
  spreadMs(): number;
}

/**
 * A runner that remembers, per key slot, when the budgets it used are full again; attempts are sequential,
 * each on the slot whose budgets are full soonest. Should an attempt on a fresh key not start full, the pool's
 * keys do not have budgets of their own (a limiter keyed by workspace or address): the turns stop, and every
 * later attempt waits for every budget the earlier ones spent.
 */
export function createAttemptRunner(opts: AttemptRunnerOptions): AttemptRunner {
  const msReset = opts.known ? msResetBudgets(opts.known) : new Set<string>();
  /** When each slot's budgets are full again (performance.now() ms), and what said so. */
  const fullAt = new Map<number, { at: number; what: string }>();
  let turns = true;
  let announced = false;
  let started = 0;
  let starts = NO_WINDOW_STARTS;
  let spread = opts.phaseSpreadMs ?? 0;

  /** The slot whose budgets are full soonest (a slot never used is full now); the lowest on a tie. */
  const pickSlot = (count: number): number => {
    let best = 0;
    for (let slot = 1; slot < count; slot++) if ((fullAt.get(slot)?.at ?? 0) < (fullAt.get(best)?.at ?? 0)) best = slot;
    return best;
  };

  const waitForBudget = async (slot: number): Promise<number> => {
    const full = fullAt.get(slot);
    if (!full) return 0;
    const wait = full.at - performance.now();
    if (wait <= 0) return 0;
    if (wait > opts.maxWaitMs) {
      throw new SpgateError(
        'SPGATE_ERR_BUDGET_NOT_REFILLED',
        `${full.what}: ${(wait / 1000).toFixed(1)} s away, beyond --max-wait ${opts.maxWaitMs / 1000} s`,
      );
    }
    await sleepUnlessAborted(wait, opts.signal);
    return wait;
  };

  /** The turns stop: slot 0 from now on, full once every budget any slot spent is. */
  const stopTurns = (why: string): void => {
    turns = false;
    let latest: { at: number; what: string } | undefined;
    for (const f of fullAt.values()) if (!latest || f.at > latest.at) latest = f;
    fullAt.clear();
    if (latest) fullAt.set(0, latest);
    opts.note?.(`${why}: the attempts no longer take turns over the pool's keys`);
  };

  return {
    spreadMs: () => spread,
    async run(schedule) {
      const slots = keySlots(
        opts.target,
        schedule.map((x) => roleFor(x.key, opts.target)),
      );
      if (!announced && turns && slots.count > 1) {
        opts.note?.(
          `the attempts take turns over the pool's keys (${slots.described}), each a budget of its own: none waits for the last one's`,
        );
      }
      announced = true;
      let sent = 0;
      let waitedMs = 0;
      let phaseMs = 0;
      for (let tries = 1; ; tries++) {
        const slot = turns ? pickSlot(slots.count) : 0;
        waitedMs += await waitForBudget(slot);
        if (spread > 0) {
          const extra = phaseAt(started++) * spread;
          await sleepUnlessAborted(extra, opts.signal);
          waitedMs += extra;
          phaseMs += extra;
        }
        if (opts.signal?.aborted) throw new SpgateError('SPGATE_ERR_ABORTED', 'interrupted while waiting for the budget');
        const fresh = turns && slot > 0 && !fullAt.has(slot);
        const out = await replayTrace(asRecords(schedule), {
          client: opts.client,
          target: opts.target,
          speed: 1,
          keyFor: (role) => slots.keyFor(slot, role),
          ...(opts.signal ? { signal: opts.signal } : {}),
        });
        sent += out.records.length;
        const answered = out.records.filter((r) => r.status > 0);
        if (out.records.length > 0 && answered.length === 0) {
          throw new SpgateError(
            'SPGATE_ERR_TARGET_UNREACHABLE',
            `${opts.target.baseUrl} answered none of ${out.records.length} requests (${out.records[0]!.error ?? 'no response'})`,
          );
        }
        // Reset's unit: what this attempt shows (three falls or more), else what the trace showed. When only
        // the trace said ms (the limiter may have been fixed since), the seconds reading is taken if it is
        // within --max-wait: waiting longer than needed is slow, never wrong.
        const units = resetUnits(out.records);
        for (const [b, unit] of units) {
          if (unit === 'ms') msReset.add(b);
          else msReset.delete(b);
        }
        const inSeconds = fullAgainAt(out.records);
        const shownMs = [...msReset].some((b) => units.get(b) === 'ms');
        const secondsFit = inSeconds.atMs !== null && out.originMs + inSeconds.atMs - performance.now() <= opts.maxWaitMs;
        const full = msReset.size === 0 || (!shownMs && secondsFit) ? inSeconds : fullAgainAt(out.records, msReset);
        if (full.atMs === null) {
          throw new SpgateError(
            'SPGATE_ERR_BUDGET_NOT_REFILLED',
            `the responses of ${full.unclaimed.join(', ')} carry neither RateLimit-Reset nor Retry-After: nothing says when the budget is full again`,
          );
        }
        const l = full.latest!;
        fullAt.set(slot, {
          at: out.originMs + full.atMs,
          what: `the ${l.budget} budget is full again ${l.claimSeconds} ${l.unit === 'ms' ? 'ms (Reset counts ms)' : 's'} after its last response`,
        });
        const notFull = notStartedFull(out.records);
        if (notFull.length > 0 && !opts.signal?.aborted) {
          if (fresh) stopTurns(`the ${notFull.join(' and ')} budget was not full on a key never used before`);
          if (tries < START_TRIES) continue;
          throw new SpgateError(
            'SPGATE_ERR_BUDGET_NOT_REFILLED',
            `the ${notFull.join(' and ')} budget was not full at the start of ${START_TRIES} attempts in a row, though each waited for the time its headers claimed`,
          );
        }
        if (spread > 0) {
          const windowSeconds = spread / 1000;
          starts = observeWindowStarts(starts, out.records, windowSeconds, msReset);
          if (windowsStartWithAttempts(starts, windowSeconds)) {
            spread = 0;
            opts.note?.(
              `the first answer of each of ${starts.own} attempts announced a whole window (RateLimit-Reset ${windowSeconds} s): ` +
                "the limiter's windows start with each attempt, so no attempt waits for a phase of them any more",
            );
          }
        }
        return {
          records: out.records,
          analysis: analyzeRateLimits(traceToSamples(out.records)),
          sendErrors: out.sendErrors,
          sent,
          waitedMs,
          phaseMs,
        };
      }
    },
  };
}
