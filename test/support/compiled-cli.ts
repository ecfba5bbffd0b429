/**
 * Vitest global setup: compiles src/ and suites/ once per test run, file by file (esbuild, no bundle), into
 * `.scratch-cli-<pid>/` at the package root — the layout of dist/, so PACKAGE_ROOT, the shipped profiles and
 * the `--workers` children (CLI_ENTRY) resolve exactly as in the published package. Every spgate child a test
 * starts then runs compiled: through bin/spgate.js each child paid tsx's loader hooks again (about 1.2 s of CPU
 * per spawn on the 2-core machine, a few hundred spawns per `npm test`). bin/spgate.js itself keeps tests of
 * its own (test/build, test/cli/commands-index); SPGATE_TEST_CLI=source runs every child through it instead.
 */
import { build } from 'esbuild';
import { readdirSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import type { TestProject } from 'vitest/node';

declare module 'vitest' {
  export interface ProvidedContext {
    /** Absolute path of the compiled CLI entry (`<root>/.scratch-cli-<pid>/src/cli/main.js`), or '' for bin/spgate.js. */
    spgateCli: string;
  }
}

const ROOT = join(import.meta.dirname, '../..');

/** Compiles the CLI for this run and provides its entry; the returned teardown removes the build. */
export default async function setup(project: TestProject): Promise<() => void> {
  if (process.env.SPGATE_TEST_CLI === 'source') {
    project.provide('spgateCli', '');
    return () => {};
  }
  const out = join(ROOT, `.scratch-cli-${process.pid}`);
  await compile(out);
  // Watch mode reruns after an edit: the children must run the edited sources, never a stale build.
  project.onTestsRerun(() => compile(out));
  project.provide('spgateCli', join(out, 'src/cli/main.js'));
  return () => rmSync(out, { recursive: true, force: true });
}

/** Compiles every .ts file of src/ and suites/ into `out`, keeping their paths (a file removed since is removed there too). */
async function compile(out: string): Promise<void> {
  rmSync(out, { recursive: true, force: true });
  const entryPoints = ['src', 'suites'].flatMap((dir) =>
    readdirSync(join(ROOT, dir), { recursive: true, encoding: 'utf8' })
      .filter((f) => f.endsWith('.ts'))
      .map((f) => join(ROOT, dir, f)),
  );
  await build({ entryPoints, outdir: out, outbase: ROOT, format: 'esm', platform: 'node', target: 'node20', logLevel: 'warning' });
}
