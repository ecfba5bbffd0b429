/**
 * Issue 34 end to end (test/shrink/support/limiter-cases.ts says what each case asserts): express-rate-limit:
 * a store per replica (Remaining rises) and one store for read and write.
 * Two cases a file, run side by side (their time is mostly spent waiting for budgets), so vitest's workers
 * balance the eight cases.
 */
import { afterAll, describe, it } from 'vitest';
import { CASES, printTable, shrinkCase } from './support/limiter-cases.js';

afterAll(printTable);

describe.concurrent('spgate shrink against misconfigured limiters', () => {
  const cases = [CASES.expressPerReplica, CASES.expressOneStore];
  it.each(cases)('$name: ≤ ¼, reproduces ≥ 9/10, regression profile and script fail then pass', { timeout: 300_000 }, shrinkCase);
});
