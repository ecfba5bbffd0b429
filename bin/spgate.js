#!/usr/bin/env node
// One rule picks what runs: a source checkout (src/ is here) runs the TypeScript sources through tsx, so
// `npm ci` needs no build step and an edit is never hidden by a stale build; the published package ships no
// src/, only the compiled dist/ (`npm run build`), and runs that without tsx or any dev dependency.
import { existsSync } from 'node:fs';

const source = new URL('../src/cli/main.ts', import.meta.url);
if (existsSync(source)) {
  let tsx;
  try {
    tsx = await import('tsx/esm/api');
  } catch {
    // tsx is a dev dependency: a checkout installed with --omit=dev has none (the GitHub Action installs it beside bin/).
    process.stderr.write(
      'spgate: SPGATE_ERR_USAGE: this checkout runs its TypeScript sources through tsx, a dev dependency: run npm ci (or use the built package)\n',
    );
    process.exit(2);
  }
  tsx.register();
  await import(source.href);
} else {
  await import('../dist/src/cli/main.js');
}
