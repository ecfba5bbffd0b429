/**
 * The standalone reproduction script (src/shrink/script-out.ts) run by bash against small loopback servers:
 * it parses, keeps the key out of its text, shows over-admission against a limiter that admits everything
 * and not against one that refuses past its budget, and prints (not judges) a rule it has no criterion for.
 */
import { execFile } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import type { RateLimitAnalysis } from '../../src/results/schema.js';
import { reproductionScript } from '../../src/shrink/script-out.js';
import type { Send } from '../../src/shrink/schedule.js';
import { targetFromInput } from '../../src/target/resolve.js';
import { tempDir } from '../support/target-file.js';

const KEY = 'pk_script_test_secret_0123456789';
let server: Server | undefined;
afterEach(async () => {
  await new Promise<void>((r) => (server ? server.close(() => r()) : r()));
  server = undefined;
});

/** A limiter of `limit` per 60 s that refuses past it, or (overAdmits) admits everything while saying so. */
async function limiter(limit: number, overAdmits: boolean): Promise<string> {
  let used = 0;
  server = createServer((_req, res) => {
    used += 1;
    const refused = !overAdmits && used > limit;
    res.setHeader('RateLimit-Limit', String(limit));
    res.setHeader('RateLimit-Remaining', String(Math.max(0, limit - used)));
    res.setHeader('RateLimit-Reset', '60');
    res.setHeader('X-Request-Id', `req_${used}`);
    res.statusCode = refused ? 429 : 200;
    res.end(refused ? '{"error":{"code":"rate_limit.exceeded"}}' : '{}');
  });
  await new Promise<void>((r) => server!.listen(0, '127.0.0.1', () => r()));
  return `http://127.0.0.1:${(server!.address() as AddressInfo).port}/v1`;
}

function script(rule: string, n: number, baseUrl: string): string {
  const schedule: Send[] = Array.from({ length: n }, (_, i) => ({ t: i * 20, class: 'read', method: 'GET', path: '/me', key: 'admin' }));
  const target = targetFromInput({ name: 't', baseUrl, keys: { admin: { key: KEY } } }, 'test');
  const analysis: RateLimitAnalysis = {
    classes: [
      {
        class: 'read',
        samples: n,
        admitted: n,
        refused: 0,
        observedLimit: 3,
        limitConstant: true,
        windowSeconds: 60,
        model: 'fixed-window',
        windows: [],
        explanation: '',
      },
    ],
    violations: [],
  };
  const path = join(tempDir('spgate-script-'), 'repro.sh');
  writeFileSync(
    path,
    reproductionScript({ schedule, target, signature: { rule, class: 'read' }, analysis, rate: { reproduced: 9, attempts: 10 } }),
  );
  return path;
}

function bash(args: string[], env: Record<string, string> = {}): Promise<{ code: number; stdout: string; stderr: string }> {
  return new Promise((resolve) => {
    execFile('bash', args, { env: { PATH: process.env.PATH ?? '/usr/bin:/bin', ...env }, timeout: 30_000 }, (err, stdout, stderr) => {
      resolve({ code: err ? (typeof err.code === 'number' ? err.code : -1) : 0, stdout, stderr });
    });
  });
}

describe('the standalone reproduction script', () => {
  it('parses for every rule, and holds no key', async () => {
    for (const rule of ['8.ratelimit.over-admission', '8.ratelimit.under-admission', '8.ratelimit.remaining-rises']) {
      const path = script(rule, 4, 'http://127.0.0.1:9/v1');
      expect((await bash(['-n', path])).code).toBe(0);
      expect((await import('node:fs')).readFileSync(path, 'utf8')).not.toContain(KEY);
    }
  });

  it('shows over-admission against a limiter that admits past its budget, not against one that refuses', async () => {
    const bad = await bash([script('8.ratelimit.over-admission', 8, await limiter(3, true))], { SPGATE_KEY_ADMIN: KEY });
    expect({ code: bad.code, verdict: bad.stdout.split('\n').find((l) => l.startsWith('VIOLATION')), stderr: bad.stderr }).toEqual({
      code: 1,
      verdict: expect.stringContaining('8 admitted'),
      stderr: '',
    });
    await new Promise<void>((r) => server!.close(() => r()));
    server = undefined;
    const good = await bash([script('8.ratelimit.over-admission', 8, await limiter(3, false))], { SPGATE_KEY_ADMIN: KEY });
    expect({ code: good.code, last: good.stdout.trim().split('\n').pop(), stderr: good.stderr }).toEqual({
      code: 0,
      last: expect.stringContaining('not shown: 3 admitted'),
      stderr: '',
    });
  });

  it('prints a rule it has no criterion for and says so; refuses to start without the key', async () => {
    const path = script('8.ratelimit.remaining-rises', 3, await limiter(3, false));
    const out = await bash([path], { SPGATE_KEY_ADMIN: KEY });
    expect({ code: out.code, last: out.stdout.trim().split('\n').pop() }).toEqual({
      code: 0,
      last: expect.stringContaining('does not judge'),
    });
    expect(out.stdout).toContain('req_1');
    const nokey = await bash([path]);
    expect(nokey.code).not.toBe(0);
    expect(nokey.stderr).toContain('set SPGATE_KEY_ADMIN');
  });
});
