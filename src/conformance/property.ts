/**
 * Property checks on fast-check: runs an async property against the target with the check's seed and
 * numRuns, and turns a (shrunk, then re-verified) counterexample into a CheckOutcome carrying the failing
 * exchanges, the seed and the shrink path.
 */
import fc from 'fast-check';
import type { Exchange } from '../client/exchange.js';
import type { RequestSpec } from '../client/types.js';
import type { ClauseId } from '../spec/clauses.js';
import type { CheckFailure, CheckOutcome, SuiteContext } from './suite.js';
import { RunAborted } from './aborted.js';

/** What one case sends through: the context's send, with the case's exchanges collected. */
export interface CaseIO {
  send(spec: RequestSpec): Promise<Exchange>;
  sendOnce(spec: RequestSpec): Promise<Exchange>;
}

/** A case's verdict: undefined when it holds, else what was expected and seen. */
export type CaseVerdict = undefined | { expected: string; actual: string; clause?: ClauseId } | Discarded;

/**
 * The server refused a generated input whose acceptance the spec does not require (a 4xx validation answer
 * to a slug, a name, an assignee): the case judges nothing and is discarded — counted, never a failure.
 */
export interface Discarded {
  discarded: string;
}

/** A discarded case (see Discarded). */
export function discard(why: string): Discarded {
  return { discarded: why };
}

function isDiscarded(v: CaseVerdict): v is Discarded {
  return v !== undefined && 'discarded' in v;
}

export interface PropertyOptions<T> {
  /** Cases always run first (boundaries), before the generated ones. */
  examples?: T[];
  /** Cases failing this are discarded; a shrunk counterexample is re-verified against it. */
  precondition?: (t: T) => boolean;
  /** Human text of an input, for the finding. */
  describe?: (t: T) => string;
  /** Overrides ctx.fc.numRuns (expensive properties). */
  numRuns?: number;
  /**
   * Fewest judged (not discarded) cases for a verdict; fewer make the property inconclusive. Default: a
   * quarter of the cases, at least one.
   */
  minJudged?: number;
}

interface Recorded {
  verdict: Exclude<CaseVerdict, undefined | Discarded>;
  exchanges: Exchange[];
}

function caseIO(ctx: SuiteContext, into: Exchange[]): CaseIO {
  return {
    send: async (spec) => {
      const x = await ctx.send(spec);
      into.push(x);
      return x;
    },
    sendOnce: async (spec) => {
      const x = await ctx.sendOnce(spec);
      into.push(x);
      return x;
    },
  };
}

function defaultDescribe(t: unknown): string {
  const s = JSON.stringify(t, (_k, v: unknown) => (typeof v === 'bigint' ? v.toString() : v));
  return s === undefined ? String(t) : s.length > 300 ? `${s.slice(0, 300)}…` : s;
}

/** Runs one case outside fast-check (re-verification), collecting its exchanges; a discard is returned as such. */
async function runCase<T>(
  ctx: SuiteContext,
  t: T,
  body: (t: T, io: CaseIO) => Promise<CaseVerdict>,
): Promise<Recorded | Discarded | undefined> {
  const xs: Exchange[] = [];
  const verdict = await body(t, caseIO(ctx, xs));
  if (verdict === undefined || isDiscarded(verdict)) return verdict;
  return { verdict, exchanges: xs };
}

/** Runs a property; a failing case becomes one CheckFailure (seed, path, failing exchanges). */
export async function checkProperty<T>(
  ctx: SuiteContext,
  arb: fc.Arbitrary<T>,
  body: (t: T, io: CaseIO) => Promise<CaseVerdict>,
  opts: PropertyOptions<T> = {},
): Promise<CheckOutcome> {
  const describe = opts.describe ?? defaultDescribe;
  let crash: unknown;
  let last: (Recorded & { input: T }) | undefined;
  let discarded = 0;
  let executed = 0;
  let firstDiscard: string | undefined;
  let shrinking = false;

  const prop = fc.asyncProperty(arb, async (t) => {
    // Once the run is aborted or a case crashed, every further execution (shrinking) ends at once, without I/O.
    if (ctx.signal.aborted) throw new RunAborted();
    if (crash !== undefined) throw crash;
    if (opts.precondition) fc.pre(opts.precondition(t));
    if (!shrinking) executed++;
    try {
      const rec = await runCase(ctx, t, body);
      if (rec !== undefined && 'discarded' in rec) {
        if (!shrinking) {
          discarded++;
          firstDiscard ??= `${rec.discarded} — input ${describe(t)}`;
        }
        return true;
      }
      if (rec) {
        last = { ...rec, input: t };
        shrinking = true;
      }
      return rec === undefined;
    } catch (err) {
      if (ctx.signal.aborted) throw new RunAborted();
      crash = err;
      throw err;
    }
  });

  const numRuns = opts.numRuns ?? ctx.fc.numRuns;
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
    if (discarded === 0) return { status: 'passed', cases };
    const what = `${discarded} of ${cases} generated inputs were refused as invalid (first: ${firstDiscard ?? ''})`;
    if (cases - discarded < minJudged) {
      return {
        status: 'inconclusive',
        cases,
        reason: `${what}; ${cases - discarded} judged, fewer than the ${minJudged} a verdict needs`,
        remedy: 'see which input the server refuses and why; supply valid values in the target file where it has a field for them',
      };
    }
    return { status: 'passed', cases, note: `${what}; ${cases - discarded} judged` };
  };
  if (!details.failed || !details.counterexample) return judged();

  const input = details.counterexample[0];
  // A shrunk input must still be a case worth reporting (e.g. a "tampered" cursor equal to the valid one is not).
  if (opts.precondition && !opts.precondition(input)) return judged();
  const replayed = await runCase(ctx, input, body);
  const again = replayed !== undefined && 'discarded' in replayed ? undefined : replayed;
  const rec = again ?? last;
  if (!rec) return judged();
  const failure: CheckFailure = {
    expected: rec.verdict.expected,
    actual: `${rec.verdict.actual} — input ${describe(input)}${again ? '' : ' (did not fail again when re-run)'}`,
    exchanges: rec.exchanges,
    path: details.counterexamplePath ?? undefined,
    seed: details.seed,
    ...(rec.verdict.clause ? { clause: rec.verdict.clause } : {}),
  };
  return { status: 'failed', cases, failures: [failure] };
}

/** Builds an outcome from deterministic cases: passed when no failure was collected. */
export function outcomeOf(cases: number, failures: CheckFailure[]): CheckOutcome {
  return failures.length ? { status: 'failed', cases, failures } : { status: 'passed', cases };
}
