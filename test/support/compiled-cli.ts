/**
 * Vitest global setup: bundles the CLI once per test run (esbuild) into `.scratch-cli-<pid>/src/cli/` at the
 * package root, and every spgate child a test starts runs that bundle.
 *
 * - Through bin/spgate.js each child paid tsx's loader hooks again: about 1.2 s of CPU per spawn on the 2-core
 *   machine, a few hundred spawns per `npm test`.
 * - Compiled file by file, a child still spent about 0.45 s of CPU starting: Node's ESM loader resolving,
 *   reading and compiling some 400 modules, its own and its dependencies'. Bundled, with one chunk per command
 *   (the CLI loads only the command it runs), it spends about 0.3 s.
 * - The bundle holds the package's own `dependencies`; the optional, peer and dev packages stay outside it and
 *   load from node_modules as in the published package (chartjs-node-canvas, present or not; OpenTelemetry).
 * - A module that finds files from its own place (`import.meta.url`: the package root, the `--workers` child
 *   entry, chart.js) is given the URL it has in dist/'s layout (`<out>/src/…/x.js`), so these resolve exactly
 *   as in the published package; the bundle entry is `<out>/src/cli/main.js`, where CLI_ENTRY points.
 *
 * bin/spgate.js keeps tests of its own (test/build, test/cli/commands-index); SPGATE_TEST_CLI=source runs every
 * child through it instead.
 */
import { build, type Plugin } from 'esbuild';
import { readFileSync, rmSync } from 'node:fs';
import { join, relative } from 'node:path';
import { pathToFileURL } from 'node:url';
import type { TestProject } from 'vitest/node';

declare module 'vitest' {
  export interface ProvidedContext {
    /** Absolute path of the bundled CLI entry (`<root>/.scratch-cli-<pid>/src/cli/main.js`), or '' for bin/spgate.js. */
    spgateCli: string;
  }
}

const ROOT = join(import.meta.dirname, '../..');

/** Bundles the CLI for this run and provides its entry; the returned teardown removes the bundle. */
export default async function setup(project: TestProject): Promise<() => void> {
  if (process.env.SPGATE_TEST_CLI === 'source') {
    project.provide('spgateCli', '');
    return () => {};
  }
  const out = join(ROOT, `.scratch-cli-${process.pid}`);
  await bundle(out);
  // Watch mode reruns after an edit: the children must run the edited sources, never a stale bundle.
  project.onTestsRerun(() => bundle(out));
  project.provide('spgateCli', join(out, 'src/cli/main.js'));
  return () => rmSync(out, { recursive: true, force: true });
}

/** Bundles src/cli/main.ts into `<out>/src/cli/`, one chunk per lazily imported module. */
async function bundle(out: string): Promise<void> {
  rmSync(out, { recursive: true, force: true });
  await build({
    entryPoints: [join(ROOT, 'src/cli/main.ts')],
    outdir: join(out, 'src/cli'),
    bundle: true,
    splitting: true,
    format: 'esm',
    platform: 'node',
    target: 'node20',
    logLevel: 'warning',
    // The bundled CommonJS packages (undici, protobufjs, @actions/core) require Node's built-ins.
    banner: { js: "import { createRequire as __spgateRequire } from 'node:module'; const require = __spgateRequire(import.meta.url);" },
    plugins: [ownDependenciesOnly(), distLayoutMeta(out)],
  });
}

/** Leaves every package the sources import but the package's own `dependencies` to node_modules, as the published package does. */
function ownDependenciesOnly(): Plugin {
  const pkg = JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as { dependencies: Record<string, string> };
  const own = new Set(Object.keys(pkg.dependencies));
  return {
    name: 'own-dependencies-only',
    setup(b) {
      b.onResolve({ filter: /^[^./]/ }, (args) => {
        // What a bundled package imports is bundled with it; Node's built-ins are left to Node.
        if (args.path.startsWith('node:') || relative(ROOT, args.importer).startsWith('node_modules')) return undefined;
        const parts = args.path.split('/');
        const name = args.path.startsWith('@') ? parts.slice(0, 2).join('/') : parts[0];
        return own.has(name ?? '') ? undefined : { external: true };
      });
    },
  };
}

/** Gives each source module's `import.meta.url` (and dirname, filename) its value in dist/'s layout under `out`. */
function distLayoutMeta(out: string): Plugin {
  return {
    name: 'dist-layout-import-meta',
    setup(b) {
      b.onLoad({ filter: /\.ts$/ }, (args) => {
        if (relative(ROOT, args.path).startsWith('node_modules')) return undefined;
        const source = readFileSync(args.path, 'utf8');
        const file = join(out, relative(ROOT, args.path)).replace(/\.ts$/, '.js');
        const meta: Record<string, string> = { url: pathToFileURL(file).href, filename: file, dirname: join(file, '..') };
        const contents = source.replace(/\bimport\.meta\.(url|filename|dirname)\b/g, (_, key: string) => JSON.stringify(meta[key]));
        // Anything else on import.meta (resolve, a new field) would mean the bundle's place, not the module's.
        if (/\bimport\.meta\b/.test(contents.replace(/\/\/.*|\/\*[\s\S]*?\*\//g, '')))
          return { errors: [{ text: `${relative(ROOT, args.path)} uses import.meta beyond url, filename and dirname` }] };
        return { contents, loader: 'ts' };
      });
    },
  };
}
