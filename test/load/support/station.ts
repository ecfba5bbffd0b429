/**
 * A station of known capacity: a loopback HTTP server that serves at most `concurrency` requests at a time,
 * holding each `holdMs` (the rest wait in its FIFO queue), so it can serve at most concurrency·1000/holdMs
 * requests a second: `nominalRps`. It runs in a child process, so its timers and the generator's event
 * loop do not share a thread. Timers fire late on a busy machine, so it also measures its holds as they
 * happened: `realizedRps()` is concurrency over the mean measured hold (what it really could serve).
 * Answers carry the RateLimit headers and a request id, so the verifier has nothing to report.
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
  target(): Target;
  close(): Promise<void>;
}

const SELF = fileURLToPath(import.meta.url);

// Plain JS for the child (no TypeScript loader needed there).
const CHILD = `
const http = require('node:http');
const [concurrency, holdMs] = process.argv.slice(1).map(Number);
let active = 0, served = 0, held = 0;
const waiting = [];
const body = JSON.stringify({ data: { id: 'u_1', name: 'station' } });
const serve = (res) => {
  active++;
  const start = performance.now();
  setTimeout(() => {
    held += performance.now() - start;
    served++;
    res.writeHead(200, { 'content-type': 'application/json', 'content-length': Buffer.byteLength(body),
      'ratelimit-limit': '100000000', 'ratelimit-remaining': String(100000000 - served), 'ratelimit-reset': '1', 'x-request-id': 'req_' + served });
    res.end(body);
    active--;
    const next = waiting.shift();
    if (next) next();
  }, holdMs);
};
const server = http.createServer((req, res) => {
  req.resume();
  if (req.method === 'HEAD') return void res.end();
  if (active < concurrency) serve(res); else waiting.push(() => serve(res));
});
server.keepAliveTimeout = 60000;
server.listen(0, '127.0.0.1', () => process.send({ port: server.address().port }));
process.on('message', () => process.send({ served, meanHold: served ? held / served : holdMs }));
`;

/** Starts a station serving `concurrency` requests at a time, `holdMs` each. */
export async function startStation(concurrency: number, holdMs: number): Promise<Station> {
  const child: ChildProcess = fork('-e', [CHILD, String(concurrency), String(holdMs)], { execArgv: [], stdio: ['ignore', 'ignore', 'inherit', 'ipc'], cwd: SELF.replace(/[^/]+$/, '') });
  const port = await new Promise<number>((resolve, reject) => {
    child.once('message', (m) => resolve((m as { port: number }).port));
    child.once('exit', (code) => reject(new Error(`station exited (${code})`)));
  });
  const url = `http://127.0.0.1:${port}/v1`;
  return {
    url,
    nominalRps: (concurrency * 1000) / holdMs,
    realizedRps: () => new Promise<number>((resolve) => {
      child.once('message', (m) => resolve((concurrency * 1000) / (m as { meanHold: number }).meanHold));
      child.send('stats');
    }),
    target: () => targetFromInput({ baseUrl: url, keys: { admin: { key: 'pk_test_station_0123456789' } } }, 'station'),
    close: () => new Promise<void>((resolve) => {
      if (child.exitCode !== null) return resolve();
      child.once('exit', () => resolve());
      child.kill();
    }),
  };
}
