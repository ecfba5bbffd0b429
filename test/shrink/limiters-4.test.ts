/** spgate shrink end to end against misconfigured limiters, the cases of file 4 (test/shrink/support/limiter-cases.ts). */
import { afterAll, describe, it } from 'vitest';
import { CASES, shrinkCase, tableText } from './support/limiter-cases.js';

afterAll(() => process.stdout.write(tableText()));

describe.concurrent('spgate shrink against misconfigured limiters', () => {
  it.each(CASES.filter((c) => c.file === 4))(
    '$name: small, reproduces ≥ 9/10, regression profile and script fail then pass',
    { timeout: 600_000 },
    shrinkCase,
  );
});
