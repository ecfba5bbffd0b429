/**
 * Re-run lines reproduce: a finding's printed command carries every option that shaped the run (target,
 * --base-url, suite, check, seed, runs), and running that exact line meets the same failure. The embedded
 * target started with a seed is the same server state every time (keys, ids, cursor secret).
 */
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { rerunCommand } from '../../src/conformance/reproduction.js';
import { openTarget } from '../../src/run/target.js';
import { startReferenceServer, type RunningReferenceServer } from '../../src/reference/index.js';
import type { Results } from '../../src/results/schema.js';
import { runCli } from '../support/cli.js';

/** The words of a shell line, as bash splits them. */
function words(line: string): string[] {
  const out = execFileSync('bash', ['-c', `args() { printf '%s\\0' "$@"; }; args ${line}`], { env: { PATH: process.env.PATH ?? '' } });
  return out.toString('utf8').split('\0').slice(0, -1);
}

describe('rerunCommand', () => {
  it('repeats the target, the --base-url override, the suite, the check, the seed and the runs', () => {
    const line = rerunCommand({
      suite: 'pagination',
      checkId: 'pagination.tampered-cursor',
      seed: 9,
      runs: 4,
      targetSource: "my targets/it's.json",
      baseUrlOverride: 'http://127.0.0.1:9/v1',
    });
    expect(words(line)).toEqual([
      'spgate',
      'conformance',
      '--target',
      "my targets/it's.json",
      '--base-url',
      'http://127.0.0.1:9/v1',
      '--suite',
      'pagination',
      '--check',
      'pagination.tampered-cursor',
      '--seed',
      '9',
      '--runs',
      '4',
    ]);
  });

  it('names no target for the embedded server, whose state the seed recreates', () => {
    expect(rerunCommand({ suite: 'auth', seed: 5, runs: 3, targetSource: 'embedded' })).toBe(
      'spgate conformance --suite auth --seed 5 --runs 3',
    );
  });
});

describe('the embedded target of a seed', () => {
  it('is the same server state every time: keys, fixture ids and the cursor secret', async () => {
    const firstPage = async (seed: number): Promise<{ keys: unknown; cursor: unknown; ids: unknown }> => {
      const { target, close } = await openTarget({ seed });
      try {
        const res = await fetch(`${target.baseUrl}/customers?limit=2`, { headers: { authorization: `Bearer ${target.secrets.admin}` } });
        const body = (await res.json()) as { nextCursor?: unknown };
        return { keys: target.secrets, cursor: body.nextCursor, ids: target.fixtures.ids };
      } finally {
        await close();
      }
    };
    const a = await firstPage(1234);
    const b = await firstPage(1234);
    expect(typeof a.cursor).toBe('string');
    expect(b).toEqual(a);
    expect((await firstPage(99)).keys).not.toEqual(a.keys);
  });
});

// The two re-run describes use servers and folders of their own: they run side by side.
describe.concurrent('a printed re-run line', () => {
  let clean: RunningReferenceServer;
  let faulty: RunningReferenceServer;
  let dir: string;
  beforeAll(async () => {
    // Same seed, same keys: only the base URL decides which server answers.
    clean = await startReferenceServer({ seed: 77 });
    faulty = await startReferenceServer({ seed: 77, faults: ['cursor-lenient'] });
    dir = mkdtempSync(join(tmpdir(), 'spgate-rerun-'));
    writeFileSync(join(dir, 'target.json'), JSON.stringify(clean.target));
  });
  afterAll(async () => {
    await Promise.all([clean.close(), faulty.close()]);
    rmSync(dir, { recursive: true, force: true });
  });

  it('aims through the same --base-url and meets the same finding (regression: --base-url was dropped)', async () => {
    const first = await runCli(
      [
        'conformance',
        '--target',
        'target.json',
        '--base-url',
        faulty.baseUrl,
        '--suite',
        'pagination',
        '--check',
        'pagination.tampered-cursor',
        '--seed',
        '3',
        '--runs',
        '5',
        '--json',
        'first.json',
      ],
      { cwd: dir },
    );
    expect(first.code, first.stderr).toBe(1);
    const results = JSON.parse(readFileSync(join(dir, 'first.json'), 'utf8')) as Results;
    const finding = results.findings[0]!;
    expect(finding.checkId).toBe('pagination.tampered-cursor');
    const line = finding.reproduction?.command ?? '';
    expect(line).toContain(`--base-url ${faulty.baseUrl}`);

    const [bin, ...args] = words(line);
    expect(bin).toBe('spgate');
    const again = await runCli([...args, '--json', 'again.json'], { cwd: dir });
    expect(again.code, again.stderr).toBe(1);
    const replayed = JSON.parse(readFileSync(join(dir, 'again.json'), 'utf8')) as Results;
    expect(replayed.findings.map((f) => [f.checkId, f.clause, f.expected])).toEqual(
      results.findings.map((f) => [f.checkId, f.clause, f.expected]),
    );
    expect(replayed.checks.map((c) => c.checkId)).toEqual(['pagination.tampered-cursor']);

    // The same line without the override reaches the clean server: the override is what reproduces.
    const withoutOverride = args.filter((_, i) => args[i] !== '--base-url' && args[i - 1] !== '--base-url');
    const clean = await runCli([...withoutOverride, '--json', 'clean.json'], { cwd: dir });
    expect(clean.code, clean.stderr).toBe(0);
  });
});

