/** The files test/support/sequencer.ts starts first exist, and the shrink limiter cases start before all. */
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

  it('starts the shrink limiter cases first', () => {
    expect(files).toContain('test/shrink/limiters.test.ts');
    expect(LONG_FIRST[0]).toBe('test/shrink/limiters');
  });
});
