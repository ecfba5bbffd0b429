/**
 * The package's root folder (the one holding package.json, profiles/ and schemas/), the same whether spgate
 * runs from its sources (src/…) or compiled (dist/src/…, one level deeper): files shipped beside the code are
 * found from here, never by counting `../` from a module's own place.
 */
import { existsSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

const here = dirname(fileURLToPath(import.meta.url));

/** Absolute path of the package root. */
export const PACKAGE_ROOT: string = existsSync(join(here, '..', 'package.json')) ? resolve(here, '..') : resolve(here, '..', '..');

/** True when this code runs compiled (from dist/), false when it runs from the TypeScript sources. */
export const COMPILED: boolean = import.meta.url.endsWith('.js');

/** An absolute path inside the package root. */
export function packagePath(...parts: string[]): string {
  return join(PACKAGE_ROOT, ...parts);
}

/**
 * The script a child spgate process (a `--workers` shard) is started with: the compiled CLI when this process
 * runs compiled, so no child pays for a TypeScript compiler; bin/spgate.js (the sources through tsx) otherwise.
 */
export const CLI_ENTRY: string = fileURLToPath(
  COMPILED ? new URL('./cli/main.js', import.meta.url) : new URL('../bin/spgate.js', import.meta.url),
);
