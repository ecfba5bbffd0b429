/**
 * Load engine benchmark (~55 s, `BENCH_QUICK=1` ~20 s; loopback only). The servers run in a child process so the load generator
 * has a core of its own.
 * 1. Throughput: raw autocannon (no checks) vs spgate's closed engine with every response verified, same
 *    connections and duration, and wrk when installed → req/s and `spgateVsAutocannon` (target >= 0.9).
 * 2. Coordinated omission: a server that stalls 500 ms every 5 s, 200 requests/s for 12 s. The true p99 is
 *    computed from the schedule (each request intended inside a stall waits for its end); spgate's
 *    corrected p99 must be within 10 % of it (`coP99ErrorPct`). autocannon's figure is printed beside it.
 */
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { createInterface } from 'node:readline';
import autocannon from 'autocannon';
import { parseProfile } from '../src/load/profile.js';
import { runProfile } from '../src/load/run.js';
import { targetFromInput } from '../src/target/resolve.js';

const QUICK = process.env.BENCH_QUICK === '1';
const CONNECTIONS = 8;
const THROUGHPUT_S = QUICK ? 2 : 4;
/** Alternating rounds (after a warm-up): the server's speed drifts on a shared machine, medians do not. */
const ROUNDS = QUICK ? 1 : 3;
const CO_RATE = 200;
/** BENCH_QUICK=1: one stall instead of three. */
const CO_SECONDS = QUICK ? 7 : 12;
const STALL_MS = 500;
const STALL_EVERY_MS = 5000;
const FIRST_STALL_MS = 2000;

// Plain JS for `node -e`: a small JSON body with rate-limit headers; on "go" it starts stalling
// (a synchronous busy loop, like a GC pause) FIRST_STALL_MS later and every STALL_EVERY_MS after that.
const SERVER = `
const http = require('node:http');
let n = 0;
const body = '{"data":{"id":"ws_1","name":"bench"}}';
const s = http.createServer((req, res) => {
  n++;
  res.writeHead(200, { 'content-type': 'application/json', 'ratelimit-limit': '1000000', 'ratelimit-remaining': String(Math.max(0, 1000000 - n)), 'ratelimit-reset': '5', 'x-request-id': 'req_' + n });
  res.end(body);
});
s.keepAliveTimeout = 60000;
s.listen(0, '127.0.0.1', () => console.log(s.address().port));
const stall = () => { const end = Date.now() + ${STALL_MS}; while (Date.now() < end); };
require('node:readline').createInterface({ input: process.stdin }).on('line', (l) => {
  if (l.trim() === 'go') setTimeout(() => { stall(); setInterval(stall, ${STALL_EVERY_MS}); }, ${FIRST_STALL_MS});
});
`;

async function startServer(): Promise<{ child: ChildProcess; port: number }> {
  const child = spawn(process.execPath, ['-e', SERVER], { stdio: ['pipe', 'pipe', 'inherit'] });
  const line = await new Promise<string>((resolve, reject) => {
    createInterface({ input: child.stdout! }).once('line', resolve);
    child.once('exit', (c) => reject(new Error(`bench server exited (${c})`)));
  });
  return { child, port: Number(line) };
}

function stop(child: ChildProcess): Promise<void> {
  return new Promise((resolve) => {
    if (child.exitCode !== null) return resolve();
    child.once('exit', () => resolve());
    child.kill('SIGTERM');
  });
}

function target(port: number) {
  return targetFromInput({ baseUrl: `http://127.0.0.1:${port}/v1`, keys: { admin: { key: 'pk_test_bench_0123456789abcdef' } } }, 'bench');
}

async function rawAutocannon(port: number, extra: Partial<autocannon.Options> = {}): Promise<autocannon.Result> {
  return autocannon({ url: `http://127.0.0.1:${port}/v1/me`, connections: CONNECTIONS, duration: THROUGHPUT_S, headers: { authorization: 'Bearer x' }, ...extra });
}

function wrkRps(port: number): number | undefined {
  const probe = spawnSync('wrk', ['--version'], { encoding: 'utf8' });
  if (probe.error) return undefined;
  const r = spawnSync('wrk', ['-t1', `-c${CONNECTIONS}`, `-d${THROUGHPUT_S}s`, '-H', 'Authorization: Bearer x', `http://127.0.0.1:${port}/v1/me`], { encoding: 'utf8' });
  const m = /Requests\/sec:\s+([\d.]+)/.exec(r.stdout ?? '');
  return m ? Number(m[1]) : undefined;
}

