/** The real CLI: `spgate analyze` on generated traces (clean, buggy, broken) and `spgate replay` on the reference server. */
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { sampleToRecord } from '../../src/trace/samples.js';
import { simulate, type Bug } from '../ratelimit/simulators.js';
import { runCli } from '../support/cli.js';

const dir = mkdtempSync(join(tmpdir(), 'spgate-cli-'));

/** This run's compiled CLI (bin/spgate.js through tsx has tests of its own: test/build, test/cli/commands-index). */
async function spgate(args: string[]): Promise<{ code: number; stdout: string; stderr: string }> {
  const r = await runCli(args, { timeoutMs: 60_000 });
  return { code: r.code ?? 99, stdout: r.stdout, stderr: r.stderr };
}

function traceFile(name: string, bug: Bug): string {
  const samples = simulate({
    model: 'fixed',
    bug,
    limit: 10,
    windowMs: 1000,
    count: 90,
    meanGapMs: 30,
    minLatencyMs: 1,
    maxLatencyMs: 5,
    reportBefore: false,
    lazyWindows: false,
    startOffsetMs: 0,
    classes: ['read'],
    seed: 7,
  });
  const path = join(dir, name);
  writeFileSync(path, samples.map((s) => JSON.stringify(sampleToRecord(s, 'GET', '/customers'))).join('\n') + '\n');
  return path;
}

// Each case reads its own trace file: side by side, the children's start-up overlaps.
describe.concurrent('spgate analyze', () => {
  it('exits 0 and summarises a clean trace', async () => {
    const json = join(dir, 'clean.json');
    const r = await spgate(['analyze', traceFile('clean.ndjson', 'none'), '--json', json]);
    expect(r.stderr).toBe('');
    expect(r.code).toBe(0);
    expect(r.stdout).toMatch(/^read: Limit 10, fixed 1 s windows; \d+ windows; 10 admitted per exhausted window/m);
    expect(r.stdout).toContain('No rate-limit violations.');
    expect(JSON.parse(readFileSync(json, 'utf8')).violations).toEqual([]);
  });

  it('exits 1 and cites the rule, window and responses of a broken limiter', async () => {
    const r = await spgate(['analyze', traceFile('over.ndjson', 'over-admit')]);
    expect(r.code).toBe(1);
    expect(r.stdout).toMatch(/✗ 8\.ratelimit\.over-admission \(§8, spec\) \[read\]: 15 requests admitted in one window of a budget of 10/);
    expect(r.stdout).toMatch(/window: \d+\.\d{3} s – \d+\.\d{3} s/);
    expect(r.stdout).toMatch(/at \d+\.\d{3} s {2}200 {2}read {2}req_\d+/);
  });

  it('reports a stated budget the headers contradict; the announced one drives unless --strict', async () => {
    const path = traceFile('clean2.ndjson', 'none');
    const r = await spgate(['analyze', path, '--read-limit', '8', '--window', '1']);
    expect(r.code).toBe(1);
    expect(r.stdout).toMatch(
      /✗ 8\.ratelimit\.stated-budget \(§8, assumed\) \[read\]: stated budget 8 per 1 s, but the responses announce RateLimit-Limit 10/,
    );
    expect(r.stdout).toContain('(stated 8 per 1 s; the announced budget drives)');
    expect(r.stdout).not.toContain('8.ratelimit.over-admission');
    const strict = await spgate(['analyze', path, '--read-limit', '8', '--window', '1', '--strict']);
    expect(strict.code).toBe(1);
    expect(strict.stdout).toContain('8.ratelimit.over-admission');
    expect(strict.stdout).toContain('(stated 8 per 1 s; the stated budget drives)');
  });

  it('exits 2 with the file and line of a bad record', async () => {
    const path = join(dir, 'broken.ndjson');
    writeFileSync(path, '{"t":0,"latency":1,"class":"read","method":"GET","path":"/","status":200}\n{"t":"soon"}\n');
    const r = await spgate(['analyze', path]);
    expect(r.code).toBe(2);
    expect(r.stderr.trim()).toMatch(/^spgate: SPGATE_ERR_TRACE_INVALID: .*broken\.ndjson:2: not a trace record/);
  });
});

describe('spgate replay', () => {
  it('replays a short trace into the embedded reference server and compares', async () => {
    const path = join(dir, 'replay.ndjson');
    const lines = [];
    for (let i = 0; i < 30; i++) {
      lines.push(
        JSON.stringify({
          t: i * 20,
          latency: 2,
          class: 'read',
          method: 'GET',
          path: '/customers',
          status: 200,
          limit: '10',
          remaining: '5',
          reset: '1',
          key: 'admin',
        }),
      );
    }
    writeFileSync(path, lines.join('\n') + '\n');
    const out = join(dir, 'replayed.ndjson');
    const r = await spgate(['replay', path, '--trace-out', out]);
    expect(r.stderr).toBe('');
    expect(r.stdout).toContain('Replayed 30 of 30 requests against the embedded reference server');
    expect(r.stdout).toContain('Violations before → after replay:');
    const replayed = readFileSync(out, 'utf8')
      .trim()
      .split('\n')
      .map((l) => JSON.parse(l) as { status: number; limit?: string });
    expect(replayed).toHaveLength(30);
    // 0.6 s of traffic meets one or two 1 s windows, more when a loaded machine stretches the replay; the
    // budget (10 a window) is what must show: some admitted, the rest refused, and no violation after replay.
    const admitted = replayed.filter((x) => x.status === 200).length;
    expect(admitted).toBeGreaterThanOrEqual(10);
    expect(admitted).toBeLessThan(30);
    expect(replayed.filter((x) => x.status === 429)).toHaveLength(30 - admitted);
    expect(replayed.every((x) => x.limit === '10')).toBe(true);
    expect(r.code).toBe(0);
  });

  it('refuses a trace longer than --max-duration before sending anything', async () => {
    const path = join(dir, 'long.ndjson');
    writeFileSync(
      path,
      [0, 120_000].map((t) => JSON.stringify({ t, latency: 1, class: 'read', method: 'GET', path: '/me', status: 200 })).join('\n'),
    );
    const r = await spgate(['replay', path]);
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(/lasts 120\.0 s at speed 1, above the 60 s limit/);
  });
});
