/**
 * Load engine benchmark (~310 s, `BENCH_QUICK=1` ~60 s; loopback only). The servers run in a child process so the load generator
 * has a core of its own.
 * 1. Throughput: raw autocannon (no checks) vs spgate's closed engine with every response verified, same
 *    connections and duration, and wrk when installed → req/s and `spgateVsAutocannon` (target >= 0.9).
 * 2. CPU per verified response: µs of generator CPU (process.cpuUsage of a generator child process, so
 *    time the shared machine gives other processes is not counted) per response, for raw autocannon and
 *    spgate's closed and open engines against one bare server, in alternating rounds (the order rotates each
 *    round) → medians `cpuUsAutocannon`, `cpuUsClosed`, `cpuUsOpen`, and `closedVsAutocannonCpu`, the
 *    median of each round's closed / autocannon ratio (target <= 1.05), with its quartiles
 *    (`closedVsAutocannonCpuQ1`, `…Q3`), and `openVsAutocannonCpu` likewise (target <= 2.0; the open engine
 *    at OPEN_RATE arrivals/s). Generators run on core 0, the
 *    server on core 1 (taskset, noted when missing). The same rounds give the steady-state figures
 *    (`…Steady`): CPU and responses from STEADY_FROM_S into the measured run to its end, the responses
 *    counted by the server (GET /__served) for every tool alike. They leave out what a run pays once, at its
 *    start: V8 recompiles the hot code of a new run (new clients, parsers and aggregates) in its first second
 *    — 440 ms of TurboFan time for spgate's closed engine after a warm-up run, 96 ms for autocannon
 *    (--trace-opt), about a sixth of a 3 s run — which a long capacity run pays once. Beside it, `cpuUsSpgateWork`: spgate's own work per
 *    response (recorder, aggregator, verification, rate-limit analysis) on synthetic responses in-process,
 *    the least noisy view of what verification adds to an engine's own socket work. Then long rounds (`…Long`): whole
 *    CPU_LONG_S runs of autocannon and spgate closed, alternating, where a run's one-time costs weigh as
 *    little as in a capacity run.
 * 3. Capacity: the `capacity` judgement against two stations of known capacity (capacityStations below).
 * 4. Coordinated omission: a server that stalls 500 ms every 5 s, 200 requests/s for 12 s. The true p99 is
 *    computed from the schedule (each request intended inside a stall waits for its end); spgate's
 *    corrected p99 must be within 10 % of it (`coP99ErrorPct`). autocannon's figure is printed beside it.
 */
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { createInterface } from 'node:readline';
import autocannon from 'autocannon';
import { parseProfile } from '../src/load/profile.js';
import { runProfile } from '../src/load/run.js';
import { planProfile } from '../src/load/plan.js';
import { LoadAggregator } from '../src/load/aggregate.js';
import { LoadRecorder } from '../src/load/load-recorder.js';
import { targetFromInput } from '../src/target/resolve.js';
import { startBareServer } from './support/bare-server.js';
import { firstMessage, forkOnCore, HAS_TASKSET } from './support/children.js';
import { startStation } from '../test/load/support/station.js';

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
/**
 * CPU rounds: each runs autocannon, spgate closed and spgate open once, CPU_S seconds each. On this shared
 * 2-core VM one round's closed / autocannon ratio ranges over ±20 % (both tools' µs per response move
 * together with the host's load, by as much): nine short rounds give a steadier median than five long ones.
 */
const CPU_ROUNDS = QUICK ? 3 : 9;
const CPU_S = QUICK ? 2 : 3;
/** Long rounds (autocannon and spgate closed only): whole runs long enough that a run's one-time costs fade. */
const CPU_LONG_ROUNDS = QUICK ? 0 : 3;
const CPU_LONG_S = 15;
/** Seconds into a measured run from which the steady-state figures count (past the run's recompilation). */
const STEADY_FROM_S = 1;
/**
 * The open engine's arrival rate in the CPU rounds, on the same CONNECTIONS as autocannon: about half of what
 * the bare server answers autocannon here, so the schedule can be kept. A paced generator pays one
 * event-loop wake per request or two at low rates (44.6 µs per response at 5,000/s against 16.4 µs at
 * 20,000/s, one in-process run each, this machine); what bounds a capacity run is the cost at high rates.
 * BENCH_OPEN_RATE changes it.
 */
