/**
 * Throughput of the reference server on its hot path (GET /v1/customers?limit=25, budgets huge) against a
 * bare node:http server answering the same JSON bytes. Each server runs in its own child process pinned to
 * core 1 (taskset), and the autocannon client in this process to core 0, so neither shares a core with
 * the other; without taskset it says so and runs unpinned. Target: referenceVsBare >= 0.5.
 */
import { fork, spawnSync, type ChildProcess } from 'node:child_process';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { fileURLToPath } from 'node:url';
import autocannon from 'autocannon';

const SELF = fileURLToPath(import.meta.url);
const HAS_TASKSET = spawnSync('taskset', ['-c', '0', 'true']).status === 0;
const QUICK = process.env.BENCH_QUICK === '1';
const ROUNDS = QUICK ? 1 : 2;
/** Seconds per measurement; ROUNDS x DURATION_S = about 5 s per server. */
const DURATION_S = 2.5;
const PATH = '/v1/customers?limit=25';

interface Ready {
  url: string;
  key?: string;
  body?: string;
}

/** Child side: starts the requested server and reports where it listens. */
async function child(kind: string): Promise<void> {
  if (kind === 'reference') {
    const { startReferenceServer } = await import('../src/reference/index.js');
    const s = await startReferenceServer({ seed: 1, budgets: { read: 1e9, write: 1e9 } });
    const key = (s.target.keys as { admin: { key: string } }).admin.key;
    const res = await fetch(s.origin + PATH, { headers: { authorization: `Bearer ${key}` } });
    process.send!({ url: s.origin, key, body: await res.text() } satisfies Ready);
    return;
  }
  const body = await new Promise<Buffer>((resolve) => process.once('message', (m: { body: string }) => resolve(Buffer.from(m.body))));
  const server = createServer((_req, res) => {
    res.writeHead(200, { 'Content-Type': 'application/json; charset=utf-8', 'Content-Length': body.length });
    res.end(body);
  });
  server.listen(0, '127.0.0.1', () => process.send!({ url: `http://127.0.0.1:${(server.address() as AddressInfo).port}` } satisfies Ready));
}

function start(kind: 'reference' | 'bare', body?: string): Promise<{ proc: ChildProcess; ready: Ready }> {
  const proc = HAS_TASKSET
    ? fork(SELF, ['--bench-child', kind], { execPath: 'taskset', execArgv: ['-c', '1', process.execPath, '--import', 'tsx'], stdio: ['ignore', 'inherit', 'inherit', 'ipc'] })
    : fork(SELF, ['--bench-child', kind], { execArgv: ['--import', 'tsx'], stdio: ['ignore', 'inherit', 'inherit', 'ipc'] });
  if (body !== undefined) proc.send({ body });
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`${kind} server did not start`)), 30_000);
    proc.once('message', (ready: Ready) => {
      clearTimeout(timer);
      resolve({ proc, ready });
    });
    proc.once('exit', (code) => reject(new Error(`${kind} server exited with ${code}`)));
  });
}

async function measure(url: string, headers: Record<string, string>): Promise<{ rps: number; non2xx: number }> {
  const result = await autocannon({ url: url + PATH, connections: 16, duration: DURATION_S, headers });
  return { rps: result.requests.average, non2xx: result.non2xx + result.errors };
}

/** Measures req/s of the reference server and of a bare server serving the same bytes. */
export async function bench(): Promise<Record<string, number>> {
  // The client (this process) on core 0 for the measurement; its previous affinity is restored after.
  const before = HAS_TASKSET ? /: (\S+)/.exec(spawnSync('taskset', ['-cp', String(process.pid)], { encoding: 'utf8' }).stdout)?.[1] : undefined;
  if (HAS_TASKSET) spawnSync('taskset', ['-cp', '0', String(process.pid)]);
  else process.stdout.write('note: taskset missing, the servers and the client are not pinned to cores\n');
  try {
    return await measureBoth();
  } finally {
    if (before) spawnSync('taskset', ['-cp', before, String(process.pid)]);
  }
}

async function measureBoth(): Promise<Record<string, number>> {
  const ref = await start('reference');
  const body = ref.ready.body!;
  let bare: { proc: ChildProcess; ready: Ready } | undefined;
  let referenceRps = 0;
  let bareRps = 0;
  try {
    bare = await start('bare', body);
    // alternate halves, so a change in machine load between the two measurements cannot skew the ratio
    for (let round = 0; round < ROUNDS; round++) {
      const r = await measure(ref.ready.url, { authorization: `Bearer ${ref.ready.key!}` });
      if (r.non2xx > 0) throw new Error(`reference server answered ${r.non2xx} non-2xx responses or errors`);
      referenceRps += r.rps / ROUNDS;
      bareRps += (await measure(bare.ready.url, {})).rps / ROUNDS;
    }
  } finally {
    ref.proc.kill();
    bare?.proc.kill();
  }
  const referenceVsBare = referenceRps / bareRps;
  process.stdout.write(
    `reference server ${Math.round(referenceRps)} req/s vs bare node:http ${Math.round(bareRps)} req/s ` +
    `on GET ${PATH} (${body.length} bytes): ratio ${referenceVsBare.toFixed(2)} (target >= 0.5)${HAS_TASKSET ? ', servers on core 1, client on core 0' : ', unpinned'}\n`,
  );
  return { referenceRps, bareRps, referenceVsBare };
}

const at = process.argv.indexOf('--bench-child');
if (at >= 0) await child(process.argv[at + 1] ?? 'bare');
