/**
 * The conformance runner and planner over the shipped suite catalogue, for tests: the runner takes its
 * catalogue from its caller (it sits below suites/), and most tests run the real suites.
 */
import { runConformance as runOn, type ConformanceOptions, type ConformanceOutcome } from '../../src/conformance/run.js';
import { planConformance as planOn, type ConformancePlan } from '../../src/dry-run/conformance.js';
import type { SuiteDef } from '../../src/conformance/suite.js';
import type { Target } from '../../src/target/schema.js';
import { SUITES } from '../../suites/index.js';

/** runConformance over SUITES unless the test names its own catalogue. */
export function runConformance(opts: Omit<ConformanceOptions, 'catalogue'> & { catalogue?: SuiteDef[] }): Promise<ConformanceOutcome> {
  return runOn({ ...opts, catalogue: opts.catalogue ?? SUITES });
}

/** planConformance over SUITES unless the test names its own catalogue. */
export function planConformance(
  target: Target,
  names: string[],
  runs: number,
  seed: number,
  catalogue: SuiteDef[] = SUITES,
): ConformancePlan {
  return planOn(target, names, runs, seed, catalogue);
}
