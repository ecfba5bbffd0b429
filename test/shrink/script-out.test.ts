/**
 * The standalone reproduction script (src/shrink/script-out.ts) run by bash against small loopback servers:
 * it parses, keeps the key out of its text, shows over-admission against a limiter that admits everything
 * and not against one that refuses past its budget, shows Remaining jumping between two counters and rising
 * faster than the announced budget refills but not a fixed window's or a token bucket's refills, shows a
 * Reset in milliseconds and two classes sharing one budget but not a Reset in seconds or a budget per class,
 * and prints (not judges) a rule it has no criterion for.
 */
import { execFile } from 'node:child_process';
import { existsSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import type { RateLimitAnalysis } from '../../src/results/schema.js';
import { SCRIPT_JUDGES } from '../../src/shrink/script-criteria.js';
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

interface Answer {
  status: number;
  limit: number;
  remaining: number;
  reset: number;
}

/** Command lines seen holding the key while a request was being answered (curl's, had it been given the key as an argument). */
let keyOnCommandLine: string[] = [];

/** Every process's command line that holds KEY (Linux's /proc; none elsewhere). */
function commandLinesWithKey(): string[] {
  if (!existsSync('/proc/self/cmdline')) return [];
  return readdirSync('/proc')
    .filter((d) => /^\d+$/.test(d))
    .flatMap((pid) => {
      try {
        const line = readFileSync(`/proc/${pid}/cmdline`, 'utf8').replaceAll('\0', ' ');
        return line.includes(KEY) ? [line] : [];
      } catch {
        return []; // the process ended meanwhile
      }
    });
}

/** A loopback server answering request `i` (from 1) at `now` (ms) as `answer` says, with the spec's headers. */
async function serve(answer: (i: number, now: number, method: string) => Answer): Promise<string> {
  let i = 0;
  server = createServer((req, res) => {
    i += 1;
    keyOnCommandLine.push(...commandLinesWithKey());
    const a = answer(i, Date.now(), req.method ?? 'GET');
    res.setHeader('RateLimit-Limit', String(a.limit));
    res.setHeader('RateLimit-Remaining', String(a.remaining));
    res.setHeader('RateLimit-Reset', String(a.reset));
    res.setHeader('X-Request-Id', `req_${i}`);
    res.statusCode = a.status;
    res.end(a.status === 429 ? '{"error":{"code":"rate_limit.exceeded"}}' : '{}');
  });
  await new Promise<void>((r) => server!.listen(0, '127.0.0.1', () => r()));
  return `http://127.0.0.1:${(server!.address() as AddressInfo).port}/v1`;
}

/** A limiter of `limit` per 60 s that refuses past it, or (overAdmits) admits everything while saying so. */
function limiter(limit: number, overAdmits: boolean): Promise<string> {
  return serve((used) => ({
    status: !overAdmits && used > limit ? 429 : 200,
    limit,
    remaining: Math.max(0, limit - used),
    reset: 60,
  }));
}

/** One fixed-window counter of `limit` per `windowMs`, its window starting at a request that finds none (express-rate-limit's way). */
function fixedWindow(limit: number, windowMs: number): (now: number) => Answer {
  let start = -Infinity;
  let used = 0;
  return (now) => {
    if (now >= start + windowMs) [start, used] = [now, 0];
    used += 1;
    const reset = Math.ceil((start + windowMs - now) / 1000);
    return { status: used > limit ? 429 : 200, limit, remaining: Math.max(0, limit - used), reset };
  };
}

/** A token bucket of `limit` refilled at `limit` per `windowMs`, Remaining rounded down. */
function tokenBucket(limit: number, windowMs: number): (now: number) => Answer {
  let tokens = limit;
  let at = Date.now();
  return (now) => {
    tokens = Math.min(limit, tokens + ((now - at) * limit) / windowMs);
    at = now;
    const admitted = tokens >= 1;
    if (admitted) tokens -= 1;
    return {
      status: admitted ? 200 : 429,
      limit,
      remaining: Math.floor(tokens),
      reset: Math.ceil(((limit - tokens) * windowMs) / limit / 1000),
    };
  };
}

/**
 * The script for `n` requests, one every `periodMs` or at `offsets` (ms): reads of /me, or writes (POST
 * /customers) where `writes` says so; the violation on reads, with an analysis of that class.
 */
function script(
  rule: string,
  n: number,
  baseUrl: string,
  { periodMs = 20, windowSeconds = 60, offsets = [] as number[], writes = (_i: number): boolean => false } = {},
): string {
  const schedule: Send[] = Array.from({ length: n }, (_, i) => ({
    t: offsets[i] ?? i * periodMs,
    ...(writes(i)
      ? { class: 'write' as const, method: 'POST', path: '/customers' }
      : { class: 'read' as const, method: 'GET', path: '/me' }),
    key: 'admin',
  }));
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
        windowSeconds,
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
    for (const rule of [...SCRIPT_JUDGES, '8.ratelimit.limit-constant']) {
      const path = script(rule, 4, 'http://127.0.0.1:9/v1');
      expect((await bash(['-n', path])).code).toBe(0);
      expect((await import('node:fs')).readFileSync(path, 'utf8')).not.toContain(KEY);
    }
  });

  it('shows over-admission against a limiter that admits past its budget, not against one that refuses', async () => {
    keyOnCommandLine = [];
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
    // The key went to curl on its stdin: no command line (ps, /proc) held it while the requests were answered.
    expect(keyOnCommandLine).toEqual([]);
  });

  // Two counters behind one port (a store per replica): the first three requests reach one, then they take
  // turns. Each answer comes before the next request goes out (300 ms apart: the script's times include
  // curl's start, 100 ms and more on a loaded machine), so one counter would have counted them in order;
  // Remaining instead falls by more than was counted in between and rises at nearly every turn.
  it('shows Remaining jumping between two counters behind one port, not a fixed window or a token bucket refilling', async () => {
    const counters = [fixedWindow(20, 60_000), fixedWindow(20, 60_000)];
    const jumps = await bash(
      [script('8.ratelimit.remaining-rises', 10, await serve((i, now) => counters[i <= 3 ? 0 : (i + 1) % 2]!(now)), { periodMs: 300 })],
      {
        SPGATE_KEY_ADMIN: KEY,
      },
    );
    expect({ code: jumps.code, verdict: jumps.stdout.split('\n').find((l) => l.startsWith('VIOLATION')), stderr: jumps.stderr }).toEqual({
      code: 1,
      verdict: expect.stringMatching(
        /^VIOLATION 8\.ratelimit\.remaining-rises: Remaining jumps between counters: it fell from 19 \(#4\) to 16 \(#5\)/,
      ),
      stderr: '',
    });
    // Bursts of four, 1.5 s apart: each spends the budget and the next finds it refilled. Remaining is read
    // along answers each sent after the one before was answered, so a burst's requests are 250 ms apart: 20 ms
    // apart, beside six busy workers, curl's starts overlapped, only each burst's first answer was in order,
    // all at a full budget, and the script saw no rise to judge.
    const offsets = [0, 1500, 3000].flatMap((t) => [t, t + 250, t + 500, t + 750]);
    for (const legitimate of [fixedWindow(3, 1000), tokenBucket(3, 1000)]) {
      await new Promise<void>((r) => server!.close(() => r()));
      const good = await bash(
        [script('8.ratelimit.remaining-rises', offsets.length, await serve((_i, now) => legitimate(now)), { offsets, windowSeconds: 1 })],
        { SPGATE_KEY_ADMIN: KEY },
      );
      expect({ code: good.code, last: good.stdout.trim().split('\n').pop(), stderr: good.stderr }).toEqual({
        code: 0,
        last: expect.stringMatching(/^not shown: Remaining rose [1-9]\d* times/),
        stderr: '',
      });
    }
  });

  // A limiter that announces 1 per 60 s but gives the budget back after every second request: one counter,
  // so Remaining never falls by more than was counted, but its rises add up to more than any refill of 1 per
  // minute gives back (four: a refill on each side of the span, and two of slack). Rises are read along
  // answers each sent after the one before was answered: with 3 per minute the script needed nine rises,
  // eighteen answers in order of 24 sent 100 ms apart, and beside six busy workers it had fewer; with 1 it
  // needs five, ten in order of 24 sent 150 ms apart.
  it('shows Remaining rising by more than any refill of the announced budget gives back', async () => {
    const fast = await serve((i) => ({ status: 200, limit: 1, remaining: i % 2 === 1 ? 1 : 0, reset: 60 }));
    const out = await bash([script('8.ratelimit.remaining-rises', 24, fast, { periodMs: 150 })], { SPGATE_KEY_ADMIN: KEY });
    expect({ code: out.code, verdict: out.stdout.split('\n').find((l) => l.startsWith('VIOLATION')) }).toEqual({
      code: 1,
      verdict: expect.stringMatching(
        /^VIOLATION 8\.ratelimit\.remaining-rises: Remaining rose \d+ times by \d+ in total within \d+ ms .*no refill of 1 per 59000 ms/,
      ),
    });
  });

  // Reset in milliseconds (rate-limiter-flexible's msBeforeNext sent as it is) falls by hundreds between
  // two answers a few ms apart; in seconds it falls by no more than the time that passed. Which answers the
  // script pairs is the clock's: a request is compared with the last answer received before it went out, and
  // on a loaded machine (five workers) #1 was answered after #2 went out, so #3 was the first compared with it.
  it('shows a Reset that does not count seconds, not one that does', async () => {
    // The window starts with the first request (as the limiter's does), not with the test: bash may take
    // most of a second to start on a loaded machine.
    let windowEnd: number | undefined;
    const ms = await serve((i, now) => ({
      status: 200,
      limit: 15,
      remaining: 15 - i,
      reset: Math.max(0, (windowEnd ??= now + 1000) - now),
    }));
    const bad = await bash([script('8.ratelimit.reset-plausible', 4, ms, { periodMs: 100, windowSeconds: 1 })], { SPGATE_KEY_ADMIN: KEY });
    expect({ code: bad.code, verdict: bad.stdout.split('\n').find((l) => l.startsWith('VIOLATION')) }).toEqual({
      code: 1,
      verdict: expect.stringMatching(
        /^VIOLATION 8\.ratelimit\.reset-plausible: RateLimit-Reset fell from \d+ \(#\d+\) to \d+ \(#\d+\) within \d+ ms/,
      ),
    });
    await new Promise<void>((r) => server!.close(() => r()));
    const seconds = fixedWindow(15, 1000);
    const good = await bash(
      [script('8.ratelimit.reset-plausible', 4, await serve((_i, now) => seconds(now)), { periodMs: 100, windowSeconds: 1 })],
      {
        SPGATE_KEY_ADMIN: KEY,
      },
    );
    expect({ code: good.code, last: good.stdout.trim().split('\n').pop() }).toEqual({
      code: 0,
      last: 'not shown: RateLimit-Reset never fell faster than the seconds that passed',
    });
  });

  // One budget for both classes (express-rate-limit with one store for both routers): the writes between
  // two reads spend the read budget. A budget per class leaves the reads' Remaining to the reads.
  it('shows the classes sharing one budget, not a budget per class', async () => {
    const writes = (i: number) => i % 3 !== 0; // read, write, write, read, …
    const shared = fixedWindow(20, 60_000);
    const bad = await bash([script('8.ratelimit.classes-isolated', 7, await serve((_i, now) => shared(now)), { periodMs: 150, writes })], {
      SPGATE_KEY_ADMIN: KEY,
    });
    // Which two reads the script pairs is the clock's (a read is compared with the last read answered before
    // it went out: #1 and #4 unless #1 took 450 ms), and so is how many writes were under way between them (a
    // fresh-clone npm test: #4 was answered after the write #5 went out, three); a fall by three with one read
    // in between is the writes' doing either way.
    const verdict = bad.stdout.split('\n').find((l) => l.startsWith('VIOLATION')) ?? '';
    const pair = /fell from (\d+) \(#\d+\) to (\d+) \(#\d+\)/.exec(verdict);
    expect({ code: bad.code, verdict, fall: pair ? Number(pair[1]) - Number(pair[2]) : undefined }).toEqual({
      code: 1,
      verdict: expect.stringMatching(
        /^VIOLATION 8\.ratelimit\.classes-isolated: read RateLimit-Remaining fell from \d+ \(#\d+\) to \d+ \(#\d+\) with at most 1 read request\(s\) admitted in between, but [2-9] of the other class: they share one budget$/,
      ),
      fall: 3,
    });
    await new Promise<void>((r) => server!.close(() => r()));
    const perClass = { GET: fixedWindow(20, 60_000), POST: fixedWindow(20, 60_000) };
    const own = await serve((_i, now, method) => perClass[method === 'POST' ? 'POST' : 'GET'](now));
    const good = await bash([script('8.ratelimit.classes-isolated', 7, own, { periodMs: 150, writes })], { SPGATE_KEY_ADMIN: KEY });
    expect({ code: good.code, last: good.stdout.trim().split('\n').pop() }).toEqual({
      code: 0,
      last: 'not shown: read RateLimit-Remaining never fell by more than its own requests in between',
    });
  });

  it('prints a rule it has no criterion for and says so; refuses to start without the key', async () => {
    const path = script('8.ratelimit.limit-constant', 3, await limiter(3, false));
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
