/**
 * The inconclusive reasons the matrix tests let a loaded machine explain (test/support/machine-hides.ts) are
 * reasons the checks really give: a reworded reason would silently stop matching and the matrices go red
 * on a loaded machine again, and any other reason of the same check stays unexplained.
 */
import { readFileSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { explainedByMachine, MACHINE_HIDES } from '../support/machine-hides.js';

const SUITES_DIR = join(import.meta.dirname, '../../suites');
const sources = readdirSync(SUITES_DIR, { recursive: true, encoding: 'utf8' })
  .filter((f) => f.endsWith('.ts'))
  .map((f) => readFileSync(join(SUITES_DIR, f), 'utf8'))
  .join('\n');

describe('reasons a loaded machine explains', () => {
  it.each(Object.entries(MACHINE_HIDES))('%s: %s is a reason the suites give', (_id, re) => {
    expect(sources).toMatch(re);
  });

  it('explains only the named check with its named reason', () => {
    expect(
      explainedByMachine('limits.429-read: no 429 in 1500 read requests over 9.8 s: the budget kept coming back during the drive'),
    ).toBe(true);
    expect(explainedByMachine('limits.429-read: the read budget of the second connection was already spent when the drive began')).toBe(
      false,
    );
    expect(explainedByMachine('pagination.search: the budget kept coming back during the drive')).toBe(false);
  });
});
