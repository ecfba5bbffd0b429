/**
 * Caps and permission, proven where the traffic lands (a recording server) and through the real CLI:
 * remote targets must state maxRps, the engine never exceeds maxRps / maxRequests / maxDuration,
 * --dry-run sends nothing, writes need allowWrites, and a write run with a pk_live_ key warns once.
 */
import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startReferenceServer, type RunningReferenceServer } from '../../src/reference/index.js';
import { Results } from '../../src/results/schema.js';
import { errorLines, runCli, stackFrames, type CliRun } from '../support/cli.js';
import { peakInWindow, startRecordingServer, type RecordingServer } from '../support/recording-server.js';
import { tempDir, writeJson, writeTarget } from '../support/target-file.js';

// Each describe that counts at a recording server has its own, so the describes that only refuse, plan or warn
// run side by side (consecutive concurrent describes run together); the cap counts run alone.
let rec: RecordingServer;
beforeAll(async () => {
  rec = await startRecordingServer();
});
afterAll(async () => {
  await rec.close();
});

function expectOneLineExit2(run: CliRun, code: string, ...mentions: string[]): void {
  expect(run.timedOut).toBe(false);
  expect(run.code, run.stderr).toBe(2);
  const lines = run.stderr.split('\n').filter(Boolean);
  expect(lines, run.stderr).toHaveLength(1);
  expect(lines[0]).toMatch(new RegExp(`^spgate: ${code}: `));
  for (const m of mentions) expect(lines[0]).toContain(m);
  expect(stackFrames(run.stdout + run.stderr)).toEqual([]);
}

describe.concurrent('remote targets must state caps.maxRps', () => {
  it.each([[['conformance', '--suite', 'auth']], [['load', '--profile', 'smoke']], [['run']]])(
    '%j: exit 2 with one line naming the file and caps.maxRps',
    async (args) => {
      const dir = tempDir();
      const file = writeTarget(dir, 'https://api.support-platform.invalid/v1');
      const run = await runCli([...args, '--target', file, '--out', join(dir, 'out')]);
      expectOneLineExit2(run, 'SPGATE_ERR_CAPS_REQUIRED', file, 'caps.maxRps');
    },
  );
});

// Sequential and alone: the 950 ms peak is counted at arrival, which other processes' bursts would jitter.
describe.sequential('the load engine keeps to the caps (counted at the server)', () => {
  let rec: RecordingServer;
  beforeAll(async () => {
    rec = await startRecordingServer();
  });
  afterAll(async () => {
    await rec.close();
  });

  it('open model: maxRps and maxDuration hold even when the profile asks for more', async () => {
    const dir = tempDir();
    const file = writeTarget(dir, rec.url, { caps: { maxRps: 8, maxDuration: 2 } });
    const before = rec.apiRequests().length;
    // smoke wants 20 read rps for 10 s; the caps allow 8 rps for 2 s.
    const run = await runCli(['load', '--profile', 'smoke', '--duration', '10', '--target', file, '--json', join(dir, 'r.json')]);
    expect(run.code, run.stderr).not.toBe(2);
    const seen = rec.apiRequests().slice(before);
    expect(seen.length).toBeGreaterThan(0);
    // The engine holds any 1 s window of sends to 8; arrivals jitter by a few ms, hence 950 ms here.
    expect(peakInWindow(seen, 950)).toBeLessThanOrEqual(8);
    expect(seen.length).toBeLessThanOrEqual(8 * 2);
    const doc = Results.parse(JSON.parse(readFileSync(join(dir, 'r.json'), 'utf8')));
    const notes = doc.load[0]!.config.notes as string[];
    expect(notes.join('\n')).toMatch(/caps\.maxDuration 2s/);
    expect(notes.join('\n')).toMatch(/caps\.maxRps 8/);
    expect(seen.every((r) => r.method === 'GET')).toBe(true);
  });

  it('closed model: maxRequests holds', async () => {
    const dir = tempDir();
    const file = writeTarget(dir, rec.url, { caps: { maxRequests: 30, maxRps: 200 } });
    const before = rec.apiRequests().length;
    const run = await runCli(['load', '--profile', 'read-budget', '--duration', '2', '--target', file]);
    expect(run.code, run.stderr).not.toBe(2);
    const seen = rec.apiRequests().slice(before);
    expect(seen.length).toBeGreaterThan(0);
    expect(seen.length).toBeLessThanOrEqual(30);
  });
});

describe.concurrent('--dry-run prints the plan and sends nothing', () => {
  let rec: RecordingServer;
  beforeAll(async () => {
    rec = await startRecordingServer();
  });
  afterAll(async () => {
    await rec.close();
  });

  it.each([
    [['conformance', '--suite', 'auth,status'], /conformance: 2 suites/],
    [['load', '--profile', 'smoke'], /load smoke: open model · 10s/],
    [['run', '--runs', '3'], /phase 1 — conformance: \d+ suites[\s\S]*phase 2 — load smoke/],
  ])('%j', async (args, plan) => {
    const dir = tempDir();
    const file = writeTarget(dir, rec.url, { allowWrites: true, caps: { maxRps: 10 } });
    const before = rec.requests.length;
    const run = await runCli([...args, '--target', file, '--dry-run']);
    expect(run.code, run.stderr).toBe(0);
    expect(run.stdout).toMatch(/^dry run: nothing is sent to /m);
    expect(run.stdout).toMatch(plan);
    expect(run.stdout).toMatch(args[0] === 'conformance' ? /destructive/ : /caps: maxRps 10/);
    expect(rec.requests.length - before).toBe(0);
  });
});

