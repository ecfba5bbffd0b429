/**
 * The final measurement of a shrink, apart from any I/O: the best schedule is replayed `times` times; one
 * that proves to reproduce less often than the original did (a bug kept on a few lucky attempts) is
 * dropped for the schedule kept before it. The search's time reserve holds the best and the two kept before
 * it (FINAL_LEVELS), so two drops in a row still step back one level at a time. After three, the search's
 * last keeps were a run of lucky ones (they came in runs while the acceptance rule was looser: a store per
 * replica kept 40, 30, 25, 20 and 15 requests on four reproductions each, and each then reproduced 8 in 10
 * or less), so the measurement jumps halfway back to the original rather than spending up to `times`
 * attempts on each of them (that run was cut by --max-time six attempts into the 80-request schedule).
 * Halfway after two drops was too far once keeps needed seven reproductions: a store per replica dropped 20
 * (2 of 4) and 30 (7 of 9) and jumped to 60 requests, where the 40 kept before 30 would likely have held;
 * and while the clock allows a whole measurement of the next level (`fits`), even a third drop steps back
 * one level (CI: 25, 30 and 40 dropped at 2/4, 2/4 and 6/8, then the jump skipped the 60 kept before them
 * for 80, half the original, with 89 s of --max-time left). A schedule is dropped as soon as its misses
 * leave it no way to reach the original's rate; the original, the last resort, is measured in full, its own
 * rate estimate counted in: those attempts were not picked for their luck (the original is the user's
 * trace, not a schedule kept on a few reproductions), so they are a fresh measurement as much as any, and a
 * back-off to it costs `times` less those attempts (CI: @fastify/rate-limit per replica kept 62 requests on
 * 4 of 4, dropped it at 5 of 7, and --max-time cut the original's ten at nine).
 * Stops, keeping what it has, at the deadline or an interrupt.
 */
import { asOftenAs, type Rate } from './search.js';

export interface FinalOptions<A> {
  /** The schedules kept by the search, the original first and the best last. */
  kept: readonly unknown[];
  /** The original's rate, which the final one must match (asOftenAs); its attempts count toward the original's final rate. */
  original: Rate;
  times: number;
  /** One attempt of kept[index]: whether it showed the violation; undefined when interrupted. */
  attempt(index: number): Promise<{ shows: boolean; outcome: A; sendErrors: readonly number[] } | undefined>;
  /** True once no attempt may start (--max-time). */
  pastDeadline(): boolean;
  /**
   * Whether the clock still allows a whole measurement of kept[index] and then of the original's rest
   * (should kept[index] be dropped too): past the reserve's levels, the back-off then still steps one level
   * at a time instead of jumping halfway. Absent: never.
   */
  fits?(index: number): boolean;
  /** A kept schedule dropped, with the rate that dropped it, for kept[next]. */
  onDrop?(index: number, rate: Rate, next: number): void;
}

export interface Final<A> {
  /** Index into kept of the schedule handed over. */
  index: number;
  rate: Rate;
  /** The last attempt that showed the violation. */
  last?: A;
  errors: number[];
  /** The deadline stopped the measurement before `times` attempts. */
  cut?: boolean;
  interrupted?: boolean;
}

/** Measures the best schedule, backing off along `kept` while one reproduces less often than the original. */
export async function measureFinal<A>(o: FinalOptions<A>): Promise<Final<A>> {
  let final: Final<A> = { index: o.kept.length - 1, rate: { reproduced: 0, attempts: 0 }, errors: [] };
  let drops = 0;
  for (let i = o.kept.length - 1; i >= 0; ) {
    // The original starts from its estimate (capped at `times`); the search's keeps from nothing.
    const prior = i === 0 ? priorOf(o.original, o.times) : { reproduced: 0, attempts: 0 };
    final = { index: i, rate: prior, errors: [] };
    for (let k = prior.attempts; k < o.times; k++) {
      if (o.pastDeadline()) {
        final.cut = true;
        break;
      }
      const a = await o.attempt(i);
      if (!a) {
        final.interrupted = true;
        break;
      }
      final.errors.push(...a.sendErrors);
      final.rate.attempts += 1;
      if (a.shows) {
        final.rate.reproduced += 1;
        final.last = a.outcome;
      }
      const atBest = { reproduced: final.rate.reproduced + o.times - final.rate.attempts, attempts: o.times };
      if (i > 0 && !asOftenAs(atBest, o.original)) break;
    }
    if (final.interrupted || final.cut || asOftenAs(final.rate, o.original) || i === 0) break;
    drops += 1;
    // One level back, then halfway to the original once three were dropped in a row, unless the clock still
    // allows the next level in full.
    const next = drops < FINAL_LEVELS || o.fits?.(i - 1) ? i - 1 : Math.floor(i / 2);
    o.onDrop?.(i, final.rate, next);
    i = next;
  }
  return final;
}

/** The original's estimate as the start of its final measurement: at most `times` attempts of it. */
function priorOf(original: Rate, times: number): Rate {
  const attempts = Math.min(original.attempts, times);
  return { reproduced: Math.min(original.reproduced, attempts), attempts };
}

/**
 * Schedules a final measurement may have to measure in full: the best, and the two kept before it should
 * the best and the next prove less reliable. Marginal schedules kept on a few lucky attempts tend to come
 * in runs at the end of a search (a store per replica behind a random balancer dropped 18 → 20 → 29), and
 * with two in the reserve the third was cut at 5 of 10 on a loaded machine.
 */
export const FINAL_LEVELS = 3;

/**
 * Time to keep for the final measurement, ms: `times` attempts of each of the last FINAL_LEVELS kept
 * schedules, each priced at the longest attempt of it seen (`keptMs`, the original first); the original's
 * less the `originalAttempts` its estimate already made (measureFinal counts them in).
 */
export function finalReserveMs(keptMs: readonly number[], times: number, originalAttempts = 0): number {
  const from = Math.max(0, keptMs.length - FINAL_LEVELS);
  let ms = 0;
  for (let i = from; i < keptMs.length; i++) ms += (i === 0 ? Math.max(0, times - originalAttempts) : times) * keptMs[i]!;
  return ms;
}
