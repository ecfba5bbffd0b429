/**
 * `spgate load --workers N`: the profile as N local shards, each in its own process
 * (`bin/spgate.js load --shard i/N --start-at T ...`), so a run uses every core while every response is
 * still verified in the process that received it. This file only runs the children and reports how each
 * ended; the merge is the same code `spgate merge` runs. A child that crashes or writes no results is a
 * missing shard (the merged result is then marked incomplete), never silently left out.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { SpgateError, ERROR_CATALOGUE, type SpgateErrorCode } from '../errors.js';
import { MAX_WORKERS } from './auto-workers.js';
import { CLI_ENTRY } from '../package-root.js';

const BIN = CLI_ENTRY;

/** Parses --workers: a count 1..MAX_WORKERS, or "" / "auto" for the default (auto-workers.ts). */
export function parseWorkers(raw: unknown): number | 'auto' {
  const s = String(raw).trim();
  if (s === '' || s === 'auto') return 'auto';
  if (!/^\d+$/.test(s) || Number(s) < 1 || Number(s) > MAX_WORKERS) {
    throw new SpgateError('SPGATE_ERR_USAGE', `--workers must be 1..${MAX_WORKERS} or auto (got ${JSON.stringify(s)})`);
  }
  return Number(s);
}

export interface WorkerRunOptions {
  count: number;
  /** Arguments every child gets after `load` (profile, target, duration, ...), without shard flags. */
  args: string[];
  /** Directory for the shards' results and traces. */
  dir: string;
  /** Epoch ms at which every shard starts sending. */
  startAt: number;
  signal?: AbortSignal;
  /** Called with each line a child prints to stderr (progress, warnings). */
  onStderrLine?: (index: number, line: string) => void;
}

export interface WorkerOutcome {
  index: number;
  code: number | null;
  signal: NodeJS.Signals | null;
  json: string;
  trace: string;
  /** Results written: the shard can be merged. */
  ok: boolean;
  /** The child's last one-line error, if it printed one. */
  error?: string;
}

/** The files of shard i in dir. */
export function shardFiles(dir: string, index: number): { json: string; trace: string } {
  return { json: join(dir, `shard-${index}.json`), trace: join(dir, `shard-${index}.ndjson`) };
}

/** Runs every shard as a child process; resolves when all have exited. SIGINT is passed on when the signal aborts. */
export async function runWorkers(opts: WorkerRunOptions): Promise<WorkerOutcome[]> {
  const children: ChildProcess[] = [];
  const onAbort = (): void => {
    for (const c of children) if (c.exitCode === null && c.signalCode === null) c.kill('SIGINT');
    // A child that ignores the interrupt is not allowed to hold the run open.
    setTimeout(() => {
      for (const c of children) if (c.exitCode === null && c.signalCode === null) c.kill('SIGKILL');
    }, 15_000).unref();
  };
  // Detached children would outlive a parent that dies; they go with it.
  const onExit = (): void => {
    for (const c of children) if (c.exitCode === null && c.signalCode === null) c.kill('SIGKILL');
  };
  opts.signal?.addEventListener('abort', onAbort, { once: true });
  process.once('exit', onExit);
  try {
    return await Promise.all(Array.from({ length: opts.count }, (_, index) => runOne(index, opts, children)));
  } finally {
    opts.signal?.removeEventListener('abort', onAbort);
    process.off('exit', onExit);
  }
}

function runOne(index: number, opts: WorkerRunOptions, children: ChildProcess[]): Promise<WorkerOutcome> {
  const files = shardFiles(opts.dir, index);
  const argv = [
    BIN,
    'load',
    ...opts.args,
    '--shard',
    `${index}/${opts.count}`,
    '--start-at',
    String(opts.startAt),
    '--json',
    files.json,
    '--trace',
    files.trace,
  ];
  return new Promise((resolve) => {
    // Own process group: a terminal's Ctrl-C reaches the parent only, which passes one SIGINT on (a second
    // one would kill a child before it wrote its partial results).
    const child = spawn(process.execPath, argv, {
      stdio: ['ignore', 'ignore', 'pipe'],
      detached: true,
      env: { ...process.env, SPGATE_DEBUG: '' },
    });
    children.push(child);
    let error: string | undefined;
    let partial = '';
    child.stderr!.setEncoding('utf8');
    child.stderr!.on('data', (d: string) => {
      const lines = (partial + d).split(/\r?\n|\r/);
      partial = lines.pop() ?? '';
      for (const line of lines) {
        if (/^spgate: SPGATE_ERR_/.test(line)) error = line;
        opts.onStderrLine?.(index, line);
      }
    });
    const done = (code: number | null, signal: NodeJS.Signals | null, spawnError?: string): void => {
      if (/^spgate: SPGATE_ERR_/.test(partial)) error = partial;
      error ??= spawnError;
      const ok = existsSync(files.json) && (code === 0 || code === 1 || code === 3);
      resolve({ index, code, signal, ...files, ok, ...(error ? { error } : {}) });
    };
    child.on('error', (err) => done(null, null, err.message));
    child.on('close', (code, signal) => done(code, signal));
  });
}

/** Why a worker gives no shard, in a few words for the incomplete verdict. */
export function workerFailure(w: WorkerOutcome): string {
  const how = w.signal ? `killed by ${w.signal}` : `exited with code ${w.code ?? '?'}`;
  return `worker ${w.index} ${how}${w.error ? `: ${w.error.replace(/^spgate: /, '')}` : ', no results written'}`;
}

/**
 * A usage or configuration error every worker hits alike (exit 2) is the run's error, rethrown with the
 * child's code and message so the user sees one line, as without workers.
 */
export function configErrorOf(outcomes: WorkerOutcome[]): SpgateError | undefined {
  const w = outcomes.find((o) => o.code === 2 && o.error);
  if (!w) return undefined;
  const m = /^spgate: (SPGATE_ERR_[A-Z_]+): (.*)$/.exec(w.error!);
  const code = (m && m[1]! in ERROR_CATALOGUE ? m[1] : 'SPGATE_ERR_USAGE') as SpgateErrorCode;
  return new SpgateError(code, `worker ${w.index}: ${m ? m[2] : w.error}`);
}
