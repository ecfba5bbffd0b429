/**
 * "RateLimit-Reset (seconds until the budget is full again)" judged by waiting it out: the part of
 * limits.remaining-decreases behind 8.ratelimit.reset-restores. Other clients on the same key spend the same
 * budget, and a token bucket refills over their requests between two probes, so one short probe tells a
 * limiter that gives back late from a burst of someone else's requests only in one case: nothing came back
 * at all. Otherwise the check probes again at the server's next claims with batches of its own requests of
 * different sizes. A limiter that keeps counting what it said it would forget is short at each claim by
 * exactly the check's previous batch (2, then 3); other traffic does not follow the check's own counts, so a
 * budget short by anything else leaves the check inconclusive, and one full at a claim passes.
 */
import type { Exchange } from '../../src/client/exchange.js';
import { abortableSleep } from '../../src/conformance/aborted.js';
import type { SuiteContext } from '../../src/conformance/suite.js';
import { describeAnswer, statusOf, type Recorder } from '../../src/conformance/recorder.js';
import { parseIntHeader } from '../../src/spec/headers.js';
import { foreignFall } from './rate-budgets.js';
import { cannotJudge } from './world.js';

/**
 * The longest RateLimit-Reset the check waits out: a minute's window and its rounding. A longer one is not
 * waited for, and the return of the budget is left unjudged (inconclusive).
 */
export const MAX_RESTORE_WAIT_S = 70;

/** Sizes of the batches sent at the server's later claims, after the first look's pair: each differs from the one before. */
const BATCHES = [3, 1] as const;

const REMEDY = 'run with an admin key no other client uses, or when its traffic is idle';
const SPENDS = 'other traffic on the key spends the same budget';

/** The budget an accepted answer announced. */
export interface Budget {
  limit: number;
  remaining: number;
  reset: number;
}

/** The budget of an answer below 429 with readable Limit, Remaining and Reset; undefined otherwise. */
export function budgetOf(x: Exchange): Budget | undefined {
  const s = statusOf(x);
  if (!x.response || s === undefined || s === 429 || s >= 500) return undefined;
  const [limit, remaining, reset] = ['RateLimit-Limit', 'RateLimit-Remaining', 'RateLimit-Reset'].map((h) =>
    parseIntHeader(x.response!.headers, h),
  );
  return limit!.ok && remaining!.ok && reset!.ok ? { limit: limit!.value, remaining: remaining!.value, reset: reset!.value } : undefined;
}

/** Requests counted in the budget besides the answer's own: 0 when the budget was full before it. */
export function shortBy(b: Budget): number {
  return b.limit - 1 - b.remaining;
}

/** What a look at the budget after a claim shows (readLook). */
export type Look = { kind: 'full' | 'own' | 'other' } | { kind: 'foreign'; fall: string };

/**
 * What a look at the budget after a claim shows: `full` (the claim held), `foreign` (Remaining fell by more
 * than the check's own requests between its back-to-back answers), `own` (short by exactly the check's
 * previous batch: what the claim said would be forgotten is still counted) or `other` (short by another
 * count, which other traffic on the key explains as well as a late restore).
 */
export function readLook(look: readonly Exchange[], previousBatch: number): Look {
  const b = budgetOf(look[0]!)!;
  if (shortBy(b) <= 0) return { kind: 'full' };
  const fall = foreignFall(look);
  if (fall) return { kind: 'foreign', fall };
  return { kind: shortBy(b) === previousBatch ? 'own' : 'other' };
}

/** Inconclusive: an answer whose budget could not be read. */
function unreadable(t: Recorder, when: string, x: Exchange): void {
  cannotJudge(t, `the answer ${when} showed no readable budget (${describeAnswer(x)})`);
}

/** Waits `seconds` + 1 (Reset is rounded either way) and sends `n` GET /me back to back. */
async function lookAfter(ctx: SuiteContext, t: Recorder, seconds: number, n: number): Promise<Exchange[]> {
  await abortableSleep(seconds * 1000 + 1000, ctx.signal);
  const xs: Exchange[] = [];
  for (let i = 0; i < n; i++) xs.push(await t.send({ method: 'GET', path: '/me' }));
  return xs;
}

/**
 * Waits out the sequence's last RateLimit-Reset (+1 s rounding) and expects the whole budget back
 * (Remaining = Limit − 1 after one more request) in every limiter model; fails
 * 8.ratelimit.reset-restores only where the server broke its own claim in a way other traffic on the key
 * does not explain: nothing of the sequence came back, or the later claims kept missing by exactly the
 * check's own batches. Bounded: two more looks, each after a claim no longer than the first Reset (or 1 s),
 * six requests in all. A check that already failed does not wait.
 */
