import { spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createServer } from 'node:net';
import { afterAll, describe, expect, it } from 'vitest';
import { TargetFile } from '../../src/target/schema.js';
import { cliEntry } from '../support/cli.js';

const root = join(import.meta.dirname, '../..');
const dir = mkdtempSync(join(tmpdir(), 'spgate-serve-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

interface Run {
  code: number | null;
  stdout: string;
  stderr: string;
}

/** Runs `spgate serve` until its first stdout line, calls `during`, then sends SIGTERM. */
function serve(args: string[], during?: (line: string) => Promise<void>): Promise<Run> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [cliEntry(), 'serve', ...args], { cwd: root, stdio: ['ignore', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    let started = false;
    const timer = setTimeout(() => child.kill('SIGKILL'), 30_000);
    child.stderr.on('data', (d: Buffer) => (stderr += d.toString()));
    child.stdout.on('data', (d: Buffer) => {
      stdout += d.toString();
      if (!started && stdout.includes('\n')) {
        started = true;
        (during ? during(stdout.split('\n')[0]!) : Promise.resolve()).then(
          () => child.kill('SIGTERM'),
          (err: unknown) => {
            child.kill('SIGKILL');
            reject(err as Error);
          },
        );
      }
    });
    child.on('error', reject);
    child.on('exit', (code) => {
      clearTimeout(timer);
      resolve({ code, stdout, stderr });
    });
  });
}

describe('spgate serve', () => {
  it('prints the bound URL (never a key), writes the target file, serves requests and exits 0 on SIGTERM', async () => {
    const file = join(dir, 'target.json');
    let status = 0;
    let keys: string[] = [];
    const run = await serve(['--port', '0', '--target-out', file, '--seed', '3', '--read-budget', '50'], async (line) => {
      const url = /(http:\/\/127\.0\.0\.1:\d+\/v1)/.exec(line)?.[1];
      expect(url).toBeDefined();
      const target = TargetFile.parse(JSON.parse(readFileSync(file, 'utf8')));
      expect(target.baseUrl).toBe(url);
      expect(target.assumptions.rateLimit.read?.limit).toBe(50);
      keys = Object.values(target.keys).map((k) => k!.key);
      const res = await fetch(`${url}/customers?limit=3`, { headers: { authorization: `Bearer ${target.keys.admin.key}` } });
      status = res.status;
      expect(res.headers.get('ratelimit-limit')).toBe('50');
    });
    expect(status).toBe(200);
    expect(run.code).toBe(0);
    expect(run.stdout).toMatch(/^spgate reference server listening on http:\/\/127\.0\.0\.1:\d+\/v1\n$/);
    for (const k of keys) expect(run.stdout + run.stderr).not.toContain(k);
  });

  it('refuses an unknown fault with a usage error naming it', async () => {
    const run = await serve(['--port', '0', '--fault', 'no-such-fault']);
    expect(run.code).toBe(2);
    expect(run.stderr).toContain('SPGATE_ERR_USAGE');
    expect(run.stderr).toContain('no-such-fault');
    expect(run.stderr).toContain('cursor-lenient');
  });

  it('reports a port in use in one line', async () => {
    const blocker = createServer();
    await new Promise<void>((r) => blocker.listen(0, '127.0.0.1', r));
    const port = (blocker.address() as { port: number }).port;
    try {
      const run = await serve(['--port', String(port)]);
      expect(run.code).toBe(2);
      expect(run.stderr.trim().split('\n')).toHaveLength(1);
      expect(run.stderr).toContain(`port ${port}`);
    } finally {
      blocker.close();
    }
  });

  it('serves a dialect without the fixtures API and writes an ids-only target without budgets', async () => {
    const file = join(dir, 'dialect-target.json');
    let fixtures = 0;
    const run = await serve(
      ['--port', '0', '--dialect', 'token-bucket', '--no-fixtures-api', '--omit-budgets', '--seed', '5', '--target-out', file],
      async (line) => {
        const url = /(http:\/\/127\.0\.0\.1:\d+)\/v1/.exec(line)![1]!;
        fixtures = (await fetch(`${url}/_fixtures/ids`)).status;
      },
    );
    expect(run.code).toBe(0);
    expect(run.stdout).toContain('(dialect: token-bucket)');
    expect(fixtures).toBe(404);
    const target = TargetFile.parse(JSON.parse(readFileSync(file, 'utf8')));
    expect(target.fixtures.api).toBeUndefined();
    expect(target.fixtures.ids.pools?.customers?.length).toBeGreaterThan(0);
    expect(target.assumptions.rateLimit).toEqual({});
    expect(target.assumptions.resolvePath).toBe('/conversations/{conversationId}/resolution');
    expect(target.assumptions.turnStatus.cancelled).toBe('canceled');
  });

  it('refuses an unknown dialect with a usage error listing the valid ones', async () => {
    const run = await serve(['--port', '0', '--dialect', 'klingon']);
    expect(run.code).toBe(2);
    expect(run.stderr).toContain('klingon');
    expect(run.stderr).toContain('strict-validation');
  });
});
