/**
 * Memory and CPU cost of spgate's load engines (loopback only; about 2 minutes, `BENCH_QUICK=1` about
 * 40 s). Every measured generator runs in a child process of its own, against a server in another child
 * process, so its peak RSS (process.resourceUsage().maxRSS) and CPU time (process.cpuUsage) are its own.
 * 1. Constant memory: peak RSS of a full-speed closed run (read-budget: past the budget, almost every
 *    response a 429) of 10 s and of 60 s against the reference server → `rss10sMB`, `rss60sMB`,
 *    `rssRatio60to10` (target <= 1.2, and under 300 MB).
 * 2. CPU per response of wrk and hey, when installed, against a bare server → `cpuUsWrk`, `cpuUsHey`, beside
 *    the figures of spgate's engines and raw autocannon that bench/load.ts measures in alternating rounds.
 * Servers and generators are pinned to separate cores with taskset when it exists (a note otherwise).
 */
import { spawnSync, type ChildProcess } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { startBareServer } from './support/bare-server.js';
import { firstMessage, forkOnCore, HAS_TASKSET, pinned } from './support/children.js';

const SELF = fileURLToPath(import.meta.url);
const QUICK = process.env.BENCH_QUICK === '1';
/** The long run, s (BENCH_LONG_S changes it: a longer run shows whether the peak is a plateau). */
const LONG_S = Number(process.env.BENCH_LONG_S ?? (QUICK ? 12 : 60));
const SHORT_S = QUICK ? 4 : 10;
const CPU_S = QUICK ? 3 : 6;
const CONNECTIONS = 8;

interface Ready {
  url: string;
  target?: unknown;
}

interface Measured {
  maxRssMB: number;
  cpuUs: number;
  responses: number;
  /** Responses the run verified (spgate) or counted (raw tools). */
  extra?: Record<string, number>;
}

// ---------- child side ----------

async function serverChild(kind: string): Promise<void> {
  if (kind === 'reference') {
    const { startReferenceServer } = await import('../src/reference/index.js');
    const s = await startReferenceServer({ seed: 1 });
    process.send!({ url: s.origin, target: s.target } satisfies Ready);
    return;
  }
  process.send!({ url: `http://127.0.0.1:${await startBareServer()}` } satisfies Ready);
}

async function generatorChild(kind: string, url: string, seconds: number, targetJson?: string): Promise<void> {
  // Modules load (and tsx compiles) before the clock starts: only the run's own CPU is counted.
  const { loadProfile } = await import('../src/load/profile.js');
  const { runProfile } = await import('../src/load/run.js');
  const { targetFromInput } = await import('../src/target/resolve.js');
  if (kind !== 'read-budget') throw new Error(`unknown generator ${kind}`);
  const input = targetJson
    ? (JSON.parse(targetJson) as Parameters<typeof targetFromInput>[0])
    : { baseUrl: `${url}/v1`, keys: { admin: { key: 'pk_test_bench_0123456789abcdef' } } };
  const target = targetFromInput(input, 'bench');
  const profile = loadProfile('read-budget');
  // A short warm-up run compiles the hot paths before the clock starts.
  await runProfile({ target, profile, durationOverride: 0.5 });
  const cpu0 = process.cpuUsage();
  const { result } = await runProfile({ target, profile, durationOverride: seconds });
  const responses = result.totals.completed;
  const extra = { violations: result.rateLimit.violations.length, refused: result.totals.byStatus['429'] ?? 0 };
  const cpu = process.cpuUsage(cpu0);
  // maxRSS is in KiB.
  const m: Measured = { maxRssMB: process.resourceUsage().maxRSS / 1024, cpuUs: cpu.user + cpu.system, responses, extra };
  process.send!(m);
}

// ---------- parent side ----------

async function startServer(kind: 'reference' | 'bare'): Promise<{ proc: ChildProcess; ready: Ready }> {
  const proc = forkOnCore(SELF, ['--bench-server', kind], 1);
  return { proc, ready: await firstMessage<Ready>(proc, `${kind} server`, 30_000) };
}