const OPEN_RATE = Number(process.env.BENCH_OPEN_RATE ?? 20_000);
/** Warm-up before each measured generator run (JIT-compiled hot paths, as in a long run). */
const WARM_UP_S = QUICK ? 1 : 1.5;
/** Synthetic responses for the in-process measure of spgate's own per-response work. */
const WORK_RESPONSES = QUICK ? 100_000 : 300_000;
const SELF = fileURLToPath(import.meta.url);

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
  return autocannon({
    url: `http://127.0.0.1:${port}/v1/me`,
    connections: CONNECTIONS,
    duration: THROUGHPUT_S,
    headers: { authorization: 'Bearer x' },
    ...extra,
  });
}

function wrkRps(port: number): number | undefined {
  const probe = spawnSync('wrk', ['--version'], { encoding: 'utf8' });
  if (probe.error) return undefined;
  const r = spawnSync(
    'wrk',
    ['-t1', `-c${CONNECTIONS}`, `-d${THROUGHPUT_S}s`, '-H', 'Authorization: Bearer x', `http://127.0.0.1:${port}/v1/me`],
    { encoding: 'utf8' },
  );
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

/** The value at quantile `q` (0..1) of `xs`, nearest rank. */
function quantile(xs: number[], q: number): number {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.min(s.length - 1, Math.floor(q * s.length))]!;
}

const median = (xs: number[]): number => quantile(xs, 0.5);

// ---------- CPU per response: generator and server child processes ----------

/**
 * What a generator child reports: its CPU time over the measured run and the responses it completed, and
 * the same from STEADY_FROM_S to the end (responses counted by the server).
 */
interface CpuMeasure {
  cpuUs: number;
  responses: number;
  steadyCpuUs: number;
  steadyResponses: number;
}

/** The bare server's count of requests answered so far. */
async function served(port: number): Promise<number> {
  const res = await fetch(`http://127.0.0.1:${port}/__served`);
  return Number(await res.text());
}

/** The bare server child: reports its port to the parent. */
async function bareServerChild(): Promise<void> {
  process.send!({ port: await startBareServer() });
}

/** Runs one generator for `seconds` after a short warm-up and reports its CPU per the measured run only. */
async function generatorChild(kind: string, port: number, seconds: number): Promise<void> {
  let measure: () => Promise<number>;
  if (kind === 'autocannon') {
    measure = async () => (await rawAutocannon(port, { duration: seconds })).requests.total;
    // A warm-up compiles autocannon's hot paths, as spgate's warm-up does its own.
    await rawAutocannon(port, { duration: WARM_UP_S });
  } else {
    const profile =
      kind === 'closed'
        ? parseProfile(
            {
              name: 'bench-closed',
              description: 'bench',
              model: 'closed',
              duration: seconds,
              classes: { read: { connections: CONNECTIONS, routes: [{ route: 'me' }] } },
            },
            'bench',
          )
        : parseProfile(
            {
              name: 'bench-open',
              description: 'bench',
              model: 'open',
              duration: seconds,
              maxConnections: CONNECTIONS,
              classes: { read: { rate: OPEN_RATE, routes: [{ route: 'me' }] } },
            },
            'bench',
          );
    measure = async () => (await runProfile({ target: target(port), profile, durationOverride: seconds })).result.totals.completed;
    await runProfile({ target: target(port), profile, durationOverride: WARM_UP_S });
  }
  // fetch loads and compiles undici on first use: done before the measured run, not inside its window.
  await served(port);
  const cpu0 = process.cpuUsage();
  let mid: Promise<{ cpu: NodeJS.CpuUsage; served: number }> | undefined;
  const timer = setTimeout(() => {
    const cpu = process.cpuUsage();
    mid = served(port).then((n) => ({ cpu, served: n }));
  }, STEADY_FROM_S * 1000);
  const responses = await measure();
  const end = process.cpuUsage();
  clearTimeout(timer);
  const cpu = process.cpuUsage(cpu0);
  if (!mid) throw new Error(`the ${kind} generator's run ended before ${STEADY_FROM_S} s`);
  const m = await mid;
  const steadyResponses = (await served(port)) - m.served;
  const steadyCpuUs = end.user + end.system - m.cpu.user - m.cpu.system;
  process.send!({ cpuUs: cpu.user + cpu.system, responses, steadyCpuUs, steadyResponses } satisfies CpuMeasure);
}

const perResponse = (m: CpuMeasure): number => m.cpuUs / Math.max(1, m.responses);
const steadyPerResponse = (m: CpuMeasure): number => m.steadyCpuUs / Math.max(1, m.steadyResponses);

type Generator = 'autocannon' | 'closed' | 'open';

/**
 * The medians per tool and the closed / autocannon ratio's median and quartiles (the spread of the rounds,
 * so a reader sees how far one median can be trusted on this machine), named with `suffix`.
 */
