/**
 * `npm test`: vitest, with the typecheck and the lint beside it rather than before it.
 *
 * - Through its first two minutes vitest leaves about 70 CPU-seconds idle on the 2-core machine: its long
 *   files wait on limiter windows, sockets and children (30 Nov, /proc/stat every 5 s). The typecheck and the
 *   typed lint need about 66 CPU-seconds (tsc 26, eslint 40) and took 40 s before vitest started.
 * - They run at the lowest CPU priority, nice 19, below the test files that yield (nice 5,
 *   test/support/priority.ts), so they take what the tests leave idle and never hold up a timed file. At
 *   nice 5 they filled the first 75 s of the run, where the shrink limiter cases search and measure (30 Nov),
 *   and a per-replica case's final measurement reproduced 7 times in 10 where its search had kept the
 *   schedule on 7 in 7.
 * - Their output is held and printed after vitest's, in full when one fails, so it never tears vitest's live
 *   output. `npm test` exits non-zero when vitest or either of them fails.
 * - Arguments go to vitest (`npm test -- test/shrink`); the typecheck and the lint always judge the whole tree.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';

const ROOT = join(import.meta.dirname, '../..');

/** A check's outcome: its exit code, its whole output, its wall time. */
interface Outcome {
  code: number;
  output: string;
  seconds: number;
}

/** Every child started, for passing on a SIGTERM. */
const children: ChildProcess[] = [];

/** The nice value of the typecheck and the lint. */
const CHECKS_NICE = 19;

/** Runs an npm script at CHECKS_NICE (where `nice` exists) with its output held. */
function check(script: string): Promise<Outcome> {
  const args = ['run', '--silent', script];
  const t0 = Date.now();
  const child =
    process.platform === 'win32'
      ? spawn('npm', args, { cwd: ROOT, stdio: ['ignore', 'pipe', 'pipe'], shell: true })
      : spawn('nice', ['-n', String(CHECKS_NICE), 'npm', ...args], { cwd: ROOT, stdio: ['ignore', 'pipe', 'pipe'] });
  children.push(child);
  return outcome(child, t0);
}

/** Collects a child's piped output, if any, and resolves on its exit (a spawn failure is an exit of 127 saying so). */
function outcome(child: ChildProcess, t0: number): Promise<Outcome> {
  let output = '';
  child.stdout?.on('data', (d: Buffer) => (output += d.toString()));
  child.stderr?.on('data', (d: Buffer) => (output += d.toString()));
  return new Promise((resolve) => {
    child.on('error', (err) => resolve({ code: 127, output: `${output}${err.message}\n`, seconds: (Date.now() - t0) / 1000 }));
    child.on('close', (code, signal) =>
      resolve({ code: code ?? (signal ? 128 : 1), output: signal ? `${output}(${signal})\n` : output, seconds: (Date.now() - t0) / 1000 }),
    );
  });
}

/** vitest's own script, run by this Node at its own priority with the terminal's output; resolves to its exit code. */
async function vitest(args: string[]): Promise<number> {
  const pkgPath = createRequire(import.meta.url).resolve('vitest/package.json');
  const bin = (JSON.parse(readFileSync(pkgPath, 'utf8')) as { bin: { vitest: string } }).bin.vitest;
  const child = spawn(process.execPath, [join(dirname(pkgPath), bin), 'run', ...args], { cwd: ROOT, stdio: 'inherit' });
  children.push(child);
  return (await outcome(child, Date.now())).code;
}

// Ctrl-C reaches every process of the terminal's group: vitest stops its workers and reports, and this
// process waits for it. A SIGTERM (a CI job cancelled) is passed on.
process.on('SIGINT', () => {});
process.on('SIGTERM', () => {
  for (const child of children) child.kill('SIGTERM');
});

const checks = Promise.all([check('typecheck'), check('lint')]);
const tests = await vitest(process.argv.slice(2));
const [typecheck, lint] = await checks;
let code = tests;
for (const [name, result] of [
  ['typecheck', typecheck],
  ['lint', lint],
] as const) {
  const took = `${Math.round(result.seconds)} s, beside the tests`;
  if (result.code === 0) process.stdout.write(`${name}: passed (${took})\n`);
  else {
    process.stdout.write(`\n${name}: FAILED (exit ${result.code}, ${took}):\n${result.output.trimEnd()}\n`);
    code ||= result.code;
  }
}
process.exitCode = code;
