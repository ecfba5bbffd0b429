/**
 * The bounded probe that learns one class's budget: a short burst, one request half-way to the refill the
 * burst's Reset announced (a token bucket shows part of its budget back by then, a window none), then one
 * request right after the announced refill (a window's Reset is then its full length). At most
 * PROBE_MAX_REQUESTS requests and `maxWaitMs` of waiting; abortable. The I/O (sending, the clock, sleeping)
 * is injected, so the sequence is testable against simulated limiters on a simulated clock.
 */
import type { ProbeSample } from './budget-estimate.js';

/** The probe's view of the outside world. */
export interface ProbeIO {
  /** Sends one request of the class and returns its response headers (t set by the caller of send). */
  send(): Promise<Omit<ProbeSample, 't' | 'afterWait'>>;
  /** ms on a monotonic clock. */
  now(): number;
  /** Resolves after ms, or early when the signal aborts. */
  sleep(ms: number, signal?: AbortSignal): Promise<void>;
}

export interface ProbeOptions {
  /** Burst length (requests sent back to back). */
  burst: number;
  /**
   * Longer burst while every Reset says "full within a second" and half the budget is left: a token
   * bucket refilling fast shows Reset growing only after enough of it is spent.
   */
  burstMax: number;
  /** Longest total wait for an announced refill; beyond it the probe stops with what it has. */
  maxWaitMs: number;
  /** Requests the probe may send at most (caps.maxRequests share). */
  maxRequests: number;
  /** Stop after the first response (a stated budget is only checked) unless `more(first)` says go on. */
  checkOnly?: { more: (first: ProbeSample) => boolean };
  signal?: AbortSignal;
}

export const PROBE_DEFAULTS = { burst: 5, burstMax: 12, maxWaitMs: 65_000 } as const;
/** The longest burst + the half-way request + the after-refill request and two retries. */
export const PROBE_MAX_REQUESTS = PROBE_DEFAULTS.burstMax + 4;

// After the announced instant: enough for clock granularity, small enough to stay early in a new window.
const MARGIN_MS = 60;
const RETRY_MS = 1000;
const RETRIES = 2;

export interface ProbeOutcome {
  samples: ProbeSample[];
  /** Why the probe stopped early, if it did. */
  note?: string;
}

