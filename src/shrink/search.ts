/**
 * The shrink driver: measures how often the original schedule reproduces, then walks the candidates
 * (candidates.ts), replaying each (through an injected attempt function, so this file does no I/O of its
 * own) and keeping one only when a sequential test (acceptance.ts) finds it reproduces as often as the
 * original did. Bounded in requests, time and by a signal; whenever it stops, the best schedule so far is
 * the result.
 */
import { SpgateError } from '../errors.js';
import type { RateLimitAnalysis } from '../results/schema.js';
import type { TraceRecord } from '../trace/record.js';
import { DEFAULT_RULE, heldRate, SequentialTest, type AcceptanceRule, type Rate } from './acceptance.js';
import { shrinkCandidates, type ShrinkHint } from './candidates.js';
import type { Send } from './schedule.js';
import { describeSignature, shows, type ViolationSignature } from './signature.js';

export interface AttemptOutcome {
  records: TraceRecord[];
  analysis: RateLimitAnalysis;
  /** Requests this attempt sent. */
  sent: number;
}

export type { Rate } from './acceptance.js';

export interface Best {
  schedule: Send[];
  /** The last attempt of it that reproduced (the minimal trace). */
  records: TraceRecord[];
  analysis: RateLimitAnalysis;
  rate: Rate;
}

export interface SearchOptions {
  schedule: Send[];
  signature: ViolationSignature;
  /** One attempt against the target (waits for the budget itself). */
  attempt: (s: readonly Send[]) => Promise<AttemptOutcome>;
  /** Attempts that measure the original's rate, which every candidate is then held to. */
  attempts: number;
  /** The sequential test each candidate goes through (default DEFAULT_RULE). */
  rule?: AcceptanceRule;
  maxRequests: number;
  /** performance.now() past which no attempt starts; a function when it moves (time kept for a final measurement). */
  deadline: number | (() => number);
  now?: () => number;
  signal?: AbortSignal;
  onStep?: (line: string, best: Best) => void;
}

export interface SearchResult {
  original: Best;
  best: Best;
  /** Every schedule kept, the original first and the best last (to back off along when the best proves flaky). */
  kept: Best[];
  steps: Array<{ step: string; sends: number; accepted: boolean; rate: Rate }>;
  /** Why the search ended: done, or which bound stopped it. */
  stopped: 'done' | 'requests' | 'time' | 'interrupted';
  sent: number;
}

class Stop extends Error {
  constructor(readonly why: SearchResult['stopped']) {
    super(why);
  }
}

/** The violation's budget in the analysis. */
function classOf(a: RateLimitAnalysis, s: ViolationSignature): RateLimitAnalysis['classes'][number] | undefined {
  return a.classes.find((x) => x.class === s.class && (s.key === undefined || x.key === s.key)) ?? a.classes[0];
}

/** Window of the violation's budget in the analysis, ms. */
function windowOf(a: RateLimitAnalysis, s: ViolationSignature): number | null {
  const c = classOf(a, s);
  return c?.windowSeconds != null ? c.windowSeconds * 1000 : null;
}

