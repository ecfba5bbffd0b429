import { describe, expect, it } from 'vitest';
import { mkdtempSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Results } from '../../src/results/schema.js';
import { configErrorOf, parseWorkers, workerFailure, type WorkerOutcome } from '../../src/distributed/workers.js';
import { runCli, stackFrames } from '../support/cli.js';

/** A short profile whose thresholds any working server meets (the merged verdict is what is tested). */
function profileFile(dir: string, duration: number): string {
  const file = join(dir, 'short.json');
  writeFileSync(
    file,
    JSON.stringify({
      name: 'short',
      description: 'reads for the workers tests',
      model: 'closed',
      duration,
      classes: { read: { connections: 2, routes: [{ route: 'me' }] } },
      thresholds: ['completed > 0', '5xx == 0', 'transport == 0'],
    }),
  );
  return file;
}

/** The pid of the running worker process for shard `index` of the CLI run `parent`, if it has started. */
function workerPid(parent: number, index: number): number | undefined {
  for (const name of readdirSync('/proc')) {
    if (!/^\d+$/.test(name)) continue;
    try {
      const stat = readFileSync(`/proc/${name}/stat`, 'utf8');
      const ppid = Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1]);
      if (ppid !== parent) continue;
      const argv = readFileSync(`/proc/${name}/cmdline`, 'utf8').split('\0');
      if (argv.includes('--shard') && argv[argv.indexOf('--shard') + 1] === `${index}/2`) return Number(name);
    } catch {
      // The process ended while we looked.
    }
  }
  return undefined;
}

describe('spgate load --workers (real CLI, embedded reference server)', () => {
  it('--workers 2 runs two shard processes and merges them: every response counted once, one verdict', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'spgate-workers-'));
    const json = join(dir, 'w.json');
    const trace = join(dir, 'w.ndjson');
    const r = await runCli(['load', '--profile', profileFile(dir, 1), '--workers', '2', '--json', json, '--trace', trace], {
      timeoutMs: 90_000,
    });
    expect(r.code, r.stderr + r.stdout).toBe(0);
    expect(stackFrames(r.stdout + r.stderr)).toEqual([]);
    const doc = Results.parse(JSON.parse(readFileSync(json, 'utf8')));
    const p = doc.load[0]!;
    expect(doc.verdict).toBe('passed');
    expect(doc.meta.target.embedded).toBe(true);
    expect(p.merged).toEqual({ count: 2, shards: [0, 1], missing: [] });
    expect(p.totals.completed).toBeGreaterThan(0);
    // The merged trace holds every response of both workers, on one clock.
    const lines = readFileSync(trace, 'utf8').split('\n').filter(Boolean);
    expect(lines).toHaveLength(p.totals.completed + p.totals.errors);
    expect(p.latency.reduce((a, s) => a + s.count, 0)).toBe(p.totals.completed);
    // Connection churn goes through the one assembler too: each worker opened its one connection at least.
    expect(p.connections!.opened).toBeGreaterThanOrEqual(2);
    expect(p.connections!.perSecond).toBe(Math.round((p.connections!.opened / (p.durationMs / 1000)) * 10) / 10);
    // No key reaches the results or the trace.
    expect(readFileSync(json, 'utf8') + lines.join('\n')).not.toMatch(/pk_[A-Za-z0-9]{6,}/);
  });

  it('a worker that crashes: the merged result is incomplete and names it, exit 3', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'spgate-workers-'));
    const json = join(dir, 'crash.json');
    let killed = false;
    const run = runCli(['load', '--profile', profileFile(dir, 6), '--workers', '2', '--json', json], { timeoutMs: 90_000 });
    // The CLI's pid is not exposed by runCli: find the worker by its arguments among all processes.
    const deadline = Date.now() + 60_000;
    while (!killed && Date.now() < deadline) {
      await new Promise((r) => setTimeout(r, 200));
      for (const name of readdirSync('/proc').filter((n) => /^\d+$/.test(n))) {
        const pid = workerPid(Number(name), 1);
        if (pid !== undefined && readFileSync(`/proc/${pid}/cmdline`, 'utf8').includes(dir)) {
          process.kill(pid, 'SIGKILL');
          killed = true;
          break;
        }
      }
    }
    const r = await run;
    expect(killed).toBe(true);
    expect(r.code, r.stderr).toBe(3);
    expect(r.stderr).toContain('incomplete: shard 1/2 (worker 1 killed by SIGKILL');
    const doc = Results.parse(JSON.parse(readFileSync(json, 'utf8')));
    expect(doc.load[0]!.merged).toEqual({ count: 2, shards: [0], missing: [1] });
    expect(doc.verdict).toBe('error');
  });
});

describe('spgate load --workers: interrupted', () => {
  it('SIGINT stops every worker; each writes what it has; the merged result is aborted, exit 3', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'spgate-workers-'));
    const json = join(dir, 'int.json');
    const r = await runCli(['load', '--profile', profileFile(dir, 30), '--workers', '2', '--json', json], {
      timeoutMs: 90_000,
      interrupt: { when: /\[shard 0\/2\] .*sent /, signal: 'SIGINT', delayMs: 300 },
    });
    expect(r.timedOut).toBe(false);
    expect(r.code, r.stderr).toBe(3);
    expect(stackFrames(r.stdout + r.stderr)).toEqual([]);
    const doc = Results.parse(JSON.parse(readFileSync(json, 'utf8')));
    expect(doc.meta.aborted).toBe(true);
    expect(doc.load[0]!.status).toBe('aborted');
    expect(doc.load[0]!.merged).toEqual({ count: 2, shards: [0, 1], missing: [] });
    expect(doc.load[0]!.durationMs).toBeLessThan(30_000);
  });
});

describe('worker bookkeeping', () => {
  it('--workers takes 1..8 or auto', () => {
    expect(parseWorkers('3')).toBe(3);
    expect(parseWorkers('auto')).toBe('auto');
    expect(parseWorkers('')).toBe('auto');
    for (const bad of ['0', '9', '-1', 'two', '1.5']) expect(() => parseWorkers(bad)).toThrow(/--workers/);
  });

  it('a configuration error every worker hits is rethrown with its own code; a crash is described', () => {
    const base = { json: 'j', trace: 't', signal: null } as const;
    const outcomes: WorkerOutcome[] = [
      { ...base, index: 0, code: 2, ok: false, error: 'spgate: SPGATE_ERR_TARGET_INVALID: t.json: baseUrl: bad' },
      { ...base, index: 1, code: 0, ok: true },
    ];
    expect(configErrorOf(outcomes)?.code).toBe('SPGATE_ERR_TARGET_INVALID');
    expect(configErrorOf([outcomes[1]!])).toBeUndefined();
    expect(workerFailure({ ...base, index: 3, code: null, signal: 'SIGKILL', ok: false })).toBe(
      'worker 3 killed by SIGKILL, no results written',
    );
  });
});
