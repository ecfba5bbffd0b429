/**
 * The spgate children of the tests run this run's bundled CLI (test/support/compiled-cli.ts): one bundle
 * in dist/'s layout, holding the package's own dependencies, and it answers as bin/spgate.js does.
 */
import { readFileSync, readdirSync } from 'node:fs';
import { isBuiltin } from 'node:module';
import { dirname, join, relative } from 'node:path';
import { describe, expect, it, type TestContext } from 'vitest';
import { BIN, cliEntry, runCli } from '../support/cli.js';

const ROOT = join(import.meta.dirname, '../..');

/** First line of each test: under SPGATE_TEST_CLI=source there is no compiled CLI to look at. */
function needBuild(ctx: TestContext): void {
  if (cliEntry() === BIN) ctx.skip('SPGATE_TEST_CLI=source: the children run bin/spgate.js, nothing was compiled');
}

describe('the compiled CLI of a test run', () => {
  it('is a bundle at src/cli/ one level below the package root, importing only Node and the packages it does not ship', (ctx) => {
    needBuild(ctx);
    const dir = dirname(cliEntry());
    const out = dirname(dirname(dir));
    expect(dirname(out)).toBe(ROOT);
    expect(relative(ROOT, out)).toMatch(/^\.scratch-cli-\d+$/);
    expect(relative(out, cliEntry())).toBe(join('src', 'cli', 'main.js'));
    const code = readdirSync(dir)
      .filter((f) => f.endsWith('.js'))
      .map((f) => readFileSync(join(dir, f), 'utf8'))
      .join('\n');
    const imported = new Set([...code.matchAll(/(?:\bfrom|\bimport\(|\brequire\()\s*"([@a-z][\w@/.:-]*)"/g)].map((m) => m[1]!));
    const packages = [...imported].filter((name) => !isBuiltin(name)).sort();
    const pkg = JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as Record<string, Record<string, string>>;
    // The optional chartjs-node-canvas and the OpenTelemetry peers load from node_modules, present or not.
    const notShipped = Object.keys({ ...pkg.optionalDependencies, ...pkg.peerDependencies });
    expect(packages.length).toBeGreaterThan(0);
    for (const name of packages) expect(notShipped, name).toContain(name);
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