export async function restoredAtReset(ctx: SuiteContext, t: Recorder, sequence: readonly Exchange[]): Promise<void> {
  if (t.failures.length > 0) return;
  const last = sequence[sequence.length - 1]!;
  const reset = parseIntHeader(last.response!.headers, 'RateLimit-Reset');
  if (!reset.ok) return cannotJudge(t, `RateLimit-Reset was unreadable on ${describeAnswer(last)}: no moment to wait for`);
  if (reset.value > MAX_RESTORE_WAIT_S) {
    return cannotJudge(
      t,
      `the return of the full budget was not waited for: RateLimit-Reset ${reset.value} is above the ${MAX_RESTORE_WAIT_S} s the check waits`,
      'a rate-limit window of at most a minute for the admin key (or judge Reset under load: spgate load reads every claim)',
    );
  }
  const after = `${reset.value + 1} s after RateLimit-Reset ${reset.value}`;
  let look = await lookAfter(ctx, t, reset.value, 2);
  let b = budgetOf(look[0]!);
  if (!b) return unreadable(t, after, look[0]!);
  if (shortBy(b) <= 0) return;
  const fall = foreignFall(look) ?? foreignFall(sequence);
  if (fall) {
    return cannotJudge(
      t,
      `the budget was not full ${after} (RateLimit-Remaining ${b.remaining} of ${b.limit}), but ${fall}: ${SPENDS}`,
      REMEDY,
    );
  }
  const expected =
    `the whole budget back ${reset.value} s (+1 s rounding) after RateLimit-Reset ${reset.value}: ` +
    `RateLimit-Remaining ${b.limit - 1} after one more request`;
  // Nothing given back: Remaining is where the sequence left it, less this request, and the sequence left
  // the budget short by at least its own requests (a limiter that gave nothing back during it either). A burst
  // of someone else matching that count to the request is no explanation a gate should reach for; a budget
  // that the sequence left nearly full (a token bucket refilling over another client's requests) is no such
  // evidence, and goes on to the later claims.
  const before = budgetOf(last);
  if (before && b.remaining <= before.remaining - 1 && before.limit - before.remaining >= sequence.length) {
    const actual = `RateLimit-Remaining ${b.remaining} of ${b.limit}: nothing came back (${before.remaining} at the end of the sequence)`;
    t.expect(false, expected, () => actual, [last, look[0]!], '8.ratelimit.reset-restores');
    return;
  }
  const misses = [`${b.remaining} of ${b.limit} ${after}`];
  const shown = [last, look[0]!];
  for (const n of BATCHES) {
    const claim = budgetOf(look[look.length - 1]!);
    if (!claim) return unreadable(t, 'after the budget came back short', look[look.length - 1]!);
    if (claim.reset > Math.max(reset.value, 1)) {
      return cannotJudge(
        t,
        `the budget was short at the server's claims (RateLimit-Remaining ${misses.join('; then ')}) and its next claim ` +
          `(RateLimit-Reset ${claim.reset}) is longer than the first: not waited for`,
        REMEDY,
      );
    }
    const previous = look.length;
    look = await lookAfter(ctx, t, claim.reset, n);
    b = budgetOf(look[0]!);
    const at = `${claim.reset + 1} s after RateLimit-Reset ${claim.reset}`;
    if (!b) return unreadable(t, at, look[0]!);
    const seen = readLook(look, previous);
    if (seen.kind === 'full') return;
    misses.push(`${b.remaining} of ${b.limit} ${at} (${previous} own requests before it)`);
    shown.push(look[0]!);
    if (seen.kind === 'foreign') {
      const short = `the budget was short at the server's claims (RateLimit-Remaining ${misses.join('; then ')})`;
      return cannotJudge(t, `${short}, but ${seen.fall}: ${SPENDS}`, REMEDY);
    }
    if (seen.kind === 'other') {
      return cannotJudge(
        t,
        `the budget was short at the server's claims (RateLimit-Remaining ${misses.join('; then ')}) by other counts than ` +
          "this check's own requests before each claim: other traffic on the key, hidden by the budget coming back between " +
          'its requests, looks the same as a late restore',
        REMEDY,
      );
    }
  }
  t.expect(
    false,
    expected,
    () =>
      `RateLimit-Remaining ${misses.join('; then ')}: at each later claim short by exactly this check's own requests before it, ` +
      'which the claim said would be forgotten',
    shown,
    '8.ratelimit.reset-restores',
  );
}
