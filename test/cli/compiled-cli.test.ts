/**
 * The spgate children of the tests run this run's compiled sources (test/support/compiled-cli.ts): every
 * source file is there, in dist/'s layout, and the compiled CLI answers as bin/spgate.js does.
 */
import { readdirSync } from 'node:fs';
import { dirname, join, relative } from 'node:path';
import { describe, expect, it, type TestContext } from 'vitest';
import { BIN, cliEntry, runCli } from '../support/cli.js';

const ROOT = join(import.meta.dirname, '../..');

/** First line of each test: under SPGATE_TEST_CLI=source there is no compiled CLI to look at. */
function needBuild(ctx: TestContext): void {
  if (cliEntry() === BIN) ctx.skip('SPGATE_TEST_CLI=source: the children run bin/spgate.js, nothing was compiled');
}

/** Paths under dir (relative to it) of the files ending in ext, without the extension. */
function modules(dir: string, ext: string): string[] {
  return readdirSync(dir, { recursive: true, encoding: 'utf8' })
    .filter((f) => f.endsWith(ext))
    .map((f) => f.slice(0, -ext.length))
    .sort();
}

describe('the compiled CLI of a test run', () => {
  it('holds every module of src/ and suites/, one level below the package root', (ctx) => {
    needBuild(ctx);
    const out = dirname(dirname(dirname(cliEntry())));
    expect(dirname(out)).toBe(ROOT);
    expect(relative(ROOT, out)).toMatch(/^\.scratch-cli-\d+$/);
    for (const dir of ['src', 'suites']) expect(modules(join(out, dir), '.js')).toEqual(modules(join(ROOT, dir), '.ts'));
  });

  it('answers --version and a usage error as bin/spgate.js does', async (ctx) => {
    needBuild(ctx);
    const [viaBuild, viaBin] = await Promise.all([runCli(['--version']), runCli(['--version'], { bin: BIN })]);
    expect(viaBuild.code).toBe(0);
    expect(viaBuild.stdout).toBe(viaBin.stdout);
    const [badBuild, badBin] = await Promise.all([
      runCli(['load', '--profile', 'smoke', '--bogus']),
      runCli(['load', '--profile', 'smoke', '--bogus'], { bin: BIN }),
    ]);
    expect({ code: badBuild.code, stderr: badBuild.stderr }).toEqual({
      code: 2,
      stderr: 'spgate: SPGATE_ERR_USAGE: Unknown argument: bogus\n',
    });
    expect({ code: badBin.code, stderr: badBin.stderr }).toEqual({ code: badBuild.code, stderr: badBuild.stderr });
  });
});
