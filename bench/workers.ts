/**
 * `spgate load --workers 2` against `--workers 1` (~40 s, loopback only). The reference server runs as
 * `spgate serve` in its own process (budgets too large to refuse anything), the load runs as the real CLI,
 * and each figure is the median of alternating rounds (a shared machine drifts).
 * - throughput: completed responses per second of the merged run (`workers1Rps`, `workers2Rps`, ratio);
 * - generator CPU per response, µs: user + system CPU of the CLI and its worker processes (from the
 *   shell's `times`, which counts every reaped descendant), less the measured start-up CPU of each
 *   process (a `--dry-run` of the same command), divided by the responses.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';

const BIN = fileURLToPath(new URL('../bin/spgate.js', import.meta.url));
const DURATION_S = 5;
const CONNECTIONS = 8;
const ROUNDS = 2;

async function startServer(dir: string): Promise<{ proc: ChildProcess; targetFile: string }> {
  const targetFile = join(dir, 'target.json');
  const proc = spawn(
    process.execPath,
    [BIN, 'serve', '--port', '0', '--seed', '1', '--read-budget', '1000000000', '--write-budget', '1000000000', '--target-out', targetFile],
    { stdio: ['ignore', 'pipe', 'inherit'] },
  );
  await new Promise<void>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error('reference server did not start')), 60_000);
    createInterface({ input: proc.stdout! }).on('line', (l) => {
      if (l.includes('listening on')) {
        clearTimeout(timer);
        resolve();
      }
    });
    proc.once('exit', (c) => reject(new Error(`reference server exited (${c})`)));
  });
  return { proc, targetFile };
}

/** Runs the CLI under bash and returns its exit code and the CPU seconds of it and every descendant. */
function timed(args: string[]): Promise<{ code: number; cpuS: number; stderr: string }> {
  const quoted = [process.execPath, BIN, ...args].map((a) => `'${a.replace(/'/g, `'\\''`)}'`).join(' ');
  return new Promise((resolve, reject) => {
    const sh = spawn(
      'bash',
      ['-c', `${quoted} >/dev/null 2>"$0.err"; code=$?; times; exit $code`, join(tmpdir(), `spgate-bench-${process.pid}`)],
      { stdio: ['ignore', 'pipe', 'inherit'] },
    );
    let out = '';
    sh.stdout!.on('data', (d: Buffer) => (out += d.toString()));
    sh.on('error', reject);
    sh.on('close', (code) => {
      // `times`: shell user/sys, then children user/sys, as "1m2.345s 0m0.123s".
      const line = out.trim().split('\n').pop() ?? '';
      const secs = [...line.matchAll(/(\d+)m([\d.]+)s/g)].map((m) => Number(m[1]) * 60 + Number(m[2]));
      let stderr = '';
      try {
        stderr = readFileSync(join(tmpdir(), `spgate-bench-${process.pid}.err`), 'utf8');
      } catch {
        // no stderr file
      }
      resolve({ code: code ?? -1, cpuS: (secs[0] ?? NaN) + (secs[1] ?? NaN), stderr });
    });
  });
}

const median = (xs: number[]): number => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;

/** Measures --workers 1 and --workers 2 against the reference server in its own process. */
export async function bench(): Promise<Record<string, number>> {
  const dir = mkdtempSync(join(tmpdir(), 'spgate-bench-workers-'));
  const profile = join(dir, 'profile.json');
  writeFileSync(
    profile,
    JSON.stringify({
      name: 'bench-workers',
      description: 'closed reads at full speed',
      model: 'closed',
      duration: DURATION_S,
      classes: { read: { connections: CONNECTIONS, routes: [{ route: 'me' }] } },
      thresholds: [],
    }),
  );
  const { proc, targetFile } = await startServer(dir);
  try {
    const base = ['load', '--profile', profile, '--target', targetFile];
    // Start-up CPU of one CLI process (loading tsx and the sources), charged once per process below.
    const startup = median(await Promise.all([0, 1].map(() => timed([...base, '--dry-run']))).then((rs) => rs.map((r) => r.cpuS)));
    const runs: Record<1 | 2, Array<{ rps: number; cpuUs: number }>> = { 1: [], 2: [] };
    for (let round = 0; round < ROUNDS; round++) {
      for (const workers of [1, 2] as const) {
        const json = join(dir, `w${workers}-${round}.json`);
        const r = await timed([...base, '--workers', String(workers), '--json', json]);
        if (r.code !== 0) throw new Error(`--workers ${workers} exited ${r.code}: ${r.stderr.trim().split('\n').pop() ?? ''}`);
        const p = JSON.parse(readFileSync(json, 'utf8')).load[0] as { totals: { completed: number }; durationMs: number };
        const processes = workers === 1 ? 1 : 1 + workers;
        runs[workers].push({
          rps: p.totals.completed / (p.durationMs / 1000),
          cpuUs: ((r.cpuS - processes * startup) * 1e6) / p.totals.completed,
        });
      }
    }
    const figures = {
      workers1Rps: median(runs[1].map((r) => r.rps)),
      workers2Rps: median(runs[2].map((r) => r.rps)),
      workers1CpuUsPerReq: median(runs[1].map((r) => r.cpuUs)),
      workers2CpuUsPerReq: median(runs[2].map((r) => r.cpuUs)),
      workersStartupCpuS: startup,
    };
    const out = { ...figures, workers2VsWorkers1: figures.workers2Rps / figures.workers1Rps };
    process.stdout.write(`--workers 1: ${out.workers1Rps.toFixed(0)} rps, ${out.workers1CpuUsPerReq.toFixed(1)} µs CPU/response\n`);
    process.stdout.write(
      `--workers 2: ${out.workers2Rps.toFixed(0)} rps, ${out.workers2CpuUsPerReq.toFixed(1)} µs CPU/response (×${out.workers2VsWorkers1.toFixed(2)} throughput; start-up ${startup.toFixed(2)} s CPU per process)\n`,
    );
    return out;
  } finally {
    proc.kill('SIGINT');
    rmSync(dir, { recursive: true, force: true });
    rmSync(join(tmpdir(), `spgate-bench-${process.pid}.err`), { force: true });
  }
}

if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1]) {
  const figures = await bench();
  process.stdout.write(`BENCH ${JSON.stringify(figures)}\n`);
}
