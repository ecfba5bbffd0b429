/**
 * Adapts the runner's checkProperty (src/conformance/property.ts) to CaseRecorder bodies: a run fails at
 * its first failed expectation, so the shrunk counterexample carries exactly the exchanges of the
 * shortest failing sequence, plus the seed and the shrink path the runner adds.
 */
import fc from 'fast-check';
import { checkProperty, type CaseVerdict } from '../../src/conformance/property.js';
import type { CheckOutcome, SuiteContext } from '../../src/conformance/suite.js';
import { CaseAbort, CaseRecorder } from './case.js';

export interface PropertyOptions {
  /** Caps ctx.fc.numRuns (stateful properties are expensive). */
  maxRuns?: number;
}

/** Checks `body` over values of `arb`; any failed expectation of a run fails the property. */
export async function runProperty<T>(
  ctx: SuiteContext,
  arb: fc.Arbitrary<T>,
  body: (value: T, rec: CaseRecorder) => Promise<void>,
  options: PropertyOptions = {},
): Promise<CheckOutcome> {
  const numRuns = Math.max(1, Math.min(ctx.fc.numRuns, options.maxRuns ?? ctx.fc.numRuns));
  return checkProperty(ctx, arb, async (value, io): Promise<CaseVerdict> => {
    const rec = new CaseRecorder(io);
    try {
      await body(value, rec);
    } catch (err) {
      if (err instanceof CaseAbort) return { expected: err.expected, actual: err.actual, ...(err.clause ? { clause: err.clause } : {}) };
      throw err;
    }
    const first = rec.failures[0];
    return first ? { expected: first.expected, actual: first.actual } : undefined;
  }, { numRuns, describe: (t) => fc.stringify(t) });
}
