/**
 * A station of known capacity: a loopback HTTP server that serves at most `concurrency` requests at a time,
 * holding each `holdMs` (the rest wait in its FIFO queue), so it can serve at most concurrency·1000/holdMs
 * requests a second: `nominalRps`. It runs in a child process, so its timers and the generator's event
 * loop do not share a thread. Timers fire late on a busy machine, so it also measures its holds as they
 * happened: `realizedRps()` is concurrency over the mean measured hold (what it really could serve).
 * Answers carry the RateLimit headers and a request id, so the verifier has nothing to report. With `perKey`,
 * a real per-key limiter stands in front of it (the knee behind a rate-limited staging, issue 31).
 */
import { fork, type ChildProcess } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { targetFromInput } from '../../../src/target/resolve.js';
import type { Target } from '../../../src/target/schema.js';

export interface Station {
  url: string;
  nominalRps: number;
  /** concurrency·1000 / the mean hold measured so far. */
  realizedRps(): Promise<number>;
  /**
   * When the station's process stood still (its 10 ms tick came 50 ms late or more): it served nothing
   * then, which its measured holds do not show. Epoch ms of the start, and how long.
   */
  stalls(): Promise<{ atEpochMs: number; ms: number }[]>;
  /** A target of the station with the admin key, and `pool` more keys of the admin role (keys.admin.pool). */
  target(pool?: number): Target;
  close(): Promise<void>;
}

const SELF = fileURLToPath(import.meta.url);

/** The station target's admin key. */
export const STATION_KEY = 'pk_test_station_0123456789';

/** `n` pool keys of the station's admin role, each a key of its own. */
export function stationPool(n: number): string[] {
  return Array.from({ length: n }, (_v, i) => `pk_test_station_pool${i}_0123456789`);
}

// Plain JS for the child (no TypeScript loader needed there).
const CHILD = `
const http = require('node:http');
const [concurrency, holdMs, perKeyLimit, perKeyWindow] = process.argv.slice(1).map(Number);
let active = 0, served = 0, held = 0;
const waiting = [];
const body = JSON.stringify({ data: { id: 'u_1', name: 'station' } });
const serve = (res, limits) => {
  active++;
  const start = performance.now();
  setTimeout(() => {
    held += performance.now() - start;
    served++;
    res.writeHead(200, { 'content-type': 'application/json', 'content-length': Buffer.byteLength(body),
      'ratelimit-limit': '100000000', 'ratelimit-remaining': String(100000000 - served), 'ratelimit-reset': '1', ...limits, 'x-request-id': 'req_' + served });
    res.end(body);
    active--;
    const next = waiting.shift();
    if (next) next();
  }, holdMs);
};
const admit = (res, limits) => {
  if (active < concurrency) serve(res, limits); else waiting.push(() => serve(res, limits));
};
// In front of the station, optionally: rate-limiter-flexible's fixed window per API key (Authorization),
// its headers mapped as its README's middleware does; a refusal is answered at once, never held.
const limiter = perKeyLimit > 0 ? new (require('rate-limiter-flexible').RateLimiterMemory)({ points: perKeyLimit, duration: perKeyWindow }) : undefined;
let refusedN = 0;
const server = http.createServer((req, res) => {
  req.resume();
  if (req.method === 'HEAD') return void res.end();
  if (!limiter) return admit(res, {});
  const headers = (r) => ({ 'ratelimit-limit': String(perKeyLimit), 'ratelimit-remaining': String(r.remainingPoints), 'ratelimit-reset': String(Math.ceil(r.msBeforeNext / 1000)) });
  limiter.consume(req.headers.authorization || 'anonymous').then((r) => admit(res, headers(r)), (r) => {
    const id = 'req_r' + ++refusedN;
    const refusal = JSON.stringify({ error: { code: 'rate_limit.exceeded', message: 'rate limit exceeded', requestId: id } });
    res.writeHead(429, { 'content-type': 'application/json', 'content-length': Buffer.byteLength(refusal), ...headers(r),
      'retry-after': String(Math.ceil(r.msBeforeNext / 1000)), 'x-request-id': id });
    res.end(refusal);
  });
});
server.keepAliveTimeout = 60000;
server.listen(0, '127.0.0.1', () => process.send({ port: server.address().port }));
// Its own stalls (a machine starved of CPU stops the whole process, accept and timers alike): a 10 ms tick
// that came 50 ms late or more, as [epoch ms the tick was due from, ms late].
const stalls = [];
let tick = performance.now();
setInterval(() => {
  const now = performance.now();
  if (now - tick - 10 >= 50) stalls.push([performance.timeOrigin + tick, now - tick - 10]);
  tick = now;
}, 10);
process.on('message', () => process.send({ served, meanHold: served ? held / served : holdMs, stalls }));
`;

/**
 * Starts a station serving `concurrency` requests at a time, `holdMs` each; `perKey`: a per-key rate limiter
 * (rate-limiter-flexible, fixed windows per Authorization) in front of it, whose refusals are never held.
 */
export async function startStation(
  concurrency: number,
  holdMs: number,
  perKey?: { limit: number; windowSeconds: number },
): Promise<Station> {
  const limits = perKey ? [String(perKey.limit), String(perKey.windowSeconds)] : ['0', '0'];
  const child: ChildProcess = fork('-e', [CHILD, String(concurrency), String(holdMs), ...limits], {
    execArgv: [],
    stdio: ['ignore', 'ignore', 'inherit', 'ipc'],
    cwd: SELF.replace(/[^/]+$/, ''),
  });
  const port = await new Promise<number>((resolve, reject) => {
    child.once('message', (m) => resolve((m as { port: number }).port));
    child.once('exit', (code) => reject(new Error(`station exited (${code})`)));
  });
  const url = `http://127.0.0.1:${port}/v1`;
  const stats = () =>
    new Promise<{ meanHold: number; stalls: [number, number][] }>((resolve) => {
      child.once('message', (m) => resolve(m as { meanHold: number; stalls: [number, number][] }));
      child.send('stats');
    });
  return {
    url,
    nominalRps: (concurrency * 1000) / holdMs,
    realizedRps: async () => (concurrency * 1000) / (await stats()).meanHold,
    stalls: async () => (await stats()).stalls.map(([atEpochMs, ms]) => ({ atEpochMs, ms })),
    target: (pool = 0) =>
      targetFromInput({ baseUrl: url, keys: { admin: { key: STATION_KEY, ...(pool > 0 ? { pool: stationPool(pool) } : {}) } } }, 'station'),
    close: () =>
      new Promise<void>((resolve) => {
        if (child.exitCode !== null) return resolve();
        child.once('exit', () => resolve());
        child.kill();
      }),
  };
}
