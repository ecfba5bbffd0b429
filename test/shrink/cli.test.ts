/**
 * `spgate shrink` and `spgate replay --times` through the real CLI against the reference server: bad input
 * is one line with the documented exit code and nothing half-written; SIGINT keeps the best schedule so
 * far; replay reports the reproduction rate and the timing fidelity, in text and JSON.
 */
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { parseProfile } from '../../src/load/profile.js';
import { analyzeRateLimits } from '../../src/ratelimit/analyze.js';
import { readTrace } from '../../src/trace/reader.js';
import { traceToSamples } from '../../src/trace/samples.js';
import { runProfile } from '../../src/load/run.js';
import { startReferenceServer, type FaultName, type RunningReferenceServer } from '../../src/reference/index.js';
import { targetFromInput } from '../../src/target/resolve.js';
import { errorLines, runCli, stackFrames } from '../support/cli.js';
import { tempDir, writeJson } from '../support/target-file.js';

let server: RunningReferenceServer | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

/** A reference server with `faults`, a target file for it, and a trace of a 2 s open-model read run. */
async function recorded(faults: FaultName[], rate = 20) {
  server = await startReferenceServer({ faults, budgets: { read: 10, write: 5, windowSeconds: 1 } });
  const dir = tempDir('spgate-shrink-cli-');
  const input = server.describe({ budgets: false });
  const targetPath = writeJson(dir, 'target.json', input);
  const trace = join(dir, 'trace.ndjson');
  const profile = parseProfile(
    { name: 'rec', description: 'record', model: 'open', duration: 2, classes: { read: { routes: [{ route: 'me' }], rate } } },
    'rec',
  );
  // The recording is the user's input: on a loaded machine a short run may not show the fault's violation,
  // and a user would shrink a trace that does, so with faults the harness records until one does (three runs).
  for (let i = 0; i < 3; i++) {
    await runProfile({ target: targetFromInput(input, 'ref'), profile, tracePath: trace });
    if (faults.length === 0 || analyzeRateLimits(traceToSamples(await readTrace(trace))).violations.length > 0) break;
    await new Promise((r) => setTimeout(r, 1200));
  }
  return { dir, targetPath, trace, key: input.keys.admin!.key };
}

function oneLine(run: { stderr: string; stdout: string }) {
  return {
    errors: errorLines(run.stderr).map((l) => `spgate: ${/SPGATE_ERR_[A-Z_]+/.exec(l)![0]}`),
    frames: stackFrames(run.stdout + run.stderr),
  };
}

describe('spgate shrink, bad input', () => {
  it('a trace with no violation: exit 2, SPGATE_ERR_NO_VIOLATION, nothing sent or written', async () => {
    const { dir, targetPath, trace } = await recorded([]);
    const out = join(dir, 'min.ndjson');
    const run = await runCli(['shrink', trace, '--target', targetPath, '--trace-out', out]);
    expect({ code: run.code, ...oneLine(run) }).toEqual({ code: 2, errors: ['spgate: SPGATE_ERR_NO_VIOLATION'], frames: [] });
    expect(existsSync(out)).toBe(false);
  });

  it('a broken HAR, and a HAR without one API entry: exit 2, SPGATE_ERR_HAR_INVALID', async () => {
    const dir = tempDir('spgate-shrink-cli-');
    const broken = join(dir, 'broken.har');
    writeFileSync(broken, '{"log": {"entries": [');
    const empty = writeJson(dir, 'empty.har', {
      log: {
        version: '1.2',
        entries: [
          {
            startedDateTime: '2026-01-05T10:00:00Z',
            request: { method: 'GET', url: 'https://app.example.test/' },
            response: { status: 200, headers: [] },
          },
        ],
      },
    });
    for (const file of [broken, empty]) {
      const run = await runCli(['shrink', file, '--trace-out', join(dir, 'min.ndjson')]);
      expect({ code: run.code, ...oneLine(run) }).toEqual({ code: 2, errors: ['spgate: SPGATE_ERR_HAR_INVALID'], frames: [] });
    }
    const analyze = await runCli(['analyze', empty]);
    expect(analyze.stderr).toContain('no usable entries');
  });

  it('an unreachable target: exit 3, SPGATE_ERR_TARGET_UNREACHABLE', async () => {
    const { dir, trace } = await recorded(['ratelimit-reset-ms']);
    await server!.close();
    const dead = writeJson(dir, 'dead.json', { ...server!.describe({ budgets: false }), baseUrl: server!.baseUrl });
    server = undefined;
    const out = join(dir, 'min.ndjson');
    const run = await runCli(['shrink', trace, '--target', dead, '--trace-out', out]);
    expect({ code: run.code, ...oneLine(run) }).toEqual({ code: 3, errors: ['spgate: SPGATE_ERR_TARGET_UNREACHABLE'], frames: [] });
    expect(existsSync(out)).toBe(false);
  });

  it('a violation that does not reproduce against the target (the fault is fixed): exit 3, nothing written', async () => {
    const { dir, targetPath, trace } = await recorded(['ratelimit-reset-ms']);
    server!.setFaults([]);
    const out = join(dir, 'min.ndjson');
    const run = await runCli(['shrink', trace, '--target', targetPath, '--trace-out', out, '--attempts', '2'], { timeoutMs: 60_000 });
    expect({ code: run.code, ...oneLine(run) }).toEqual({ code: 3, errors: ['spgate: SPGATE_ERR_NOT_REPRODUCED'], frames: [] });
    expect(run.stderr).toContain('did not show in 2 replay(s) of the original');
    expect(existsSync(out)).toBe(false);
    expect(existsSync(join(dir, 'min.html'))).toBe(false);
  });

  it('a budget that is not full again within --max-wait (Reset an epoch time): exit 3, SPGATE_ERR_BUDGET_NOT_REFILLED', async () => {
    const { dir, targetPath, trace } = await recorded(['ratelimit-reset-epoch']);
    const out = join(dir, 'min.ndjson');
    const run = await runCli(['shrink', trace, '--target', targetPath, '--trace-out', out, '--max-wait', '5'], { timeoutMs: 60_000 });
    expect({ code: run.code, ...oneLine(run) }).toEqual({ code: 3, errors: ['spgate: SPGATE_ERR_BUDGET_NOT_REFILLED'], frames: [] });
    expect(run.stderr).toMatch(/beyond --max-wait 5 s/);
    expect(existsSync(out)).toBe(false);
  });
});