async function generate(kind: string, ready: Ready, seconds: number): Promise<Measured> {
  const args = ['--bench-generator', kind, ready.url, String(seconds)];
  if (ready.target) args.push(JSON.stringify(ready.target));
  const proc = forkOnCore(SELF, args, 0);
  return firstMessage<Measured>(proc, `${kind} generator`, (seconds + 60) * 1000);
}

function external(tool: 'wrk' | 'hey', url: string, seconds: number): Measured | undefined {
  const probe = spawnSync(tool, tool === 'wrk' ? ['--version'] : ['-h'], { encoding: 'utf8' });
  if (probe.error) return undefined;
  // GNU time reports the child's user and system seconds and its peak RSS.
  const args =
    tool === 'wrk'
      ? ['wrk', '-t1', `-c${CONNECTIONS}`, `-d${seconds}s`, '-H', 'Authorization: Bearer x', `${url}/v1/me`]
      : ['hey', '-z', `${seconds}s`, '-c', String(CONNECTIONS), '-H', 'Authorization: Bearer x', `${url}/v1/me`];
  const r = spawnSync('/usr/bin/time', ['-f', 'TIME %U %S %M', ...pinned(0), ...args], { encoding: 'utf8' });
  const t = /TIME ([\d.]+) ([\d.]+) (\d+)/.exec(r.stderr ?? '');
  const n = tool === 'wrk' ? /(\d+) requests in/.exec(r.stdout ?? '') : /\[200\]\s+(\d+) responses/.exec(r.stdout ?? '');
  if (!t || !n) return undefined;
  return { maxRssMB: Number(t[3]) / 1024, cpuUs: (Number(t[1]) + Number(t[2])) * 1e6, responses: Number(n[1]) };
}

const perResponse = (m: Measured): number => m.cpuUs / Math.max(1, m.responses);

/** Runs both parts and returns every figure. */
export async function bench(): Promise<Record<string, number>> {
  const out: Record<string, number> = {};
  if (!HAS_TASKSET) process.stdout.write('note: taskset missing, processes are not pinned to cores\n');
  const ref = await startServer('reference');
  try {
    for (const [name, seconds] of [
      ['rss10s', SHORT_S],
      ['rss60s', LONG_S],
    ] as const) {
      const m = await generate('read-budget', ref.ready, seconds);
      out[`${name}MB`] = m.maxRssMB;
      out[`${name}Responses`] = m.responses;
      process.stdout.write(
        `read-budget ${seconds} s full speed: ${m.responses} responses (${m.extra?.refused ?? 0} refused, ${m.extra?.violations ?? 0} violations), peak RSS ${m.maxRssMB.toFixed(0)} MB\n`,
      );
    }
    out.rssRatio60to10 = out.rss60sMB! / out.rss10sMB!;
    process.stdout.write(`peak RSS ${LONG_S} s / ${SHORT_S} s: ${out.rssRatio60to10.toFixed(2)} (target <= 1.2, under 300 MB)\n`);
  } finally {
    ref.proc.kill();
  }

  const bare = await startServer('bare');
  try {
    const line: string[] = [];
    for (const tool of ['wrk', 'hey'] as const) {
      const m = external(tool, bare.ready.url, CPU_S);
      if (!m) {
        line.push(`${tool} not installed`);
        continue;
      }
      out[`cpuUs${tool === 'wrk' ? 'Wrk' : 'Hey'}`] = perResponse(m);
      line.push(`${tool} ${perResponse(m).toFixed(1)}`);
    }
    process.stdout.write(`CPU µs per response of the raw tools (spgate and autocannon: bench/load.ts): ${line.join(' · ')}\n`);
  } finally {
    bare.proc.kill();
  }
  return out;
}

const at = process.argv.indexOf('--bench-server');
if (at >= 0) await serverChild(process.argv[at + 1] ?? 'bare');
const g = process.argv.indexOf('--bench-generator');
if (g >= 0) {
  const [kind, url, seconds, target] = process.argv.slice(g + 1);
  await generatorChild(kind!, url!, Number(seconds), target);
  process.exit(0);
}