function cpuFigures(
  out: Record<string, number>,
  suffix: string,
  per: Record<Generator, number[]>,
  ratios: number[],
  openRatios: number[],
): void {
  out[`cpuUsAutocannon${suffix}`] = median(per.autocannon);
  out[`cpuUsClosed${suffix}`] = median(per.closed);
  out[`cpuUsOpen${suffix}`] = median(per.open);
  out[`closedVsAutocannonCpu${suffix}`] = median(ratios);
  out[`closedVsAutocannonCpu${suffix}Q1`] = quantile(ratios, 0.25);
  out[`closedVsAutocannonCpu${suffix}Q3`] = quantile(ratios, 0.75);
  out[`openVsAutocannonCpu${suffix}`] = median(openRatios);
  out[`openVsAutocannonCpu${suffix}Q1`] = quantile(openRatios, 0.25);
  out[`openVsAutocannonCpu${suffix}Q3`] = quantile(openRatios, 0.75);
}

/** The figures cpuFigures named with `suffix`, as one line. */
function cpuLine(out: Record<string, number>, suffix: string): string {
  const f = (k: string): string => out[k]!.toFixed(k.startsWith('cpuUs') ? 1 : 2);
  return (
    `autocannon ${f(`cpuUsAutocannon${suffix}`)} · spgate closed ${f(`cpuUsClosed${suffix}`)} · spgate open ${f(`cpuUsOpen${suffix}`)} · ` +
    `closed/autocannon ${f(`closedVsAutocannonCpu${suffix}`)}, quartiles ${f(`closedVsAutocannonCpu${suffix}Q1`)}–${f(`closedVsAutocannonCpu${suffix}Q3`)} · ` +
    `open/autocannon ${f(`openVsAutocannonCpu${suffix}`)}, quartiles ${f(`openVsAutocannonCpu${suffix}Q1`)}–${f(`openVsAutocannonCpu${suffix}Q3`)}`
  );
}

/** Alternating rounds of autocannon / closed / open against one bare server: medians per tool. */
async function cpuPerResponse(out: Record<string, number>): Promise<void> {
  if (!HAS_TASKSET) process.stdout.write('note: taskset missing, generator and server are not pinned to cores\n');
  const server = forkOnCore(SELF, ['--bench-bare-server'], 1);
  try {
    const { port } = await firstMessage<{ port: number }>(server, 'bare server', 30_000);
    const runs: Record<Generator, number[]> = { autocannon: [], closed: [], open: [] };
    const steady: Record<Generator, number[]> = { autocannon: [], closed: [], open: [] };
    const ratios: number[] = [];
    const steadyRatios: number[] = [];
    const openRatios: number[] = [];
    const steadyOpenRatios: number[] = [];
    for (let r = 0; r < CPU_ROUNDS; r++) {
      // The order rotates every round so drift in the machine's load falls on every tool alike.
      const orders = [
        ['autocannon', 'closed', 'open'],
        ['closed', 'open', 'autocannon'],
        ['open', 'autocannon', 'closed'],
      ] as const;
      const order = orders[r % orders.length]!;
      const round: Partial<Record<string, number>> = {};
      const roundSteady: Partial<Record<string, number>> = {};
      for (const kind of order) {
        const m = await measureGenerator(kind, port, CPU_S);
        round[kind] = perResponse(m);
        runs[kind].push(perResponse(m));
        roundSteady[kind] = steadyPerResponse(m);
        steady[kind].push(steadyPerResponse(m));
      }
      ratios.push(round.closed! / round.autocannon!);
      steadyRatios.push(roundSteady.closed! / roundSteady.autocannon!);
      openRatios.push(round.open! / round.autocannon!);
      steadyOpenRatios.push(roundSteady.open! / roundSteady.autocannon!);
      process.stdout.write(
        `cpu round ${r + 1}: autocannon ${round.autocannon!.toFixed(1)} · closed ${round.closed!.toFixed(1)} · open ${round.open!.toFixed(1)} µs/response · closed/autocannon ${ratios[r]!.toFixed(2)} · open/autocannon ${openRatios[r]!.toFixed(2)}` +
          ` | steady: ${roundSteady.autocannon!.toFixed(1)} · ${roundSteady.closed!.toFixed(1)} · ${roundSteady.open!.toFixed(1)} · ${steadyRatios[r]!.toFixed(2)} · ${steadyOpenRatios[r]!.toFixed(2)}\n`,
      );
    }
    cpuFigures(out, '', runs, ratios, openRatios);
    cpuFigures(out, 'Steady', steady, steadyRatios, steadyOpenRatios);
    out.cpuRounds = CPU_ROUNDS;
    process.stdout.write(
      `CPU µs per response (median of ${CPU_ROUNDS} rounds): ${cpuLine(out, '')} (targets: closed <= 1.05, open <= 2.0)\n`,
    );
    process.stdout.write(`steady state (from ${STEADY_FROM_S} s to the end, responses counted by the server): ${cpuLine(out, 'Steady')}\n`);
    await longRuns(out, port);
  } finally {
    server.kill();
  }
}