describe('spgate shrink, interrupted', () => {
  it('SIGINT keeps the best schedule so far: outputs written, exit 3', async () => {
    const { dir, targetPath, trace, key } = await recorded(['ratelimit-reset-ms']);
    const out = join(dir, 'min.ndjson');
    const json = join(dir, 'shrink.json');
    const run = await runCli(['shrink', trace, '--target', targetPath, '--trace-out', out, '--json', json, '--attempts', '2'], {
      timeoutMs: 90_000,
      interrupt: { when: /kept: /, signal: 'SIGINT' },
    });
    expect({ code: run.code, errors: errorLines(run.stderr) }).toEqual({ code: 3, errors: [] });
    const summary = JSON.parse(readFileSync(json, 'utf8')) as {
      stopped: string;
      minimal: { requests: number };
      original: { requests: number };
    };
    expect(summary.stopped).toBe('interrupted');
    expect(summary.minimal.requests).toBeLessThan(summary.original.requests);
    expect(readFileSync(out, 'utf8').trim().split('\n').length).toBeGreaterThan(0);
    expect(run.stdout + readFileSync(out, 'utf8')).not.toContain(key);
  });
});

describe('spgate replay --times', () => {
  it('reports "reproduced k/N" and the send-time fidelity, in text and JSON', async () => {
    const { dir, targetPath, trace } = await recorded(['ratelimit-reset-ms'], 10);
    const json = join(dir, 'replay.json');
    const run = await runCli(['replay', trace, '--target', targetPath, '--times', '3', '--json', json], { timeoutMs: 60_000 });
    expect({ code: run.code, errors: errorLines(run.stderr) }).toEqual({ code: 1, errors: [] });
    expect(run.stdout).toContain('reproduced 3/3 (8.ratelimit.reset-plausible on read (key admin))');
    expect(run.stdout).toMatch(/send-time error p50 [\d.]+ ms, p95 [\d.]+ ms, p99 [\d.]+ ms, max [\d.]+ ms \(\d+ requests\)/);
    const out = JSON.parse(readFileSync(json, 'utf8')) as {
      attempts: number;
      reproduced: number;
      fidelity: { count: number };
      perAttempt: unknown[];
    };
    expect({ attempts: out.attempts, reproduced: out.reproduced, per: out.perAttempt.length }).toEqual({
      attempts: 3,
      reproduced: 3,
      per: 3,
    });
    expect(out.fidelity.count).toBeGreaterThan(0);
  });

  it('counts an attempt that does not show the violation', async () => {
    const { targetPath, trace } = await recorded(['ratelimit-reset-ms'], 10);
    server!.setFaults([]);
    const run = await runCli(['replay', trace, '--target', targetPath, '--times', '2'], { timeoutMs: 60_000 });
    expect({ out: run.stdout, errors: errorLines(run.stderr) }).toMatchObject({ errors: [] });
    expect(run.stdout).toContain('reproduced 0/2 (8.ratelimit.reset-plausible on read (key admin))');
    expect(run.code).toBe(0);
  });

  it('refuses a --times that is not a whole number from 1', async () => {
    const run = await runCli(['replay', 'x.ndjson', '--times', '0']);
    expect({ code: run.code, ...oneLine(run) }).toEqual({ code: 2, errors: ['spgate: SPGATE_ERR_USAGE'], frames: [] });
  });
});
