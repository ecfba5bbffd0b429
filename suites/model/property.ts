/**
 * Adapts the runner's checkProperty (src/conformance/property.ts) to Recorder bodies: a run fails at
 * its first failed expectation, so the shrunk counterexample carries exactly the exchanges of the
 * shortest failing sequence, plus the seed and the shrink path the runner adds.
 */
import fc from 'fast-check';
import { checkProperty, discard, type CaseVerdict } from '../../src/conformance/property.js';
import type { CheckOutcome, SuiteContext } from '../../src/conformance/suite.js';
import { CaseDiscard, CheckAbort, Recorder } from '../../src/conformance/recorder.js';

export interface PropertyOptions {
  /** Caps ctx.fc.numRuns (stateful properties are expensive). */
  maxRuns?: number;
  /** Fewest judged (not discarded, see Recorder.discard) runs for a verdict; see checkProperty. */
  minJudged?: number;
}

/** Checks `body` over values of `arb`; any failed expectation of a run fails the property. */
export async function runProperty<T>(
  ctx: SuiteContext,
  arb: fc.Arbitrary<T>,
  body: (value: T, rec: Recorder) => Promise<void>,
  options: PropertyOptions = {},
): Promise<CheckOutcome> {
  const numRuns = Math.max(1, Math.min(ctx.fc.numRuns, options.maxRuns ?? ctx.fc.numRuns));
  return checkProperty(
    ctx,
    arb,
    async (value, io): Promise<CaseVerdict> => {
      const rec = new Recorder(io);
      try {
        await body(value, rec);
      } catch (err) {
        if (err instanceof CheckAbort)
          return {
            expected: err.failure.expected,
            actual: err.failure.actual,
            ...(err.failure.clause ? { clause: err.failure.clause } : {}),
          };
        if (err instanceof CaseDiscard)
          return rec.failures[0] ? { expected: rec.failures[0].expected, actual: rec.failures[0].actual } : discard(err.why);
        throw err;
      }
      const first = rec.failures[0];
      return first ? { expected: first.expected, actual: first.actual } : undefined;
    },
    { numRuns, describe: (t) => fc.stringify(t), ...(options.minJudged !== undefined ? { minJudged: options.minJudged } : {}) },
  );
}
