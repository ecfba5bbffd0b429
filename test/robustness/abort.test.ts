/**
 * SIGINT and SIGTERM during `conformance`, `load` and `run` (real CLI, embedded reference server): the run
 * stops, writes partial results marked aborted (meta.aborted, verdict 'aborted'), renders the reports (run)
 * and exits 3 — promptly, with no stack trace.
 */
import { existsSync, readFileSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { Results } from '../../src/results/schema.js';
import { runCli, stackFrames, type CliRun } from '../support/cli.js';
import { tempDir } from '../support/target-file.js';

// From the signal to the exit: generous, but far below what the interrupted work would have taken.
const STOP_BOUND_MS = 15_000;

function readDoc(path: string): Results {
  expect(existsSync(path), `no results at ${path}`).toBe(true);
  return Results.parse(JSON.parse(readFileSync(path, 'utf8')));
}

function expectAbortedExit(run: CliRun, sig: NodeJS.Signals): void {
  expect(run.timedOut, run.stderr).toBe(false);
  expect(run.code, `exit code after ${sig}:\n${run.stderr}`).toBe(3);
  expect(stackFrames(run.stdout + run.stderr)).toEqual([]);
}

function expectAbortedDoc(doc: Results, sig: NodeJS.Signals): void {
  expect(doc.meta.aborted).toBe(true);
  expect(doc.verdict).toBe('aborted');
  expect(doc.meta.abortReason ?? '').toContain(sig);
}

// Each case is one child with its own embedded server and folder, interrupted by its own output: side by side.
describe.concurrent('aborting a run (real CLI)', () => {
  it.each([['SIGINT'], ['SIGTERM']] as const)('conformance: %s stops the suites and writes partial results', async (sig) => {
    const dir = tempDir();
    const json = join(dir, 'partial.json');
    const run = await runCli(['conformance', '--runs', '50', '--seed', '3', '--json', json], {
      interrupt: { when: /conformance: /, signal: sig, delayMs: 400 },
    });
    expectAbortedExit(run, sig);
    const doc = readDoc(json);
    expectAbortedDoc(doc, sig);
    // Partial: the run did not get through every check of every suite.
    expect(doc.checks.length).toBeLessThan(84);
    expect(run.ms).toBeLessThan(STOP_BOUND_MS + 10_000);
  });

  it.each([['SIGINT'], ['SIGTERM']] as const)('load: %s stops sending and writes partial results', async (sig) => {
    const dir = tempDir();
    const json = join(dir, 'partial.json');
    const out = join(dir, 'out');
    const run = await runCli(['load', '--profile', 'soak', '--json', json, '--out', out], {
      interrupt: { when: /sent [1-9]/, signal: sig, delayMs: 300 },
    });
    expectAbortedExit(run, sig);
    const doc = readDoc(json);
    expectAbortedDoc(doc, sig);
    const p = doc.load[0]!;
    expect(p.status).toBe('aborted');
    expect(p.totals.sent).toBeGreaterThan(0);
    // soak runs for minutes: an aborted one ends within seconds of the signal.
    expect(p.durationMs).toBeLessThan(STOP_BOUND_MS);
    // --out: results.json and the reports are still written.
    expect(readDoc(join(out, 'results.json')).verdict).toBe('aborted');
    expect(existsSync(join(out, 'index.html'))).toBe(true);
  });

  it.each([
    ['SIGINT', /conformance: started/],
    ['SIGTERM', /load smoke: started/],
  ] as const)(
    'run: %s writes results.json marked aborted and still renders the reports',
    async (sig, when) => {
      const base = tempDir();
      const run = await runCli(['run', '--out', base, '--runs', '3', '--seed', '5'], {
        interrupt: { when, signal: sig, delayMs: 400 },
        timeoutMs: 90_000,
      });
      expectAbortedExit(run, sig);
      expect(run.stdout).toMatch(/verdict: ABORTED/);
      const runDir = readdirSync(base).find((n) => n !== 'latest');
      expect(runDir).toBeDefined();
      const files = readdirSync(join(base, runDir!));
      expect(files).toEqual(expect.arrayContaining(['results.json', 'index.html', 'junit.xml', 'summary.md']));
      const doc = readDoc(join(base, runDir!, 'results.json'));
      expectAbortedDoc(doc, sig);
      // Stopped in its phase: the later load profiles never ran.
      expect(doc.load.length).toBeLessThan(4);
    },
    120_000,
  );
});
