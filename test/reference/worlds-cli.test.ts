/**
 * `spgate serve --world`: the worlds reach the server from the command line, the one line names them, the
 * ids-only target file is the quiet one's, and a bad world is one SPGATE_ERR_USAGE line (exit 2).
 */
import { readFileSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { TargetFile } from '../../src/target/schema.js';
import { errorLines, runCli, stackFrames } from '../support/cli.js';
import { tempDir } from '../support/target-file.js';

const dir = tempDir('spgate-worlds-cli-');
afterAll(() => rmSync(dir, { recursive: true, force: true }));

/** Runs `spgate serve` until it prints its line, then SIGTERM. */
const serve = (args: string[]) => runCli(['serve', '--port', '0', ...args], { interrupt: { when: /listening on/, signal: 'SIGTERM' } });

describe('spgate serve --world', () => {
  it('starts in the named worlds (comma list, repeated, with options), says so, and writes the same ids as a quiet server', async () => {
    const quietFile = join(dir, 'quiet.json');
    const worldFile = join(dir, 'worlds.json');
    const quiet = await serve(['--seed', '3', '--no-fixtures-api', '--target-out', quietFile]);
    const run = await serve([
      '--seed',
      '3',
      '--no-fixtures-api',
      '--world',
      'big=2000,busy',
      '--world',
      'drifting=0',
      '--target-out',
      worldFile,
    ]);
    expect(quiet.code).toBe(0);
    expect(run.code).toBe(0);
    expect(run.stdout).toMatch(
      /^spgate reference server listening on http:\/\/127\.0\.0\.1:\d+\/v1 \(worlds: big=2000, busy=200ms, drifting=0ms\)\n$/,
    );
    const a = TargetFile.parse(JSON.parse(readFileSync(quietFile, 'utf8')));
    const b = TargetFile.parse(JSON.parse(readFileSync(worldFile, 'utf8')));
    expect(b.fixtures.api).toBeUndefined();
    expect(b.fixtures.ids).toEqual(a.fixtures.ids);
  });

  it('refuses an unknown world or a bad option with one usage line (exit 2), no stack trace', async () => {
    for (const bad of ['huge', 'big=lots', 'busy,sparse=2']) {
      const run = await runCli(['serve', '--port', '0', '--world', bad]);
      expect(run.code, bad).toBe(2);
      expect(errorLines(run.stderr), run.stderr).toHaveLength(1);
      expect(run.stderr).toMatch(/SPGATE_ERR_USAGE/);
      expect(stackFrames(run.stderr)).toEqual([]);
      if (bad === 'huge') expect(run.stderr).toContain('valid worlds: big, busy, drifting, sparse');
    }
  });
});
