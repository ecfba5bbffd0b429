/**
 * Wall time of the main job, `spgate run` on the embedded reference server, as a user runs
 * it (a child process of the real CLI). Issue target: ≤ 120 s on a 2-core machine.
 */
import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

const BIN = fileURLToPath(new URL('../bin/spgate.js', import.meta.url));

/** Runs `spgate run --seed 1` once into a temporary folder and reports its duration. */
export async function bench(): Promise<Record<string, number>> {
  const out = mkdtempSync(join(tmpdir(), 'spgate-bench-run-'));
  try {
    const started = performance.now();
    const child = spawn(process.execPath, [BIN, 'run', '--seed', '1', '--out', out], {
      env: { ...process.env, CI: 'true' },
      stdio: ['ignore', 'ignore', 'inherit'],
    });
    const code = await new Promise<number>((resolve, reject) => {
      child.once('error', reject);
      child.once('exit', (c) => resolve(c ?? -1));
    });
    const seconds = (performance.now() - started) / 1000;
    console.log(`spgate run: exit ${code} in ${seconds.toFixed(1)} s`);
    if (code !== 0) throw new Error(`spgate run exited ${code}`);
    return { mainJobSeconds: seconds };
  } finally {
    rmSync(out, { recursive: true, force: true });
  }
}
