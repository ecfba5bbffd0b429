/**
 * The default worker count (`spgate load` without --workers, or --workers auto): the cores for a remote
 * target, bounded by MAX_WORKERS, by what the profile can split without sending more than it asks and by
 * the caps; one worker when the target shares this machine.
 */
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { autoWorkers, isLoopbackUrl, MAX_WORKERS, placeOf } from '../../src/distributed/auto-workers.js';
import { loadProfile, parseProfile } from '../../src/load/profile.js';
import { runCli } from '../support/cli.js';

const closed = (read: number, write?: number) =>
  parseProfile(
    {
      name: 'p',
      description: 'd',
      model: 'closed',
      duration: 5,
      classes: {
        read: { connections: read, routes: [{ route: 'me' }] },
        ...(write ? { write: { connections: write, routes: [{ route: 'assign' }] } } : {}),
      },
    },
    'test',
  );

describe('autoWorkers', () => {
  it('uses every core for a remote target, at most MAX_WORKERS', () => {
    expect(autoWorkers({ cores: 4, place: 'remote', profile: closed(64), caps: {} }).count).toBe(4);
    const many = autoWorkers({ cores: 64, place: 'remote', profile: closed(64), caps: {} });
    expect(many.count).toBe(MAX_WORKERS);
    expect(many.why).toMatch(/at most 8/);
  });

  it('never splits a profile into more shards than it has connections, or caps into shares of zero', () => {
    const two = autoWorkers({ cores: 8, place: 'remote', profile: closed(16, 2), caps: {} });
    expect(two).toEqual({ count: 2, why: 'remote target; write has 2 connection(s)' });
    expect(autoWorkers({ cores: 8, place: 'remote', profile: closed(16), caps: { maxRps: 3.5 } }).count).toBe(3);
    expect(autoWorkers({ cores: 8, place: 'remote', profile: closed(16), caps: { maxRequests: 5 } }).count).toBe(5);
    const open = loadProfile('burst');
    expect(autoWorkers({ cores: 8, place: 'remote', profile: { ...open, maxConnections: 2 }, caps: {} }).count).toBe(2);
  });

  it('runs one worker when the target shares the machine', () => {
    expect(autoWorkers({ cores: 16, place: 'loopback', profile: closed(64), caps: {} }).count).toBe(1);
    expect(autoWorkers({ cores: 16, place: 'embedded', profile: closed(64), caps: {} }).count).toBe(1);
  });

  it('tells loopback addresses from remote ones', () => {
    for (const u of [
      'http://127.0.0.1:8080/v1',
      'http://localhost/v1',
      'http://[::1]:3000/v1',
      'http://127.5.0.1/v1',
      'http://api.localhost/v1',
    ])
      expect(isLoopbackUrl(u), u).toBe(true);
    for (const u of ['https://staging.example.com/v1', 'http://10.0.0.4/v1', 'http://[2001:db8::1]/v1', 'not a url'])
      expect(isLoopbackUrl(u), u).toBe(false);
    expect(placeOf({ source: 'embedded', baseUrl: 'http://127.0.0.1:1/v1' })).toBe('embedded');
    expect(placeOf({ source: 'staging.json', baseUrl: 'https://staging.example.com/v1' })).toBe('remote');
  });
});

describe('spgate load default workers (real CLI, dry run)', () => {
  it('says how many workers it would use and why: the embedded server and a loopback target get one', async () => {
    const embedded = await runCli(['load', '--profile', 'smoke', '--dry-run']);
    expect(embedded.code).toBe(0);
    expect(embedded.stdout).toMatch(/^workers: 1 \(auto: the embedded server runs in this process/m);
    const dir = mkdtempSync(join(tmpdir(), 'spgate-auto-workers-'));
    const target = join(dir, 't.json');
    writeFileSync(
      target,
      JSON.stringify({ name: 'local', baseUrl: 'http://127.0.0.1:9/v1', keys: { admin: { key: 'pk_spgate_test_key_0000' } } }),
    );
    const local = await runCli(['load', '--profile', 'smoke', '--dry-run', '--target', target]);
    expect(local.code).toBe(0);
    expect(local.stdout).toMatch(/^workers: 1 \(auto: the target runs on this machine/m);
    const explicit = await runCli(['load', '--profile', 'smoke', '--dry-run', '--target', target, '--workers', '3']);
    expect(explicit.stdout).toMatch(/^workers: 3$/m);
  });
});
