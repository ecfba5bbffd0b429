/** docs/conformance.md lists every check of the runner's own suites with its clause. */
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { SUITES } from '../../suites/index.js';

const MINE = ['auth', 'errors', 'pagination', 'limits', 'shapes'];
const doc = readFileSync(new URL('../../docs/conformance.md', import.meta.url), 'utf8');

describe('docs/conformance.md', () => {
  it('has a line per check naming its clause', () => {
    const missing = SUITES.filter((s) => MINE.includes(s.name))
      .flatMap((s) => s.checks)
      .filter((c) => !doc.split('\n').some((line) => line.startsWith(`| ${c.id} | ${c.clause} |`)))
      .map((c) => c.id);
    expect(missing).toEqual([]);
  });
});
