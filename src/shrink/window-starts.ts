/**
 * Whether the limiter's windows start with each attempt, read from the headers alone. Attempts wait a spread
 * part of the window before they start (attempts.ts phaseAt) because a limiter whose windows run on a clock of
 * their own (aligned to the epoch, say) shows some bugs only at some phases of them. Most limiter libraries
 * instead start a key's window at its first request (express-rate-limit, @fastify/rate-limit,
 * rate-limiter-flexible, a Redis INCR with EXPIRE): an attempt that starts from a full budget then starts
 * its own window, every phase is the same phase, and the wait buys nothing (half a window per attempt: 1.5 s
 * of 3 s windows, a quarter of each attempt of a two-window schedule).
 *
 * Such a limiter announces it: the first answer of each attempt says the budget is full again a whole
 * window later (RateLimit-Reset W, in whole seconds rounded up). A window on its own clock says W only when
 * the attempt began in the first second of it, 1 in W of the phases; so after enough attempts that each said
 * W (fewer than a 2 % chance for a clock's windows: six of 2 s windows, four of 3 s, three of longer ones),
 * the spread stops. One first answer with less than W (a clock's window, or a token bucket's refill of one
 * request) keeps it for good. Windows of 1 s, or a Reset counted in ms, say nothing either way. Pure.
 */
import { firstAnswers, wholeNumber } from './budget-wait.js';
import type { TraceRecord } from '../trace/record.js';

/** What the first answers of the attempts so far showed. */
export interface WindowStarts {
  /** Attempts whose every budget's first answer announced a whole window. */
  own: number;
  /** A first answer announced less than a whole window: the phases matter (or cannot be ruled out). */
  phased: boolean;
}

export const NO_WINDOW_STARTS: WindowStarts = { own: 0, phased: false };

/** The chance, at most, of taking a clock's windows for windows that start with each attempt. */
const RISK = 0.02;

/** Attempts that must each announce a whole window of `windowSeconds` before the spread stops; Infinity when they cannot tell. */
export function attemptsToTell(windowSeconds: number): number {
  if (!Number.isInteger(windowSeconds) || windowSeconds < 2) return Infinity;
  return Math.max(3, Math.ceil(Math.log(RISK) / Math.log(1 / windowSeconds)));
}

/**
 * Adds one attempt that started from a full budget: the RateLimit-Reset of each budget's first answer,
 * against the window (whole seconds). Budgets whose Reset counts ms (`msReset`) are left out.
 */
export function observeWindowStarts(
  s: WindowStarts,
  records: readonly TraceRecord[],
  windowSeconds: number,
  msReset: ReadonlySet<string> = new Set(),
): WindowStarts {
  if (s.phased || attemptsToTell(windowSeconds) === Infinity) return s;
  const first = [...firstAnswers(records)].filter(([id]) => !msReset.has(id)).map(([, r]) => r);
  // A refusal first says nothing of where its window began.
  if (first.some((r) => r.status === 429)) return s;
  const resets = first.map((r) => wholeNumber(r.reset));
  if (resets.length === 0 || resets.some((x) => x === null)) return s;
  if (resets.some((x) => x! < windowSeconds)) return { ...s, phased: true };
  return resets.every((x) => x === windowSeconds) ? { ...s, own: s.own + 1 } : s;
}

/** True once the attempts showed windows that start with them: no phase of them to spread over. */
export function windowsStartWithAttempts(s: WindowStarts, windowSeconds: number): boolean {
  return !s.phased && s.own >= attemptsToTell(windowSeconds);
}
