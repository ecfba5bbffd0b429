/**
 * A reporter that throws does not lose results.json. The failure is injected for real: the file a
 * reporter must write already exists as a directory, so its write fails with EISDIR inside the CLI.
 */
import { existsSync, mkdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { Results } from '../../src/results/schema.js';
import { errorLines, runCli, stackFrames } from '../support/cli.js';
import { tempDir } from '../support/target-file.js';

describe('a failing reporter (real CLI)', () => {
  it('conformance --out: results.json is written, the other reports too, and the failure is one line (exit 1)', async () => {
    const out = join(tempDir(), 'out');
    mkdirSync(join(out, 'index.html'), { recursive: true });
    const run = await runCli(['conformance', '--suite', 'auth', '--runs', '2', '--seed', '1', '--out', out]);
    expect(run.timedOut).toBe(false);
    expect(stackFrames(run.stdout + run.stderr)).toEqual([]);
    const doc = Results.parse(JSON.parse(readFileSync(join(out, 'results.json'), 'utf8')));
    expect(doc.meta.command).toContain('conformance');
    expect(doc.checks.length).toBeGreaterThan(0);
    expect(existsSync(join(out, 'junit.xml'))).toBe(true);
    expect(existsSync(join(out, 'summary.md'))).toBe(true);
    const lines = errorLines(run.stderr);
    expect(lines).toHaveLength(1);
    expect(lines[0]).toMatch(/^spgate: SPGATE_ERR_REPORTER_FAILED: html reporter: /);
    expect(run.code).toBe(1);
  });

  it('report --from: a reporter that cannot write leaves the source results untouched and the rest rendered', async () => {
    const dir = tempDir();
    const first = join(dir, 'first');
    const seeded = await runCli(['conformance', '--suite', 'auth', '--runs', '2', '--seed', '1', '--out', first]);
    expect(seeded.code, seeded.stderr).toBe(0);
    const before = readFileSync(join(first, 'results.json'), 'utf8');
    const again = join(dir, 'again');
    mkdirSync(join(again, 'junit.xml'), { recursive: true });
    const run = await runCli(['report', '--from', join(first, 'results.json'), '--out', again, '--format', 'html,junit,markdown']);
    expect(run.code).toBe(1);
    expect(errorLines(run.stderr)).toEqual([expect.stringMatching(/^spgate: SPGATE_ERR_REPORTER_FAILED: junit reporter: /)]);
    expect(stackFrames(run.stdout + run.stderr)).toEqual([]);
    expect(existsSync(join(again, 'index.html'))).toBe(true);
    expect(existsSync(join(again, 'summary.md'))).toBe(true);
    expect(readFileSync(join(first, 'results.json'), 'utf8')).toBe(before);
  });
});
