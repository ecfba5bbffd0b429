import { beforeAll, describe, expect, it } from 'vitest';
import { copyFileSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Results } from '../../src/results/schema.js';
import { writeResults } from '../../src/results/io.js';
import { errorLines, runCli, stackFrames, type CliRun } from '../support/cli.js';
import { limiterTraces, writeShard } from './support/synthetic.js';

let root: string;
/** A directory holding shard 0 and 1 of 2 of one synthetic run (shared limiter). */
let good: string;

beforeAll(async () => {
  root = mkdtempSync(join(tmpdir(), 'spgate-merge-cli-'));
  good = join(root, 'good');
  mkdirSync(good);
  const [a, b] = limiterTraces('shared', 2);
  await writeShard(good, 0, 2, a!);
  await writeShard(good, 1, 2, b!);
});

/** A fresh copy of the good run, to damage. */
function copyGood(name: string): string {
  const dir = join(root, name);
  mkdirSync(dir);
  for (const f of ['shard-0.json', 'shard-0.ndjson', 'shard-1.json', 'shard-1.ndjson']) copyFileSync(join(good, f), join(dir, f));
  return dir;
}

/** Exit 2, exactly one spgate error line with the code, no stack trace. */
function expectOneLine(r: CliRun, code: string): void {
  expect(r.timedOut).toBe(false);
  expect(r.code, r.stderr).toBe(2);
  expect(errorLines(r.stderr)).toHaveLength(1);
  expect(r.stderr).toContain(code);
  expect(stackFrames(r.stdout + r.stderr)).toEqual([]);
}

