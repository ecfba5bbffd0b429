/**
 * The one form of a property check, on fast-check: `runProperty(ctx, arb, async (value, rec) => …)` runs the
 * body once per generated value with a fresh Recorder (the same toolkit as `runCase`), with the check's seed
 * and numRuns. A run fails at its first failed expectation (`rec.require` stops it, `rec.expect` lets it
 * finish), `rec.discard` drops a run that judged nothing; the shrunk counterexample is re-verified and becomes
 * one CheckFailure carrying the run's exchanges, the seed and the shrink path. A run whose only failures are
 * cuts (recorder.ts cutBy: a request spgate gave up on) judged nothing either: it is counted apart from the
 * discards, never as judged, and the property is judged on the runs left.
 */
import fc from 'fast-check';
import type { Exchange } from '../client/exchange.js';
import type { CheckFailure, CheckOutcome, SuiteContext } from './suite.js';
import { RunAborted } from './aborted.js';
import { CUT_REMEDY, CaseDiscard, CheckAbort, Recorder, cutBy, cutReason } from './recorder.js';

/** Options of runProperty. */
export interface PropertyOptions<T> {
  /** Cases always run first (boundaries), before the generated ones. */
  examples?: T[];
  /** Cases failing this are discarded; a shrunk counterexample is re-verified against it. */
  precondition?: (t: T) => boolean;
  /** Human text of an input, for the finding (default: its JSON, cut at 300 characters). */
  describe?: (t: T) => string;
  /** Caps ctx.fc.numRuns (expensive, stateful properties). */
  maxRuns?: number;
  /**
   * Fewest judged (neither discarded nor cut) cases for a verdict; fewer make the property inconclusive.
   * Default: a quarter of the cases, at least one.
   */
  minJudged?: number;
  /**
   * Most cut runs a pass tolerates (default: any, within minJudged). 0 where the runs a busy server cuts are
   * the very ones the property exists for (a retry timed out while its first request holds the key).
   */
  maxCut?: number;
}

/** The body of a property: one run over one generated value, its expectations evaluated on `rec`. */
export type PropertyBody<T> = (value: T, rec: Recorder) => Promise<void>;

/** A run that failed: its first failure, and every exchange the run sent. */
interface Failed {
  failure: Pick<CheckFailure, 'expected' | 'actual' | 'clause'>;
  exchanges: Exchange[];
}

/** What one run came to: undefined when it held; `cut`: its only failures were cuts (the first one). */
type RunResult = undefined | Failed | { discarded: string } | { cut: CheckFailure };

function failedRun(f: CheckFailure, rec: Recorder): Failed {
  return { failure: { expected: f.expected, actual: f.actual, ...(f.clause ? { clause: f.clause } : {}) }, exchanges: rec.exchanges };
}

/**
 * Runs the body once with its own Recorder; a discard after a failed expectation is that failure. The run
 * fails at its first failure that is not a cut (the stopping one first); with cuts only it is cut.
 */
async function runOnce<T>(ctx: SuiteContext, t: T, body: PropertyBody<T>): Promise<RunResult> {
  const rec = new Recorder(ctx);
  const failures = rec.failures;
  try {
    await body(t, rec);
  } catch (err) {
    if (err instanceof CheckAbort) failures.unshift(err.failure);
    else if (!(err instanceof CaseDiscard)) throw err;
    else if (!failures[0]) return { discarded: err.why };
  }
  const real = failures.find((f) => !cutBy(f));
  if (real) return failedRun(real, rec);
  return failures[0] ? { cut: failures[0] } : undefined;
}

function defaultDescribe(t: unknown): string {
  const s = JSON.stringify(t, (_k, v: unknown) => (typeof v === 'bigint' ? v.toString() : v));
  return s === undefined ? String(t) : s.length > 300 ? `${s.slice(0, 300)}…` : s;
}

