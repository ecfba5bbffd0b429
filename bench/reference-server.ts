/**
 * Throughput of the reference server on its hot path (GET /v1/customers?limit=25, budgets huge) against a
 * bare node:http server answering the same JSON bytes. Each server runs in its own child process pinned to
 * core 1 (taskset), and the autocannon client in this process to core 0, so neither shares a core with
 * the other; without taskset it says so and runs unpinned. Target: referenceVsBare >= 0.5.
 *
 * Throughput alone is fragile on a shared machine: whatever else runs on core 1 (or a client that saturates
 * core 0 first) moves it. So each child also reports its own CPU time (process.cpuUsage, user + system, all
 * threads) over IPC around every measurement, and referenceVsBareCpu = bare CPU per response / reference CPU
 * per response: the throughput ratio both servers would reach when CPU-bound, which other load moves less.
 */
import { spawnSync, type ChildProcess } from 'node:child_process';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { fileURLToPath } from 'node:url';
import autocannon from 'autocannon';
import { forkOnCore, HAS_TASKSET } from './support/children.js';

const SELF = fileURLToPath(import.meta.url);
const QUICK = process.env.BENCH_QUICK === '1';
/** Short alternating rounds; each ratio is the median of the per-round ratios, so rounds hit by a burst of other load do not decide it. */
const ROUNDS = QUICK ? 2 : 8;
/** Seconds per measurement; ROUNDS x DURATION_S = about 5 s per server. */
const DURATION_S = QUICK ? 1 : 0.625;
/** Seconds of unmeasured load on each server first, so JIT warm-up lands on neither figure. */
const WARMUP_S = 0.5;
const PATH = '/v1/customers?limit=25';

interface Ready {
  url: string;
  key?: string;
  body?: string;
}

/** IPC: the parent asks a child for its CPU time so far; the child answers with microseconds (user + system). */
interface CpuAsk {
  cpu: true;
}
interface CpuAnswer {
  cpuMicros: number;
}

/** Child side: answers every CPU question over IPC for the life of the process. */
function answerCpuQuestions(): void {
  process.on('message', (m: Partial<CpuAsk>) => {
    if (m.cpu !== true) return;
    const u = process.cpuUsage();
    process.send!({ cpuMicros: u.user + u.system } satisfies CpuAnswer);
  });
}

/** Parent side: the CPU time a child has used so far, in microseconds. */
function cpuOf(proc: ChildProcess): Promise<number> {
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error('a server child did not report its CPU time')), 10_000);
    const onMessage = (m: Partial<CpuAnswer>): void => {
      if (typeof m.cpuMicros !== 'number') return;
      clearTimeout(timer);
      proc.off('message', onMessage);
      resolve(m.cpuMicros);
    };
    proc.on('message', onMessage);
    proc.send({ cpu: true } satisfies CpuAsk);
  });
}

/** Child side: starts the requested server and reports where it listens. */
async function child(kind: string): Promise<void> {
  answerCpuQuestions();
  if (kind === 'reference') {
    const { startReferenceServer } = await import('../src/reference/index.js');
    const s = await startReferenceServer({ seed: 1, budgets: { read: 1e9, write: 1e9 } });
    const key = (s.target.keys as { admin: { key: string } }).admin.key;
    const res = await fetch(s.origin + PATH, { headers: { authorization: `Bearer ${key}` } });
    process.send!({ url: s.origin, key, body: await res.text() } satisfies Ready);
    return;
  }
  const body = await new Promise<Buffer>((resolve) => {
    const onBody = (m: { body?: string }): void => {
      if (typeof m.body !== 'string') return;
      process.off('message', onBody);
      resolve(Buffer.from(m.body));
    };
    process.on('message', onBody);
  });
  const server = createServer((_req, res) => {
    res.writeHead(200, { 'Content-Type': 'application/json; charset=utf-8', 'Content-Length': body.length });
    res.end(body);
  });
  server.listen(0, '127.0.0.1', () => process.send!({ url: `http://127.0.0.1:${(server.address() as AddressInfo).port}` } satisfies Ready));
}