describe('spgate merge (real CLI)', () => {
  it('merges a complete run: exit 0, the merged results name every shard', async () => {
    const json = join(root, 'merged.json');
    const r = await runCli(['merge', join(good, 'shard-0.json'), join(good, 'shard-1.json'), '--json', json]);
    expect(r.code, r.stderr).toBe(0);
    expect(r.stdout).toContain('merged from 2 of 2 shards');
    const doc = Results.parse(JSON.parse(readFileSync(json, 'utf8')));
    expect(doc.verdict).toBe('passed');
    expect(doc.meta.command).toBe('merge');
    expect(doc.load[0]!.merged).toEqual({ count: 2, shards: [0, 1], missing: [] });
  });

  it('a missing shard: the merged result is incomplete and names it, exit 3 — never a partial figure presented as whole', async () => {
    const json = join(root, 'incomplete.json');
    const r = await runCli(['merge', join(good, 'shard-0.json'), '--json', json]);
    expect(r.code, r.stderr).toBe(3);
    expect(r.stderr).toContain('incomplete: shard 1/2 missing');
    const doc = Results.parse(JSON.parse(readFileSync(json, 'utf8')));
    expect(doc.verdict).toBe('error');
    expect(doc.load[0]!.merged).toEqual({ count: 2, shards: [0], missing: [1] });
    expect(doc.load[0]!.error).toContain('every figure covers shards 0 only');
  });

  it('the same shard twice is SPGATE_ERR_SHARD_MISMATCH', async () => {
    expectOneLine(await runCli(['merge', join(good, 'shard-0.json'), join(good, 'shard-0.json')]), 'SPGATE_ERR_SHARD_MISMATCH');
  });

  it.each([
    ['a different profile', { profile: 'other-profile' }],
    ['a different target', { baseUrl: 'http://127.0.0.2:9/v1' }],
  ])('results from %s are SPGATE_ERR_SHARD_MISMATCH', async (name, opts) => {
    const dir = join(root, `other-${name.replace(/\W+/g, '-')}`);
    mkdirSync(dir);
    const [, b] = limiterTraces('shared', 2);
    const other = await writeShard(dir, 1, 2, b!, opts);
    expectOneLine(await runCli(['merge', join(good, 'shard-0.json'), other]), 'SPGATE_ERR_SHARD_MISMATCH');
  });

  it('a different shard count is SPGATE_ERR_SHARD_MISMATCH', async () => {
    const dir = join(root, 'count3');
    mkdirSync(dir);
    const [, b] = limiterTraces('shared', 3);
    expectOneLine(await runCli(['merge', join(good, 'shard-0.json'), await writeShard(dir, 1, 3, b!)]), 'SPGATE_ERR_SHARD_MISMATCH');
  });

  it('a shard file that does not exist is SPGATE_ERR_FILE_NOT_FOUND', async () => {
    expectOneLine(await runCli(['merge', join(good, 'shard-0.json'), join(good, 'shard-7.json')]), 'SPGATE_ERR_FILE_NOT_FOUND');
  });

  it('a truncated shard results file is SPGATE_ERR_RESULTS_INVALID', async () => {
    const dir = copyGood('cut-json');
    const text = readFileSync(join(dir, 'shard-1.json'), 'utf8');
    writeFileSync(join(dir, 'shard-1.json'), text.slice(0, Math.floor(text.length / 2)));
    expectOneLine(await runCli(['merge', join(dir, 'shard-0.json'), join(dir, 'shard-1.json')]), 'SPGATE_ERR_RESULTS_INVALID');
  });

  it('a trace cut in the middle of a line is SPGATE_ERR_TRACE_INVALID naming the line', async () => {
    const dir = copyGood('cut-trace');
    const text = readFileSync(join(dir, 'shard-1.ndjson'), 'utf8');
    writeFileSync(join(dir, 'shard-1.ndjson'), text.slice(0, text.length - 20));
    const r = await runCli(['merge', join(dir, 'shard-0.json'), join(dir, 'shard-1.json')]);
    expectOneLine(r, 'SPGATE_ERR_TRACE_INVALID');
    expect(r.stderr).toMatch(/shard-1\.ndjson:\d+:/);
  });

  it('a trace cut at a line boundary (fewer responses than its results count) is SPGATE_ERR_SHARD_INVALID', async () => {
    const dir = copyGood('short-trace');
    const lines = readFileSync(join(dir, 'shard-0.ndjson'), 'utf8').split('\n').filter(Boolean);
    writeFileSync(join(dir, 'shard-0.ndjson'), lines.slice(0, -5).join('\n') + '\n');
    const r = await runCli(['merge', join(dir, 'shard-0.json'), join(dir, 'shard-1.json')]);
    expectOneLine(r, 'SPGATE_ERR_SHARD_INVALID');
    expect(r.stderr).toContain('cut short');
  });

  it('a missing trace is SPGATE_ERR_SHARD_INVALID', async () => {
    // Written afresh (not copied): the trace is then neither beside the results nor where the shard wrote it.
    const dir = join(root, 'no-trace');
    mkdirSync(dir);
    const [a, b] = limiterTraces('shared', 2);
    await writeShard(dir, 0, 2, a!);
    await writeShard(dir, 1, 2, b!);
    rmSync(join(dir, 'shard-1.ndjson'));
    expectOneLine(await runCli(['merge', join(dir, 'shard-0.json'), join(dir, 'shard-1.json')]), 'SPGATE_ERR_SHARD_INVALID');
  });

  it("a results file that is not a shard's is SPGATE_ERR_SHARD_INVALID", async () => {
    const doc = Results.parse(JSON.parse(readFileSync(join(good, 'shard-0.json'), 'utf8')));
    delete doc.load[0]!.shard;
    const plain = join(root, 'plain.json');
    await writeResults(plain, doc);
    expectOneLine(await runCli(['merge', plain, join(good, 'shard-1.json')]), 'SPGATE_ERR_SHARD_INVALID');
  });
});

describe('spgate load --shard / --workers: bad input is one line, exit 2, nothing sent', () => {
  it.each([
    [['--shard', '2/2', '--target', 't.json', '--json', 'x.json'], 'SPGATE_ERR_SHARD_INVALID'],
    [['--shard', '1of2', '--target', 't.json', '--json', 'x.json'], 'SPGATE_ERR_SHARD_INVALID'],
    [['--shard', '0/2', '--json', 'x.json'], 'SPGATE_ERR_USAGE'],
    [['--shard', '0/2', '--target', 't.json'], 'SPGATE_ERR_USAGE'],
    [['--shard', '0/2', '--workers', '2', '--target', 't.json', '--json', 'x.json'], 'SPGATE_ERR_USAGE'],
    [['--workers', '99'], 'SPGATE_ERR_USAGE'],
    [['--start-at', '1700000000000'], 'SPGATE_ERR_USAGE'],
    [['--shard', '0/2', '--start-at', '1700000000', '--target', 't.json', '--json', 'x.json'], 'SPGATE_ERR_USAGE'],
  ])('load %j → %s', async (args, code) => {
    expectOneLine(await runCli(['load', '--profile', 'smoke', ...args], { cwd: root }), code);
  });
});