/** One generator child's run of `seconds` (after its warm-up) against the bare server on `port`. */
async function measureGenerator(kind: Generator, port: number, seconds: number): Promise<CpuMeasure> {
  const gen = forkOnCore(SELF, ['--bench-generator', kind, String(port), String(seconds)], 0);
  return firstMessage<CpuMeasure>(gen, `${kind} generator`, (seconds + 60) * 1000);
}

/**
 * Long rounds: autocannon and spgate's closed engine for CPU_LONG_S each, alternating, whole runs. What a
 * run pays once at its start (the recompilation after its warm-up, the end-of-run analysis and result) is
 * spread over as many responses as a capacity run's first minute, not over a 3 s round's → the median of
 * the rounds' closed / autocannon ratios `closedVsAutocannonCpuLong`, with its smallest and largest.
 */
async function longRuns(out: Record<string, number>, port: number): Promise<void> {
  if (CPU_LONG_ROUNDS === 0) return;
  const per: Record<'autocannon' | 'closed', number[]> = { autocannon: [], closed: [] };
  const ratios: number[] = [];
  for (let r = 0; r < CPU_LONG_ROUNDS; r++) {
    const order = r % 2 === 0 ? (['autocannon', 'closed'] as const) : (['closed', 'autocannon'] as const);
    const round: Partial<Record<string, number>> = {};
    for (const kind of order) {
      round[kind] = perResponse(await measureGenerator(kind, port, CPU_LONG_S));
      per[kind].push(round[kind]);
    }
    ratios.push(round.closed! / round.autocannon!);
    process.stdout.write(
      `long round ${r + 1} (${CPU_LONG_S} s): autocannon ${round.autocannon!.toFixed(1)} · closed ${round.closed!.toFixed(1)} µs/response · closed/autocannon ${ratios[r]!.toFixed(2)}\n`,
    );
  }
  out.cpuUsAutocannonLong = median(per.autocannon);
  out.cpuUsClosedLong = median(per.closed);
  out.closedVsAutocannonCpuLong = median(ratios);
  out.closedVsAutocannonCpuLongMin = Math.min(...ratios);
  out.closedVsAutocannonCpuLongMax = Math.max(...ratios);
  out.cpuLongRounds = CPU_LONG_ROUNDS;
  out.cpuLongSeconds = CPU_LONG_S;
  process.stdout.write(
    `CPU µs per response, ${CPU_LONG_S} s runs (median of ${CPU_LONG_ROUNDS}): autocannon ${out.cpuUsAutocannonLong.toFixed(1)} · spgate closed ${out.cpuUsClosedLong.toFixed(1)} · ` +
      `closed/autocannon ${out.closedVsAutocannonCpuLong.toFixed(2)} (rounds ${out.closedVsAutocannonCpuLongMin.toFixed(2)}–${out.closedVsAutocannonCpuLongMax.toFixed(2)}; target <= 1.1)\n`,
  );
}

/**
 * spgate's own CPU per response without any network: synthetic responses (as the bare server sends them)
 * through the recorder and the online aggregator — counts, HDR histograms, timeline, series, header
 * verification, rate-limit analysis — and finish(). The least noisy view of what spgate adds per
 * response to autocannon's own cost (best of three, after a warm-up) → `cpuUsSpgateWork`.
 */
function spgateWork(out: Record<string, number>): void {
  const t = target(1);
  const profile = parseProfile(
    {
      name: 'bench-work',
      description: 'bench',
      model: 'closed',
      duration: 10,
      classes: { read: { connections: CONNECTIONS, routes: [{ route: 'me' }] } },
    },
    'bench',
  );
  const plan = planProfile(profile, t);
  const once = (n: number): number => {
    const agg = new LoadAggregator({ plan, target: t });
    const rec = new LoadRecorder(agg);
    const cpu0 = process.cpuUsage();
    let at = 0;
    for (let i = 0; i < n; i++) {
      at += 0.03;
      // Eight connections in flight: send times a little out of completion order.
      const sent = at - (0.15 + (0.1 * ((i * 5) % 8)) / 8);
      rec.sent('read', sent);
      rec.response({
        route: 0,
        intended: NaN,
        sent,
        received: at,
        status: 200,
        limit: '1000000000',
        remaining: String(1_000_000_000 - i),
        reset: '5',
        requestId: `req_${i}`,
      });
    }
    agg.finish({ rec, startedAt: new Date(), elapsedMs: at, aborted: false });
    const cpu = process.cpuUsage(cpu0);
    return (cpu.user + cpu.system) / n;
  };
  once(WORK_RESPONSES / 4);
  out.cpuUsSpgateWork = Math.min(once(WORK_RESPONSES), once(WORK_RESPONSES), once(WORK_RESPONSES));
  process.stdout.write(`spgate's own work per response (no network, best of 3): ${out.cpuUsSpgateWork.toFixed(2)} µs\n`);
}