describe.concurrent("a load finding's printed re-run line", () => {
  let clean: RunningReferenceServer;
  let faulty: RunningReferenceServer;
  let dir: string;
  beforeAll(async () => {
    // A small budget in short windows, so a 3-s run crosses it in two whole windows at least: under a
    // starved machine (CI: 57 responses in one second) a window's edges blur and over-admission is judged
    // only on requests certainly inside it, so one whole window could go unjudged. Same seed, same keys on
    // both servers.
    const budgets = { read: 40, write: 20, windowSeconds: 1 };
    clean = await startReferenceServer({ seed: 78, budgets });
    faulty = await startReferenceServer({ seed: 78, budgets, faults: ['ratelimit-over-admit'] });
    dir = mkdtempSync(join(tmpdir(), 'spgate-load-rerun-'));
    writeFileSync(join(dir, 'target.json'), JSON.stringify(clean.target));
  });
  afterAll(async () => {
    await Promise.all([clean.close(), faulty.close()]);
    rmSync(dir, { recursive: true, force: true });
  });

  it('keeps the target, --base-url and duration, writes the trace it names, and meets the violation again (regression: pasted, it ran against the embedded server and passed)', async () => {
    const first = await runCli(
      [
        'load',
        '--profile',
        'read-budget',
        '--target',
        'target.json',
        '--base-url',
        faulty.baseUrl,
        '--duration',
        '3',
        '--json',
        'first.json',
      ],
      { cwd: dir, timeoutMs: 120_000 },
    );
    expect(first.code, first.stderr).toBe(1);
    const results = JSON.parse(readFileSync(join(dir, 'first.json'), 'utf8')) as Results;
    const p = results.load[0]!;
    // The log names every threshold with ✓/✗ and its actual value, and the violations with window and request ids.
    for (const t of p.thresholds) expect(first.stdout).toContain(`${t.ok ? '✓' : '✗'} ${t.expression} (actual ${t.actual})`);
    expect(first.stdout).toMatch(/✗ §8 8\.ratelimit\.over-admission \(read.*· window \d+\.\d–\d+\.\d s · requests req_\w+/);
    const finding = results.findings.find((f) => f.clause === '8.ratelimit.over-admission')!;
    const line = finding.reproduction!.command!;
    expect(first.stdout).toContain(`re-run: ${line}`);
    expect(finding.reproduction!.curl.join('\n')).toMatch(/first violating request: req_\w+/);
    const [bin, ...args] = words(line);
    expect(bin).toBe('spgate');
    expect(args).toEqual([
      'load',
      '--profile',
      'read-budget',
      '--target',
      'target.json',
      '--base-url',
      faulty.baseUrl,
      '--duration',
      '3',
      '--trace',
      'spgate-trace.ndjson',
    ]);

    const again = await runCli([...args, '--json', 'again.json'], { cwd: dir, timeoutMs: 120_000 });
    expect(again.code, again.stderr).toBe(1);
    const replayed = JSON.parse(readFileSync(join(dir, 'again.json'), 'utf8')) as Results;
    expect(replayed.findings.map((f) => f.clause)).toContain('8.ratelimit.over-admission');
    // The trace the comment lines name for replay and shrink exists now.
    expect(readFileSync(join(dir, 'spgate-trace.ndjson'), 'utf8').length).toBeGreaterThan(0);
    expect(again.stdout).toContain('# trace of this run: spgate-trace.ndjson');
  });
});
