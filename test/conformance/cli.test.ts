/** End to end: the real CLI against the embedded reference server. */
import { execFile } from 'node:child_process';
import { mkdtemp, readFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { Results } from '../../src/results/schema.js';

const BIN = join(import.meta.dirname, '../../bin/spgate.js');

function spgate(args: string[]): Promise<{ code: number; stdout: string; stderr: string }> {
  return new Promise((resolve) => {
    execFile(process.execPath, [BIN, ...args], { timeout: 60_000 }, (err, stdout, stderr) => {
      resolve({ code: err ? (typeof err.code === 'number' ? err.code : 99) : 0, stdout, stderr });
    });
  });
}

describe('spgate conformance', () => {
  it('runs a suite, exits 0 and writes a valid results document without keys', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'spgate-conf-'));
    const file = join(dir, 'r.json');
    const r = await spgate(['conformance', '--suite', 'auth', '--runs', '3', '--seed', '9', '--json', file]);
    expect(r.stderr).toBe('');
    expect(r.code).toBe(0);
    expect(r.stdout).toContain('auth');
    expect(r.stdout).toContain('seed 9');
    const text = await readFile(file, 'utf8');
    const doc = Results.parse(JSON.parse(text));
    expect(doc.verdict).toBe('passed');
    expect(doc.meta.seed).toBe(9);
    expect(doc.checks.length).toBeGreaterThan(5);
    expect(doc.checks.every((c) => c.suite === 'auth')).toBe(true);
    expect(text).not.toMatch(/pk_[A-Za-z0-9_]{8,}/);
  });

  it('rejects an unknown suite with exit 2 and the valid names', async () => {
    const r = await spgate(['conformance', '--suite', 'nope']);
    expect(r.code).toBe(2);
    expect(r.stderr).toContain('SPGATE_ERR_SUITE_UNKNOWN');
    expect(r.stderr).toContain('pagination');
  });
});