/** Runs the search; throws SPGATE_ERR_NOT_REPRODUCED when the original never reproduces. */
export async function searchMinimal(opts: SearchOptions): Promise<SearchResult> {
  const now = opts.now ?? (() => performance.now());
  let sent = 0;
  const steps: SearchResult['steps'] = [];

  const guard = (size: number): void => {
    if (opts.signal?.aborted) throw new Stop('interrupted');
    if (sent + size > opts.maxRequests) throw new Stop('requests');
    if (now() > (typeof opts.deadline === 'number' ? opts.deadline : opts.deadline())) throw new Stop('time');
  };

  /** One attempt: the outcome when it reproduced, else undefined. */
  const once = async (s: readonly Send[]): Promise<AttemptOutcome | undefined> => {
    guard(s.length);
    let a: AttemptOutcome;
    try {
      a = await opts.attempt(s);
    } catch (err) {
      if (err instanceof SpgateError && err.code === 'SPGATE_ERR_ABORTED') throw new Stop('interrupted');
      throw err;
    }
    sent += a.sent;
    if (opts.signal?.aborted) throw new Stop('interrupted');
    return shows(a.analysis, opts.signature) ? a : undefined;
  };

  /** The original's rate: a fixed number of attempts (its estimate is what candidates are held to). */
  const estimate = async (s: readonly Send[]): Promise<{ rate: Rate; last?: AttemptOutcome }> => {
    let reproduced = 0;
    let last: AttemptOutcome | undefined;
    let n = 0;
    for (; n < opts.attempts; n++) {
      const a = await once(s);
      if (a) {
        reproduced += 1;
        last = a;
      }
    }
    return { rate: { reproduced, attempts: n }, ...(last ? { last } : {}) };
  };

  const first = await estimate(opts.schedule).catch((err: unknown) => {
    if (err instanceof Stop)
      throw new SpgateError(
        err.why === 'interrupted' ? 'SPGATE_ERR_ABORTED' : 'SPGATE_ERR_USAGE',
        err.why === 'interrupted'
          ? 'interrupted before the original schedule was measured'
          : `the original schedule (${opts.schedule.length} requests) does not fit the ${err.why === 'requests' ? '--max-requests' : '--max-time'} bound`,
      );
    throw err;
  });
  if (!first.last) {
    throw new SpgateError(
      'SPGATE_ERR_NOT_REPRODUCED',
      `${describeSignature(opts.signature)} did not show in ${first.rate.attempts} replay(s) of the original ${opts.schedule.length} requests against the target`,
    );
  }
  const original: Best = { schedule: opts.schedule, records: first.last.records, analysis: first.last.analysis, rate: first.rate };
  const held = heldRate(first.rate);
  const rule = opts.rule ?? DEFAULT_RULE;
  opts.onStep?.(
    `original: ${opts.schedule.length} requests, reproduced ${first.rate.reproduced}/${first.rate.attempts}; a candidate is kept when it reproduces as often (${Math.round(held * 100)} %), at ${Math.round(rule.alpha * 100)} % risk of keeping one that reproduces ${Math.round(rule.h0Share * 100)} % as often`,
    original,
  );
  /** The sequential test of one candidate: attempts until it decides (acceptance.ts). */
  const judge = async (s: readonly Send[]): Promise<{ accepted: boolean; rate: Rate; last?: AttemptOutcome }> => {
    const test = new SequentialTest(held, rule);
    let last: AttemptOutcome | undefined;
    for (;;) {
      const a = await once(s);
      if (a) last = a;
      const d = test.record(a !== undefined);
      if (d !== 'continue') return { accepted: d === 'accept' && last !== undefined, rate: test.rate(), ...(last ? { last } : {}) };
    }
  };
  let best = original;
  const kept: Best[] = [original];
  const hint = (): ShrinkHint => ({
    violation: best.analysis.violations.find(
      (v) => v.rule === opts.signature.rule && (opts.signature.class === undefined || v.class === opts.signature.class),
    ),
    windowMs: windowOf(best.analysis, opts.signature),
    // An attempt's records are in send order, one per send unless one was skipped.
    attempt:
      best.records.length === best.schedule.length
        ? best.records.map((r) => ({ t: r.t, status: r.status, latency: r.latency }))
        : undefined,
    limit: classOf(best.analysis, opts.signature)?.observedLimit ?? null,
  });
  const gen = shrinkCandidates(opts.schedule, opts.signature, hint);
  let stopped: SearchResult['stopped'] = 'done';
  try {
    let next = gen.next();
    while (!next.done) {
      const c = next.value;
      const m = await judge(c.schedule);
      const accepted = m.accepted;
      steps.push({ step: c.step, sends: c.schedule.length, accepted, rate: m.rate });
      if (accepted) kept.push((best = { schedule: c.schedule, records: m.last!.records, analysis: m.last!.analysis, rate: m.rate }));
      opts.onStep?.(
        `${accepted ? 'kept' : 'rejected'}: ${c.step} → ${c.schedule.length} requests, reproduced ${m.rate.reproduced}/${m.rate.attempts}`,
        best,
      );
      next = gen.next(accepted);
    }
  } catch (err) {
    if (!(err instanceof Stop)) throw err;
    stopped = err.why;
  }
  return { original, best, kept, steps, stopped, sent };
}

/**
 * Whether a final measurement (k of m) reproduces "at least as often as the original" did (k0 of n0): the
 * original's rate less one attempt of the final measurement, for the sampling error of a few attempts.
 */
export function asOftenAs(final: Rate, original: Rate): boolean {
  if (final.attempts === 0 || final.reproduced === 0) return false;
  return final.reproduced / final.attempts >= original.reproduced / original.attempts - 1 / final.attempts - 1e-9;
}