function start(kind: 'reference' | 'bare', body?: string): Promise<{ proc: ChildProcess; ready: Ready }> {
  const proc = forkOnCore(SELF, ['--bench-child', kind], 1);
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

interface Measured {
  rps: number;
  /** Server CPU time per completed response, in microseconds. */
  cpuPerResponse: number;
  non2xx: number;
}

/** One autocannon run against a server child, with the child's CPU time around it. */
async function measure(
  server: { proc: ChildProcess; ready: Ready },
  headers: Record<string, string>,
  duration = DURATION_S,
): Promise<Measured> {
  const cpuBefore = await cpuOf(server.proc);
  const result = await autocannon({ url: server.ready.url + PATH, connections: 16, duration, headers });
  const cpu = (await cpuOf(server.proc)) - cpuBefore;
  const responses = result.requests.total;
  // responses over the run's own length: the per-second average has too few samples in a short round
  return {
    rps: responses / Math.max(result.duration, 0.01),
    cpuPerResponse: responses > 0 ? cpu / responses : Infinity,
    non2xx: result.non2xx + result.errors,
  };
}

/** Measures req/s of the reference server and of a bare server serving the same bytes. */
export async function bench(): Promise<Record<string, number>> {
  // The client (this process) on core 0 for the measurement; its previous affinity is restored after.
  const before = HAS_TASKSET
    ? /: (\S+)/.exec(spawnSync('taskset', ['-cp', String(process.pid)], { encoding: 'utf8' }).stdout)?.[1]
    : undefined;
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
  const refRounds: Measured[] = [];
  const bareRounds: Measured[] = [];
  const auth = { authorization: `Bearer ${ref.ready.key!}` };
  try {
    bare = await start('bare', body);
    await measure(ref, auth, WARMUP_S);
    await measure(bare, {}, WARMUP_S);
    // alternate short rounds, so a change in machine load hits both servers alike; ratios are taken per round
    for (let round = 0; round < ROUNDS; round++) {
      const r = await measure(ref, auth);
      if (r.non2xx > 0) throw new Error(`reference server answered ${r.non2xx} non-2xx responses or errors`);
      refRounds.push(r);
      bareRounds.push(await measure(bare, {}));
    }
  } finally {
    ref.proc.kill();
    bare?.proc.kill();
  }
  const referenceRps = mean(refRounds.map((m) => m.rps));
  const bareRps = mean(bareRounds.map((m) => m.rps));
  const referenceCpuUs = mean(refRounds.map((m) => m.cpuPerResponse));
  const bareCpuUs = mean(bareRounds.map((m) => m.cpuPerResponse));
  const rpsRatios = refRounds.map((m, i) => m.rps / bareRounds[i]!.rps);
  const cpuRatios = refRounds.map((m, i) => bareRounds[i]!.cpuPerResponse / m.cpuPerResponse);
  const referenceVsBare = median(rpsRatios);
  const referenceVsBareCpu = median(cpuRatios);
  const rounds = (xs: number[]): string => xs.map((x) => x.toFixed(2)).join(' ');
  process.stdout.write(
    `reference server ${Math.round(referenceRps)} req/s vs bare node:http ${Math.round(bareRps)} req/s ` +
      `on GET ${PATH} (${body.length} bytes): ratio ${referenceVsBare.toFixed(2)} (rounds ${rounds(rpsRatios)}; target >= 0.5)` +
      `${HAS_TASKSET ? ', servers on core 1, client on core 0' : ', unpinned'}\n` +
      `server CPU per response: reference ${referenceCpuUs.toFixed(1)} µs vs bare ${bareCpuUs.toFixed(1)} µs: ` +
      `ratio ${referenceVsBareCpu.toFixed(2)} (rounds ${rounds(cpuRatios)}; target >= 0.5)\n`,
  );
  return { referenceRps, bareRps, referenceVsBare, referenceCpuUs, bareCpuUs, referenceVsBareCpu };
}

function mean(xs: number[]): number {
  return xs.reduce((a, b) => a + b, 0) / xs.length;
}

/** The middle value (the mean of the middle two for an even count). */
function median(xs: number[]): number {
  const s = [...xs].sort((a, b) => a - b);
  const mid = s.length >> 1;
  return s.length % 2 ? s[mid]! : (s[mid - 1]! + s[mid]!) / 2;
}

const at = process.argv.indexOf('--bench-child');
if (at >= 0) await child(process.argv[at + 1] ?? 'bare');
