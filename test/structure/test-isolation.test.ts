/**
 * The test files share each vitest worker's modules (vitest.config.ts: isolate false): a file that replaced
 * a module, a global, an environment variable or the clock for itself would replace it for the files the
 * same worker runs after it. None does; this keeps it so, from the test sources themselves.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '../..');

function testSources(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((e) => {
    const p = join(dir, e.name);
    if (e.isDirectory()) return testSources(p);
    return /\.ts$/.test(e.name) ? [p] : [];
  });
}

/** What a file may not do when the next file in its worker sees the same modules and globals. */
const LEAKS: Array<[RegExp, string]> = [
  [/\bvi\.(do)?mock\(/, 'replaces a module (vi.mock)'],
  [/\bvi\.stub(Global|Env)\(/, 'replaces a global or an environment variable (vi.stubGlobal / vi.stubEnv)'],
  [/\bvi\.spyOn\(/, 'wraps a shared object (vi.spyOn)'],
  [/process\.env(\.[A-Za-z_]+|\[[^\]]+\])\s*=[^=]|delete process\.env/, 'sets process.env for the process'],
  [/\b(globalThis|global)\.[A-Za-z_$]+\s*=[^=]/, 'sets a global'],
];

/**
 * The global setups of vitest.config.ts: they run in vitest's main process before the workers fork, so
 * what they set (TMPDIR: test/support/temp-root.ts) is the whole run's, the same for every worker and file.
 */
function globalSetups(): Set<string> {
  const config = readFileSync(join(ROOT, 'vitest.config.ts'), 'utf8');
  const list = /globalSetup:\s*\[([^\]]*)\]/.exec(config)?.[1] ?? '';
  return new Set([...list.matchAll(/'([^']+)'/g)].map((m) => relative(ROOT, resolve(ROOT, m[1]!))));
}

describe('test files leave the shared worker as they found it', () => {
  const here = relative(ROOT, fileURLToPath(import.meta.url));
  const setups = globalSetups();
  const files = testSources(join(ROOT, 'test')).filter((f) => relative(ROOT, f) !== here && !setups.has(relative(ROOT, f)));

  it('reads the global setups from vitest.config.ts', () => {
    expect([...setups]).toEqual(expect.arrayContaining(['test/support/temp-root.ts', 'test/support/compiled-cli.ts']));
  });

  it('no file replaces a module, a global or an environment variable', () => {
    const found: string[] = [];
    for (const f of files) {
      const text = readFileSync(f, 'utf8');
      for (const [re, what] of LEAKS) if (re.test(text)) found.push(`${relative(ROOT, f)} ${what}`);
    }
    expect(found).toEqual([]);
  });

  it('a file that fakes the clock gives it back', () => {
    const unrestored = files.filter((f) => {
      const text = readFileSync(f, 'utf8');
      return text.includes('useFakeTimers') && !text.includes('useRealTimers');
    });
    expect(unrestored.map((f) => relative(ROOT, f))).toEqual([]);
  });

  it('finds what it looks for (a file that mocks a module is named)', () => {
    const sample = "vi.mock('../../src/client/client.js');\nprocess.env.SPGATE_X = '1';";
    expect(LEAKS.filter(([re]) => re.test(sample)).map(([, what]) => what)).toEqual([
      'replaces a module (vi.mock)',
      'sets process.env for the process',
    ]);
  });
});