describe.concurrent('writes need allowWrites: true', () => {
  let ref: RunningReferenceServer;
  let file: string;
  let dir: string;
  beforeAll(async () => {
    ref = await startReferenceServer({ seed: 11 });
    dir = tempDir();
    file = writeJson(dir, 'target.json', { ...ref.target, allowWrites: false });
  });
  afterAll(async () => {
    await ref.close();
  });

  it('conformance: destructive checks are skipped with the reason', async () => {
    const json = join(dir, 'c.json');
    const run = await runCli(['conformance', '--target', file, '--suite', 'status', '--runs', '2', '--seed', '1', '--json', json]);
    expect(run.code, run.stderr).toBe(0);
    const doc = Results.parse(JSON.parse(readFileSync(json, 'utf8')));
    const resolve = doc.checks.find((c) => c.checkId === 'status.resolve.default');
    expect(resolve?.status).toBe('skipped');
    expect(resolve?.reason).toMatch(/allowWrites/);
  });

  it('load: a write-only profile is refused with one line; a mixed one drops its write routes and says so', async () => {
    const refused = await runCli(['load', '--target', file, '--profile', 'write-budget', '--duration', '1']);
    expectOneLineExit2(refused, 'SPGATE_ERR_WRITES_NOT_ALLOWED', 'allowWrites');
    const json = join(dir, 'l.json');
    const mixed = await runCli(['load', '--target', file, '--profile', 'smoke', '--duration', '1', '--json', json]);
    expect(mixed.stdout).toContain('note: write routes left out: the target file does not set allowWrites');
    const doc = Results.parse(JSON.parse(readFileSync(json, 'utf8')));
    expect(doc.load[0]!.totals.byClass.write).toBe(0);
    expect(doc.load[0]!.totals.byClass.read).toBeGreaterThan(0);
  });
});

describe.concurrent('warnings reach the terminal once', () => {
  it('a write run with a legacy pk_live_ key warns that legacy keys do not isolate data', async () => {
    const dir = tempDir();
    const file = writeJson(dir, 't.json', {
      baseUrl: rec.url,
      allowWrites: true,
      keys: { admin: { key: 'pk_live_robust_admin_0123456789' } },
    });
    const readOnly = writeJson(dir, 'ro.json', { baseUrl: rec.url, keys: { admin: { key: 'pk_live_robust_admin_0123456789' } } });
    const dryArgs = [['conformance', '--suite', 'status'], ['load', '--profile', 'smoke'], ['run']];
    // Real runs (not only dry runs) print it once too, before sending.
    const realArgs = [
      ['conformance', '--suite', 'auth', '--runs', '1'],
      ['load', '--profile', 'smoke', '--duration', '1'],
    ];
    // The runs are independent: side by side.
    const [dry, real, [run]] = await Promise.all([
      Promise.all(dryArgs.map((args) => runCli([...args, '--target', file, '--dry-run']))),
      Promise.all(realArgs.map((args) => runCli([...args, '--target', file]))),
      // Without allowWrites nothing is written, so there is nothing to warn about.
      Promise.all([runCli(['conformance', '--suite', 'auth', '--target', readOnly, '--dry-run'])]),
    ]);
    dry.forEach((run, i) => {
      expect(run.code, run.stderr).toBe(0);
      const all = run.stdout + run.stderr;
      expect(
        all.match(/legacy pk_live_ key\(s\) \(admin\).*do(es)? not isolate data \(spec part 5\)/g),
        `${dryArgs[i]![0]}:\n${all}`,
      ).toHaveLength(1);
      expect(all).not.toContain('pk_live_robust_admin_0123456789');
    });
    real.forEach((run, i) => {
      expect(run.timedOut).toBe(false);
      const all = run.stdout + run.stderr;
      expect(all.match(/legacy pk_live_ key\(s\) \(admin\)/g), `${realArgs[i]![0]}:\n${all}`).toHaveLength(1);
      expect(all).not.toContain('pk_live_robust_admin_0123456789');
    });
    expect(run!.stdout + run!.stderr).not.toContain('pk_live_ key');
  });

  it('an inline key in a git-tracked target file is warned about once per command', async () => {
    const dir = tempDir();
    writeJson(dir, 'staging.json', {
      baseUrl: 'https://staging.support-platform.invalid/v1',
      caps: { maxRps: 5 },
      keys: { admin: { key: 'pk_inline_tracked_0123456789' } },
    });
    const git = (...a: string[]): void =>
      void execFileSync('git', ['-c', 'user.name=t', '-c', 'user.email=t@example.invalid', ...a], { cwd: dir, stdio: 'ignore' });
    git('init', '-q');
    git('add', 'staging.json');
    git('commit', '-qm', 'target');
    const cases = [['conformance'], ['load', '--profile', 'smoke'], ['run']];
    const runs = await Promise.all(cases.map((args) => runCli([...args, '--target', join(dir, 'staging.json'), '--dry-run'])));
    for (const [i, run] of runs.entries()) {
      const args = cases[i]!;
      expect(run.code, run.stderr).toBe(0);
      const all = run.stdout + run.stderr;
      expect(all.match(/is tracked by git and holds inline keys \(admin\)/g), `${args[0]}:\n${all}`).toHaveLength(1);
      expect(all).not.toContain('pk_inline_tracked_0123456789');
      expect(errorLines(run.stderr)).toEqual([]);
    }
  });
});
