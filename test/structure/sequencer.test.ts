/**
 * The files test/support/sequencer.ts starts first exist, and the timed files (test/support/timed-files.ts)
 * start before all, fewer of them than vitest has workers: each starts in a worker of its own that has run
 * nothing yet, whose priority no other file has lowered.
 */
import { readdirSync } from 'node:fs';
import { join, relative, resolve, dirname } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import config from '../../vitest.config.js';
import { LONG_FIRST } from '../support/sequencer.js';
import { TIMED_FILES } from '../support/timed-files.js';

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

  it('starts the timed files first, each in a worker of its own', () => {
    expect(TIMED_FILES).toContain('test/shrink/limiters.test.ts');
    for (const f of TIMED_FILES) expect(files).toContain(f);
    expect(LONG_FIRST.slice(0, TIMED_FILES.length).map((p) => `${p}.test.ts`)).toEqual(TIMED_FILES);
    expect(TIMED_FILES.length).toBeLessThan(config.test!.maxWorkers as number);
  });
});