/** Runs the probe sequence for one class. Never throws for a server's answer; transport failures end it. */
export async function runProbe(io: ProbeIO, o: ProbeOptions): Promise<ProbeOutcome> {
  const start = io.now();
  const samples: ProbeSample[] = [];
  const aborted = (): boolean => o.signal?.aborted === true;
  const take = async (afterWait = false): Promise<ProbeSample> => {
    const r = await io.send();
    const s: ProbeSample = { ...r, t: io.now() - start, ...(afterWait ? { afterWait } : {}) };
    samples.push(s);
    return s;
  };
  const budgetLeft = (): boolean => samples.length < o.maxRequests && !aborted();
  // n requests at once: sent one by one, a burst spends one unit per round trip, which a token bucket
  // refilling faster than that never shows. Answers are ordered as the limiter counted them (countedOrder).
  const batch = async (n: number): Promise<ProbeSample[]> => {
    const before = samples[samples.length - 1];
    const rs = await Promise.all(Array.from({ length: n }, () => io.send()));
    const t = io.now() - start;
    const out = countedOrder(
      rs.map((r) => ({ ...r, t })),
      before,
    );
    samples.push(...out);
    return out;
  };

  const first = await take();
  if (first.status === 0) return { samples, note: 'the probe request failed in transport' };
  if (o.checkOnly && !o.checkOnly.more(first)) return { samples };
  if (first.limit === undefined) return { samples, note: 'no RateLimit-Limit header on the first response' };
  const L = intOf(first.limit) ?? 0;
  const extend = (): boolean =>
    samples.length < o.burstMax &&
    samples.every((x, i) => (intOf(x.reset) ?? 2) <= 1 && (intOf(x.remaining) ?? 0) > L / 2 && (i === 0 || !refilled(samples[i - 1]!, x)));
  for (let round = 0; round < 2 && first.status !== 429 && budgetLeft(); round++) {
    const n = Math.min(round === 0 ? o.burst - samples.length : o.burstMax - samples.length, o.maxRequests - samples.length);
    if (n <= 0 || (round === 1 && !extend())) break;
    const got = await batch(n);
    if (got.some((x) => x.status === 0)) return { samples, note: 'a probe request failed in transport' };
    if (got.some((x) => x.status === 429)) break;
  }

  let waited = 0;
  const sleepUntil = async (at: number): Promise<boolean> => {
    const ms = Math.max(0, at - (io.now() - start));
    if (waited + ms > o.maxWaitMs) return false;
    waited += ms;
    await io.sleep(ms, o.signal);
    return !aborted();
  };

  // The refill instant: the earliest full-again time announced since the last refill (Reset is rounded
  // up by most limiters, so the earliest announcement is the tightest bound on the real instant).
  const announced = (): number | undefined => {
    let at: number | undefined;
    for (let i = samples.length - 1; i >= 0; i--) {
      const s = samples[i]!;
      const reset = intOf(s.reset);
      if (reset === undefined) continue;
      const wait = Math.max(reset, s.status === 429 ? (intOf(s.retryAfter) ?? 0) : 0);
      at = Math.min(at ?? Infinity, s.t + 1000 * wait);
      const prev = samples[i - 1];
      if (prev && (intOf(s.remaining) ?? 0) > (intOf(prev.remaining) ?? 0)) break;
    }
    return at;
  };

  let refillAt = announced();
  if (refillAt === undefined) return { samples, note: 'no integral RateLimit-Reset: no refill to wait for' };
  const last = samples[samples.length - 1]!.t;
  const now = io.now() - start;
  if (refillAt - now > o.maxWaitMs) {
    return {
      samples,
      note: `the announced refill is ${Math.round((refillAt - now) / 1000)} s away, beyond the probe's ${Math.round(o.maxWaitMs / 1000)} s`,
    };
  }
  if (refillAt - last >= 400 && budgetLeft()) {
    // About half-way, at a sub-second phase 500 ms from the announcing response's: of two announcements
    // rounded up to whole seconds, one is at most ~0.5 s late, so the after-refill request lands early
    // in the new window.
    const middle = (last + refillAt) / 2;
    let at = refillAt - 500;
    while (at - 1000 > middle) at -= 1000;
    if (!(await sleepUntil(at > last ? at : middle))) return { samples, note: 'stopped' };
    const prev = samples[samples.length - 1]!;
    const mid = await take();
    // A window whose end came early (Reset rounded up) refilled already: this is the after-refill sample.
    if (refilled(prev, mid) && intOf(mid.remaining)! >= (intOf(mid.limit) ?? Infinity) - 1) {
      mid.afterWait = true;
      return { samples };
    }
    refillAt = Math.min(refillAt, announced() ?? Infinity);
  }
  if (!budgetLeft() || !(await sleepUntil(refillAt + MARGIN_MS))) return { samples, note: 'stopped before the announced refill' };
  let before = samples[samples.length - 1]!;
  let after = await take(true);
  // A limiter that rounds Reset down announces the refill a little early: look again shortly after.
  for (let i = 0; i < RETRIES && !refilled(before, after) && budgetLeft(); i++) {
    if (!(await sleepUntil(after.t + RETRY_MS))) break;
    before = after;
    after = await take(true);
  }
  return refilled(before, after) ? { samples } : { samples, note: 'no refill seen at the announced time' };
}

/**
 * A burst's answers in the order the limiter counted them: by Remaining, falling. Unless the burst
 * straddled a window's end: an answer with no less Remaining than the response before the burst (each
 * request takes a unit, so budget came back) was counted after a refill, and so was every answer with a
 * Reset as long as its; answers with a shorter Reset were counted before the refill, in the old window. One
 * counter never gives that (more budget left means sooner full), so a token bucket's answers keep their
 * order. Without the split, two windows' answers interleave and look like a token bucket's Reset growing as
 * its budget is spent.
 */
export function countedOrder(answers: ProbeSample[], before: ProbeSample | undefined): ProbeSample[] {
  const sorted = [...answers].sort((a, b) => (intOf(b.remaining) ?? -1) - (intOf(a.remaining) ?? -1));
  const prev = before ? intOf(before.remaining) : undefined;
  if (prev === undefined || sorted.some((x) => intOf(x.reset) === undefined || intOf(x.remaining) === undefined)) return sorted;
  const refills = sorted.filter((x) => intOf(x.remaining)! >= prev).map((x) => intOf(x.reset)!);
  if (refills.length === 0) return sorted;
  const newWindow = Math.min(...refills);
  const old = sorted.filter((x) => intOf(x.reset)! < newWindow);
  return old.length === 0 ? sorted : [...old, ...sorted.filter((x) => intOf(x.reset)! >= newWindow)];
}

function refilled(before: ProbeSample, after: ProbeSample): boolean {
  const a = intOf(before.remaining);
  const b = intOf(after.remaining);
  return a !== undefined && b !== undefined && b > a;
}

function intOf(v: string | undefined): number | undefined {
  return v !== undefined && /^\d{1,9}$/.test(v.trim()) ? Number(v.trim()) : undefined;
}
