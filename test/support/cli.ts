/**
 * Runs the real spgate CLI as a child process with a hard time bound, optionally sending a
 * signal once the run is under way. Every run is killed after `timeoutMs`, so a hang fails a test instead
 * of stalling the suite; `timedOut` says it happened.
 */
import { spawn } from 'node:child_process';
import { join } from 'node:path';
import { inject } from 'vitest';

export const BIN = join(import.meta.dirname, '../../bin/spgate.js');

/** The script a test starts spgate with: this run's compiled CLI (test/support/compiled-cli.ts), else bin/spgate.js. */
export function cliEntry(): string {
  return inject('spgateCli') || BIN;
}

export interface CliRun {
  code: number | null;
  signal: NodeJS.Signals | null;
  stdout: string;
  stderr: string;
  /** Wall time from spawn to exit, ms. */
  ms: number;
  /** True when the run had to be killed at the time bound. */
  timedOut: boolean;
}

export interface CliOptions {
  cwd?: string;
  env?: NodeJS.ProcessEnv;
  /** Hard bound; the child is SIGKILLed after it (default 40 s). */
  timeoutMs?: number;
  /** The script to run instead of spgate's CLI (e.g. the GitHub Action's step, bin/spgate-action.js). */
  bin?: string;
  /** Sends `signal` `delayMs` after `when` matches stdout+stderr (default: right away). */
  interrupt?: { when: RegExp; signal: NodeJS.Signals; delayMs?: number };
}

/** Runs spgate's CLI (`cliEntry()`) with `args` and resolves when it exits (or is killed at the bound). */
export function runCli(args: string[], opts: CliOptions = {}): Promise<CliRun> {
  return new Promise((resolve, reject) => {
    const t0 = Date.now();
    const child = spawn(process.execPath, [opts.bin ?? cliEntry(), ...args], {
      cwd: opts.cwd,
      env: { ...process.env, NO_COLOR: '1', SPGATE_DEBUG: '', ...opts.env },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let stdout = '';
    let stderr = '';
    let timedOut = false;
    let interrupt = opts.interrupt;
    const watch = (): void => {
      if (interrupt && interrupt.when.test(stdout + stderr)) {
        const { signal, delayMs = 0 } = interrupt;
        interrupt = undefined;
        setTimeout(() => child.kill(signal), delayMs);
      }
    };
    child.stdout.on('data', (d: Buffer) => {
      stdout += d.toString();
      watch();
    });
    child.stderr.on('data', (d: Buffer) => {
      stderr += d.toString();
      watch();
    });
    const guard = setTimeout(() => {
      timedOut = true;
      child.kill('SIGKILL');
    }, opts.timeoutMs ?? 40_000);
    child.on('error', reject);
    child.on('close', (code, signal) => {
      clearTimeout(guard);
      resolve({ code, signal, stdout, stderr, ms: Date.now() - t0, timedOut });
    });
  });
}

/** Stack-trace frames ("    at fn (file:1:2)") in a CLI's output: spgate must never print one. */
export function stackFrames(text: string): string[] {
  return text.split('\n').filter((l) => /^\s+at\s.+(\(|:\d+)/.test(l));
}

/** Lines on stderr that are spgate's one-line errors (`spgate: SPGATE_ERR_…: …`). */
export function errorLines(stderr: string): string[] {
  return stderr.split('\n').filter((l) => /^spgate: SPGATE_ERR_[A-Z_]+: /.test(l));
}