/** Checks `body` over values of `arb`; a failing run becomes one CheckFailure (seed, path, its exchanges). */
export async function runProperty<T>(
  ctx: SuiteContext,
  arb: fc.Arbitrary<T>,
  body: PropertyBody<T>,
  opts: PropertyOptions<T> = {},
): Promise<CheckOutcome> {
  const describe = opts.describe ?? defaultDescribe;
  let crash: unknown;
  let last: (Failed & { input: T }) | undefined;
  let discarded = 0;
  let cut = 0;
  let executed = 0;
  let firstDiscard: string | undefined;
  let firstCut: CheckFailure | undefined;
  let shrinking = false;

  const prop = fc.asyncProperty(arb, async (t) => {
    // Once the run is aborted or a case crashed, every further execution (shrinking) ends at once, without I/O.
    if (ctx.signal.aborted) throw new RunAborted();
    if (crash !== undefined) throw crash;
    if (opts.precondition) fc.pre(opts.precondition(t));
    if (!shrinking) executed++;
    try {
      const r = await runOnce(ctx, t, body);
      if (r !== undefined && 'discarded' in r) {
        if (!shrinking) {
          discarded++;
          firstDiscard ??= `${r.discarded} — input ${describe(t)}`;
        }
        return true;
      }
      if (r !== undefined && 'cut' in r) {
        // A cut candidate while shrinking is one that did not fail again: fast-check moves on.
        if (!shrinking) {
          cut++;
          firstCut ??= { ...r.cut, actual: `${r.cut.actual} — input ${describe(t)}` };
        }
        return true;
      }
      if (r) {
        last = { ...r, input: t };
        shrinking = true;
      }
      return r === undefined;
    } catch (err) {
      if (ctx.signal.aborted) throw new RunAborted();
      crash = err;
      throw err;
    }
  });

  const numRuns = opts.maxRuns === undefined ? ctx.fc.numRuns : Math.max(1, Math.min(ctx.fc.numRuns, opts.maxRuns));
  const details = await fc.check(prop, {
    seed: ctx.fc.seed,
    numRuns,
    examples: (opts.examples ?? []).map((e) => [e] as [T]),
    endOnFailure: false,
  });
  if (ctx.signal.aborted) throw new RunAborted();
  if (crash !== undefined) throw crash instanceof Error ? crash : new Error(String(crash));
  // The cases actually run (fast-check runs the examples within numRuns, and not the shrinking runs).
  const cases = executed;
  const judged = (): CheckOutcome => {
    const minJudged = opts.minJudged ?? Math.max(1, Math.ceil(cases / 4));
    if (discarded === 0 && cut === 0) return { status: 'passed', cases };
    const refused = discarded ? `${discarded} of ${cases} generated inputs were refused as invalid (first: ${firstDiscard ?? ''})` : '';
    const cutText = firstCut ? cutReason(cut, cases, firstCut) : '';
    const what = [cutText, refused].filter(Boolean).join('; ');
    const left = cases - discarded - cut;
    const tooCut = opts.maxCut !== undefined && cut > opts.maxCut;
    if (left < minJudged || tooCut) {
      const remedies = [
        cut ? CUT_REMEDY : '',
        discarded ? 'see which input the server refuses and why; supply valid values in the target file where it has a field for them' : '',
      ];
      const short = tooCut ? `more than the ${opts.maxCut} cut runs a verdict tolerates` : `fewer than the ${minJudged} a verdict needs`;
      return { status: 'inconclusive', cases, reason: `${what}; ${left} judged, ${short}`, remedy: remedies.filter(Boolean).join('; ') };
    }
    return { status: 'passed', cases, note: `${what}; ${left} judged` };
  };
  if (!details.failed || !details.counterexample) return judged();

  const input = details.counterexample[0];
  // A shrunk input must still be a case worth reporting (e.g. a "tampered" cursor equal to the valid one is not).
  if (opts.precondition && !opts.precondition(input)) return judged();
  const replayed = await runOnce(ctx, input, body);
  const again = replayed !== undefined && 'failure' in replayed ? replayed : undefined;
  const rec = again ?? last;
  if (!rec) return judged();
  const replay = again
    ? ''
    : replayed !== undefined && 'cut' in replayed
      ? ' (its re-run was cut: no answer in time)'
      : ' (did not fail again when re-run)';
  const failure: CheckFailure = {
    expected: rec.failure.expected,
    actual: `${rec.failure.actual} — input ${describe(input)}${replay}`,
    exchanges: rec.exchanges,
    path: details.counterexamplePath ?? undefined,
    seed: details.seed,
    ...(rec.failure.clause ? { clause: rec.failure.clause } : {}),
  };
  return { status: 'failed', cases, failures: [failure] };
}
