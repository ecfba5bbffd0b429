/**
 * How fast the CLI starts (~30 s). Builds dist/ (`npm run build`), then times, in alternating rounds, the
 * compiled CLI (what the published package runs) and the sources through tsx (a checkout's bin/spgate.js):
 * - `spgate --help` and `spgate --version`: median wall time, s (`startupHelpS`, `startupVersionS`; target < 0.3),
 *   and the CPU of --help (`startupHelpCpuS`: what a loaded machine cannot inflate);
 * - a `--workers` child's start cost: wall and CPU (user + system) of `spgate load --profile smoke --dry-run`,
 *   which imports everything a shard needs and loads profile and target, then stops before sending
 *   (`workerStartCpuS`; target < 0.5);
 * and the same through tsx for comparison (`…Tsx`).
 */
import { execFileSync, spawnSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';

const ROOT = fileURLToPath(new URL('..', import.meta.url));
const COMPILED = fileURLToPath(new URL('../dist/src/cli/main.js', import.meta.url));
const SOURCE = fileURLToPath(new URL('../bin/spgate.js', import.meta.url));
const ROUNDS = Number(process.env.BENCH_QUICK ? 3 : 11);

interface Timing {
  wallS: number;
  cpuS: number;
}

/** One run under bash's `time` (wall, user, system of the process and its children). */
function timed(script: string, args: string[]): Timing {
  const quoted = [process.execPath, script, ...args].map((a) => `'${a.replace(/'/g, `'\\''`)}'`).join(' ');
  const r = spawnSync('bash', ['-c', `TIMEFORMAT='%R %U %S'; time ${quoted} >/dev/null 2>&1`], {
    encoding: 'utf8',
    cwd: ROOT,
    timeout: 60_000,
  });
  const m = /([\d.]+) ([\d.]+) ([\d.]+)\s*$/.exec(r.stderr);
  if (r.status !== 0 || !m) throw new Error(`${args.join(' ')} failed: ${r.stderr.trim().split('\n').pop() ?? ''}`);
  return { wallS: Number(m[1]), cpuS: Number(m[2]) + Number(m[3]) };
}

function median(xs: number[]): number {
  const s = [...xs].sort((a, b) => a - b);
  const mid = Math.floor(s.length / 2);
  return s.length % 2 ? s[mid]! : (s[mid - 1]! + s[mid]!) / 2;
}

/** Runs the startup benchmark and returns its figures. */
export async function bench(): Promise<Record<string, number>> {
  execFileSync(process.platform === 'win32' ? 'npm.cmd' : 'npm', ['run', '--silent', 'build'], {
    cwd: ROOT,
    stdio: 'inherit',
    timeout: 300_000,
  });
  const cases = {
    help: ['--help'],
    version: ['--version'],
    worker: ['load', '--profile', 'smoke', '--dry-run'],
  } as const;
  const samples: Record<string, Timing[]> = {};
  for (let round = 0; round < ROUNDS; round++) {
    // Alternate which form goes first, so drift on a shared machine falls on both alike.
    const forms =
      round % 2
        ? [
            ['tsx', SOURCE],
            ['compiled', COMPILED],
          ]
        : [
            ['compiled', COMPILED],
            ['tsx', SOURCE],
          ];
    for (const [form, script] of forms) {
      for (const [name, args] of Object.entries(cases)) (samples[`${name}.${form}`] ??= []).push(timed(script!, [...args]));
    }
  }
  const wall = (k: string): number => median(samples[k]!.map((t) => t.wallS));
  const cpu = (k: string): number => median(samples[k]!.map((t) => t.cpuS));
  const figures = {
    startupHelpS: wall('help.compiled'),
    startupHelpCpuS: cpu('help.compiled'),
    startupVersionS: wall('version.compiled'),
    workerStartWallS: wall('worker.compiled'),
    workerStartCpuS: cpu('worker.compiled'),
    startupHelpTsxS: wall('help.tsx'),
    workerStartCpuTsxS: cpu('worker.tsx'),
  };
  for (const [k, v] of Object.entries(figures)) process.stdout.write(`  ${k.padEnd(20)} ${v.toFixed(3)}\n`);
  process.stdout.write(`  (medians of ${ROUNDS} alternating rounds; wall and CPU in seconds)\n`);
  return figures;
}