/** The p99 a perfect observer would report for the fixed schedule against the stalling server. */
export function trueP99(rate: number, seconds: number, baseMs: number): number {
  const lat: number[] = [];
  for (let i = 0; i < rate * seconds; i++) {
    const t = (i * 1000) / rate;
    let l = baseMs;
    for (let s = FIRST_STALL_MS; s < seconds * 1000; s += STALL_EVERY_MS) if (t >= s && t < s + STALL_MS) l += s + STALL_MS - t;
    lat.push(l);
  }
  lat.sort((a, b) => a - b);
  return lat[Math.ceil(0.99 * lat.length) - 1]!;
}

function median(xs: number[]): number {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.floor(s.length / 2)]!;
}

/** Runs both parts and returns every figure. */
export async function bench(): Promise<Record<string, number>> {
  const out: Record<string, number> = {};
  const a = await startServer();
  try {
    await rawAutocannon(a.port, { duration: 2 });
    const closed = parseProfile({ name: 'bench-closed', description: 'bench', model: 'closed', duration: THROUGHPUT_S, classes: { read: { connections: CONNECTIONS, routes: [{ route: 'me' }] } } }, 'bench');
    const ac: number[] = [];
    const sg: number[] = [];
    for (let i = 0; i < ROUNDS; i++) {
      ac.push((await rawAutocannon(a.port)).requests.average);
      sg.push((await runProfile({ target: target(a.port), profile: closed })).result.throughput.meanRps);
    }
    out.autocannonRps = median(ac);
    out.spgateClosedRps = median(sg);
    out.spgateVsAutocannon = out.spgateClosedRps / out.autocannonRps;
    process.stdout.write(`rounds: autocannon ${ac.map(Math.round).join(' ')} · spgate ${sg.map(Math.round).join(' ')}\n`);
    const wrk = wrkRps(a.port);
    if (wrk !== undefined) {
      out.wrkRps = wrk;
      out.spgateVsWrk = out.spgateClosedRps / wrk;
    }
    process.stdout.write(`throughput: autocannon ${Math.round(out.autocannonRps)} req/s · spgate closed (verified) ${Math.round(out.spgateClosedRps)} req/s · ratio ${out.spgateVsAutocannon.toFixed(3)}${wrk !== undefined ? ` · wrk ${Math.round(wrk)} req/s` : ' · wrk not installed'}\n`);
  } finally {
    await stop(a.child);
  }

  const b = await startServer();
  try {
    const open = parseProfile({ name: 'bench-co', description: 'bench', model: 'open', duration: CO_SECONDS, classes: { read: { rate: CO_RATE, routes: [{ route: 'me' }] } } }, 'bench');
    b.child.stdin!.write('go\n');
    const { result } = await runProfile({ target: target(b.port), profile: open });
    const corr = result.latency.find((l) => l.class === 'read' && l.family === '2xx' && l.corrected)!;
    const uncorr = result.latency.find((l) => l.class === 'read' && l.family === '2xx' && !l.corrected)!;
    const truth = trueP99(CO_RATE, CO_SECONDS, uncorr.p50);
    out.coTrueP99Ms = truth;
    out.coSpgateP99Ms = corr.p99;
    out.coUncorrectedP99Ms = uncorr.p99;
    out.coP99ErrorPct = (Math.abs(corr.p99 - truth) / truth) * 100;
    out.coDropped = result.totals.dropped;
    const ac = await rawAutocannon(b.port, { overallRate: CO_RATE, duration: CO_SECONDS, connections: CONNECTIONS });
    out.coAutocannonP99Ms = ac.latency.p99;
    process.stdout.write(`coordinated omission: true p99 ${truth.toFixed(1)} ms · spgate corrected ${corr.p99.toFixed(1)} ms (error ${out.coP99ErrorPct.toFixed(1)} %) · spgate uncorrected ${uncorr.p99.toFixed(1)} ms · autocannon ${ac.latency.p99} ms\n`);
  } finally {
    await stop(b.child);
  }
  return out;
}
