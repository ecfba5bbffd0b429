/** The files test/support/sequencer.ts starts first exist, and every shrink limiter file is among them. */
import { readdirSync } from 'node:fs';
import { join, relative, resolve, dirname } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { LONG_FIRST } from '../support/sequencer.js';

const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '../..');

function testFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((e) => {
    const p = join(dir, e.name);
    if (e.isDirectory()) return testFiles(p);
    return e.name.endsWith('.test.ts') ? [relative(ROOT, p)] : [];
  });
}

describe('the long-first order', () => {
  const files = testFiles(join(ROOT, 'test'));

  it('names test files that exist, each prefix one file', () => {
    expect(LONG_FIRST.map((p) => [p, files.filter((f) => f.startsWith(`${p}.test.ts`)).length])).toEqual(LONG_FIRST.map((p) => [p, 1]));
  });

  it('starts every shrink limiter file early', () => {
    const limiterFiles = files.filter((f) => f.startsWith('test/shrink/limiters-'));
    expect(limiterFiles.length).toBeGreaterThan(0);
    for (const f of limiterFiles) expect(LONG_FIRST.some((p) => f === `${p}.test.ts`)).toBe(true);
  });
});