/**
 * The capacity judgement against stations of known capacity (test/load/support/station.ts, in their own
 * process): C requests at a time, 10 ms each, a ramp from C/4 to 2C arrivals/s in 6 s, SLO p95 500 ms →
 * per station the nominal capacity, what its timers really allowed, the reported figure, and whether the
 * generator was saturated (then the figure is a lower bound) → `capacityC4Reported`, `…Realized`, ….
 */
async function capacityStations(out: Record<string, number>): Promise<void> {
  for (const c of [4, 8]) {
    const station = await startStation(c, 10);
    try {
      const profile = parseProfile(
        {
          name: 'bench-capacity',
          description: 'bench',
          model: 'open',
          duration: 6,
          maxConnections: 64,
          dropAfterMs: 3000,
          classes: {
            read: {
              ramp: { start: station.nominalRps / 4, stages: [{ duration: 6, target: station.nominalRps * 2 }] },
              routes: [{ route: 'me' }],
            },
          },
          capacity: { p95Ms: 500, maxErrorPct: 1 },
        },
        'bench',
      );
      const { result } = await runProfile({ target: station.target(), profile });
      const realized = await station.realizedRps();
      out[`capacityC${c}Nominal`] = station.nominalRps;
      out[`capacityC${c}Realized`] = realized;
      out[`capacityC${c}Reported`] = result.capacity?.rps ?? 0;
      out[`capacityC${c}GeneratorSaturated`] = result.generator?.saturated ? 1 : 0;
      process.stdout.write(
        `capacity station ${c}×10 ms: nominal ${station.nominalRps}/s · realized ${realized.toFixed(0)}/s · reported ${result.capacity?.rps ?? 'none'}/s` +
          `${result.generator?.saturated ? ` (generator saturated: ${result.generator.reason}; a lower bound)` : ''}\n`,
      );
    } finally {
      await station.close();
    }
  }
}

/** Runs every part and returns every figure. */
export async function bench(): Promise<Record<string, number>> {
  const out: Record<string, number> = {};
  spgateWork(out);
  await capacityStations(out);
  await cpuPerResponse(out);
  const a = await startServer();
  try {
    await rawAutocannon(a.port, { duration: 2 });
    const closed = parseProfile(
      {
        name: 'bench-closed',
        description: 'bench',
        model: 'closed',
        duration: THROUGHPUT_S,
        classes: { read: { connections: CONNECTIONS, routes: [{ route: 'me' }] } },
      },
      'bench',
    );
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
    process.stdout.write(
      `throughput: autocannon ${Math.round(out.autocannonRps)} req/s · spgate closed (verified) ${Math.round(out.spgateClosedRps)} req/s · ratio ${out.spgateVsAutocannon.toFixed(3)}${wrk !== undefined ? ` · wrk ${Math.round(wrk)} req/s` : ' · wrk not installed'}\n`,
    );
  } finally {
    await stop(a.child);
  }

  const b = await startServer();
  try {
    const open = parseProfile(
      {
        name: 'bench-co',
        description: 'bench',
        model: 'open',
        duration: CO_SECONDS,
        classes: { read: { rate: CO_RATE, routes: [{ route: 'me' }] } },
      },
      'bench',
    );
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
    process.stdout.write(
      `coordinated omission: true p99 ${truth.toFixed(1)} ms · spgate corrected ${corr.p99.toFixed(1)} ms (error ${out.coP99ErrorPct.toFixed(1)} %) · spgate uncorrected ${uncorr.p99.toFixed(1)} ms · autocannon ${ac.latency.p99} ms\n`,
    );
  } finally {
    await stop(b.child);
  }
  return out;
}

if (process.argv.includes('--bench-bare-server')) await bareServerChild();
const g = process.argv.indexOf('--bench-generator');
if (g >= 0) {
  const [kind, port, seconds] = process.argv.slice(g + 1);
  await generatorChild(kind!, Number(port), Number(seconds));
  process.exit(0);
}
