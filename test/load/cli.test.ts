import { describe, expect, it } from 'vitest';
import { spawn } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Results } from '../../src/results/schema.js';
import { cliEntry } from '../support/cli.js';

function runCli(
  args: string[],
  opts: { interruptAfterMs?: number } = {},
): Promise<{ code: number | null; stdout: string; stderr: string }> {
  return new Promise((resolve) => {
    const child = spawn(process.execPath, [cliEntry(), ...args], { stdio: ['ignore', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (d: Buffer) => (stdout += d.toString()));
    child.stderr.on('data', (d: Buffer) => {
      stderr += d.toString();
      // Interrupt once the run is really sending (first progress line), not while the CLI is still loading.
      if (opts.interruptAfterMs !== undefined && stderr.includes('sent ')) {
        setTimeout(() => child.kill('SIGINT'), opts.interruptAfterMs);
        opts.interruptAfterMs = undefined;
      }
    });
    const guard = setTimeout(() => child.kill('SIGKILL'), 45_000);
    child.on('close', (code) => {
      clearTimeout(guard);
      resolve({ code, stdout, stderr });
    });
  });
}

// Each child embeds its own reference server: the cases run side by side, except smoke, whose latency
// threshold (p95 < 250ms) must not measure three other children starting on a 2-core machine.
describe('spgate load (real CLI, embedded reference server)', () => {
  it('runs smoke and writes a valid results document', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'spgate-cli-'));
    const json = join(dir, 'f.json');
    const r = await runCli(['load', '--profile', 'smoke', '--duration', '1', '--json', json]);
    expect(r.code, r.stderr).toBe(0);
    expect(r.stdout).toContain('profile smoke (open model) — passed');
    expect(r.stdout).toContain('✓ 5xx == 0 (actual 0)');
    const doc = Results.parse(JSON.parse(readFileSync(json, 'utf8')));
    expect(doc.verdict).toBe('passed');
    expect(doc.load[0]!.name).toBe('smoke');
    expect(doc.load[0]!.totals.sent).toBeGreaterThan(0);
  });

  it.concurrent('exits 1 naming a breached threshold', async ({ expect }) => {
    const dir = mkdtempSync(join(tmpdir(), 'spgate-cli-'));
    const file = join(dir, 'strict.json');
    writeFileSync(
      file,
      JSON.stringify({
        name: 'strict',
        description: 'a threshold no server meets',
        model: 'open',
        duration: 1,
        classes: { read: { rate: 10, routes: [{ route: 'me' }] } },
        thresholds: ['completed > 1000000'],
      }),
    );
    const r = await runCli(['load', '--profile', file, '--duration', '1']);
    expect(r.code).toBe(1);
    expect(r.stdout).toMatch(/✗ completed > 1000000 \(actual \d+\)/);
  });

  it.concurrent('exits 2 with one line for an unknown profile, sending nothing', async ({ expect }) => {
    const r = await runCli(['load', '--profile', 'no-such-profile']);
    expect(r.code).toBe(2);
    expect(r.stderr.trim().split('\n')).toHaveLength(1);
    expect(r.stderr).toContain('SPGATE_ERR_PROFILE_UNKNOWN');
    expect(r.stderr).toContain('smoke');
  });

  it.concurrent('stops on SIGINT, writes partial results and exits 3', async ({ expect }) => {
    const dir = mkdtempSync(join(tmpdir(), 'spgate-cli-'));
    const json = join(dir, 'partial.json');
    const r = await runCli(['load', '--profile', 'soak', '--json', json], { interruptAfterMs: 300 });
    expect(r.code, r.stderr).toBe(3);
    expect(existsSync(json)).toBe(true);
    const doc = Results.parse(JSON.parse(readFileSync(json, 'utf8')));
    expect(doc.meta.aborted).toBe(true);
    expect(doc.load[0]!.status).toBe('aborted');
    expect(doc.load[0]!.durationMs).toBeLessThan(10_000);
  });
});
