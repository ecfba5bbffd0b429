/**
 * A key pool through the CLI: a dry run names every unset pool variable at once and goes on; a real run
 * spreads over the pool and no pool key reaches the console, results, reports or trace (each key named by
 * its place in the target file instead). Against a station behind a per-key limiter, 2 s of load.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { mkdtempSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { runCli } from '../support/cli.js';
import { STATION_KEY, startStation, stationPool, type Station } from './support/station.js';

let station: Station;
let dir: string;
beforeAll(async () => {
  station = await startStation(4, 10, { limit: 50, windowSeconds: 1 });
  dir = mkdtempSync(join(tmpdir(), 'spgate-pool-cli-'));
});
afterAll(async () => {
  await station.close();
  rmSync(dir, { recursive: true, force: true });
});

/** Every file under `root`, recursively. */
function filesUnder(root: string): string[] {
  return readdirSync(root).flatMap((f) => (statSync(join(root, f)).isDirectory() ? filesUnder(join(root, f)) : [join(root, f)]));
}

describe('spgate load with a key pool', () => {
  const pool = stationPool(3);
  const env = { SPG_ADMIN: STATION_KEY, SPG_P0: pool[0]!, SPG_P1: pool[1]!, SPG_P2: pool[2]! };

  beforeAll(() => {
    writeFileSync(
      join(dir, 'target.json'),
      JSON.stringify({ baseUrl: station.url, keys: { admin: { key: 'env:SPG_ADMIN', pool: ['env:SPG_P0', 'env:SPG_P1', 'env:SPG_P2'] } } }),
    );
    writeFileSync(
      join(dir, 'profile.json'),
      JSON.stringify({
        name: 'pool-cli',
        description: 'reads spread over a pool',
        model: 'open',
        duration: 2,
        keys: 'pool',
        classes: { read: { rate: 120, routes: [{ route: 'me' }] } },
        thresholds: ['ratelimit.violations == 0'],
      }),
    );
  });

  it('--dry-run lists every unset pool variable in one line and still plans the pool', async () => {
    const r = await runCli(['load', '--profile', join(dir, 'profile.json'), '--target', join(dir, 'target.json'), '--dry-run'], {
      env: { SPG_ADMIN: STATION_KEY },
    });
    expect(r.code, r.stderr).toBe(0);
    expect(r.stdout + r.stderr).toContain(
      'environment variables not set: SPG_P0 (keys.admin.pool[0]), SPG_P1 (keys.admin.pool[1]), SPG_P2 (keys.admin.pool[2])',
    );
    expect(r.stdout).toContain('keys admin, admin.pool[0], admin.pool[1], admin.pool[2]');
  });

  it("a real run spreads over 4 keys (120/s > one key's 50/s, < 4 × 50), passes, and shows no key anywhere", async () => {
    const out = join(dir, 'out');
    const r = await runCli(
      [
        'load',
        '--profile',
        join(dir, 'profile.json'),
        '--target',
        join(dir, 'target.json'),
        '--out',
        out,
        '--trace',
        join(dir, 'trace.ndjson'),
      ],
      { env, timeoutMs: 60_000 },
    );
    expect(r.code, r.stdout + r.stderr).toBe(0);
    const results = JSON.parse(readFileSync(join(out, 'results.json'), 'utf8')) as {
      load: Array<{ rateLimit: { classes: Array<{ key?: string }>; violations: unknown[] }; totals: { byStatus: Record<string, number> } }>;
    };
    const load = results.load[0]!;
    expect(load.rateLimit.classes.map((c) => c.key).sort()).toEqual(['admin', 'admin.pool[0]', 'admin.pool[1]', 'admin.pool[2]']);
    expect(load.rateLimit.violations).toEqual([]);
    expect(load.totals.byStatus['429'] ?? 0).toBe(0);
    const trace = readFileSync(join(dir, 'trace.ndjson'), 'utf8');
    expect(
      new Set(
        trace
          .trim()
          .split('\n')
          .map((l) => (JSON.parse(l) as { key?: string }).key),
      ).size,
    ).toBe(4);
    const texts = [
      r.stdout,
      r.stderr,
      trace,
      ...filesUnder(out)
        .filter((f) => !f.endsWith('.png'))
        .map((f) => readFileSync(f, 'utf8')),
    ];
    for (const secret of [STATION_KEY, ...pool]) for (const t of texts) expect(t.includes(secret)).toBe(false);
  });
});
