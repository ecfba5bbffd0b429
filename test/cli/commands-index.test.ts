/**
 * The command index loads command modules lazily: its lines equal the modules' own, `spgate --help` and
 * `--version` import none of the heavy libraries, and a command line imports only the module it names.
 */
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync, existsSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { commands, selectedCommand } from '../../src/cli/commands/index.js';
import { BIN } from '../support/cli.js';

const HEAVY = /\/node_modules\/(undici|autocannon|fast-check|chart\.js|zod|hdr-histogram-js|yaml)\//;

let dir: string;

beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), 'spgate-lazy-'));
  // A module hook recording every file URL the process resolves, so the test sees what a command line loads.
  writeFileSync(
    join(dir, 'hooks.mjs'),
    [
      "import { appendFileSync } from 'node:fs';",
      'export async function resolve(specifier, context, next) {',
      '  const r = await next(specifier, context);',
      "  if (process.env.SPGATE_TEST_LOADED) appendFileSync(process.env.SPGATE_TEST_LOADED, r.url + '\\n');",
      '  return r;',
      '}',
    ].join('\n'),
  );
  writeFileSync(
    join(dir, 'register.mjs'),
    `import { register } from 'node:module';\nregister(${JSON.stringify(pathToFileURL(join(dir, 'hooks.mjs')).href)});\n`,
  );
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));

/** Runs the CLI with the recording hook; returns the exit code and the resolved URLs. */
function loadedBy(args: string[], name: string): { code: number | null; urls: string[]; stdout: string } {
  const log = join(dir, `${name}.log`);
  const r = spawnSync(process.execPath, ['--import', pathToFileURL(join(dir, 'register.mjs')).href, BIN, ...args], {
    env: { ...process.env, SPGATE_TEST_LOADED: log, NO_COLOR: '1' },
    encoding: 'utf8',
    timeout: 60_000,
  });
  const urls = existsSync(log) ? readFileSync(log, 'utf8').split('\n').filter(Boolean) : [];
  return { code: r.status, urls, stdout: r.stdout };
}

describe('the command index', () => {
  it("keeps each entry's usage and description equal to its module's", async () => {
    for (const entry of commands) {
      const cmd = await entry.load();
      expect(cmd.command, entry.name).toBe(entry.command);
      expect(cmd.describe, entry.name).toBe(entry.describe);
      expect(entry.command.split(' ')[0]).toBe(entry.name);
    }
  });

  it('selects the command by the first word of the line, and none for flags alone', () => {
    expect(selectedCommand(['--help'])).toBeUndefined();
    expect(selectedCommand(['--version'])).toBeUndefined();
    expect(selectedCommand([])).toBeUndefined();
    expect(selectedCommand(['compare', 'a.json', 'b.json'])?.name).toBe('compare');
    expect(selectedCommand(['--help', 'load'])?.name).toBe('load');
    expect(selectedCommand(['nope'])).toBeUndefined();
  });

  it('--help and --version import no heavy library and no command module', () => {
    for (const flag of ['--help', '--version']) {
      const r = loadedBy([flag], flag.slice(2));
      expect(r.code).toBe(0);
      expect(r.urls.some((u) => u.includes('/src/cli/main.ts'))).toBe(true);
      expect(r.urls.filter((u) => HEAVY.test(u))).toEqual([]);
      expect(r.urls.filter((u) => /\/src\/cli\/commands\/(?!index)/.test(u))).toEqual([]);
    }
    expect(loadedBy(['--help'], 'help2').stdout).toContain('spgate conformance');
  });

  it('a command line imports only the module of the command it names', () => {
    const r = loadedBy(['compare', '--help'], 'compare');
    expect(r.code).toBe(0);
    const modules = r.urls.filter((u) => /\/src\/cli\/commands\/(?!index)/.test(u)).map((u) => u.replace(/.*\/commands\//, ''));
    expect([...new Set(modules)]).toEqual(['compare.ts']);
  });
});
