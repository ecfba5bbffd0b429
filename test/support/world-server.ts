/**
 * A reference server in a dialect, worlds and faults, on port 0, with the ids-only target a user gets from
 * `spgate serve --target-out FILE --no-fixtures-api`: written by the same writer and loaded back from the
 * file as `spgate conformance --target FILE` loads it. And the verdict of a conformance run in one table row.
 */
import { rmSync } from 'node:fs';
import { join } from 'node:path';
import { runConformance } from './conformance.js';
import {
  startReferenceServer,
  writeTargetFile,
  type DialectName,
  type FaultName,
  type ReferenceServerOptions,
  type RunningReferenceServer,
} from '../../src/reference/index.js';
import { loadTarget } from '../../src/target/load.js';
import type { Target } from '../../src/target/schema.js';
import { tempDir } from './target-file.js';

export interface WorldServerOptions {
  dialect?: DialectName;
  /** World specs as `--world` takes them, e.g. ['big=12000', 'busy,drifting=0']. */
  worlds?: readonly string[];
  faults?: FaultName[];
  seed?: number;
  budgets?: ReferenceServerOptions['budgets'];
  /** Leave assumptions.rateLimit out of the file (`--omit-budgets`). */
  omitBudgets?: boolean;
  /** Serve the fixtures API and name it in the file (default false: the ids-only path of every real deployment). */
  fixturesApi?: boolean;
}

export interface WorldServer {
  server: RunningReferenceServer;
  /** The target file as written (mode 0600, keys inline). */
  targetFile: string;
  /** That file, loaded as the CLI loads it. */
  target: Target;
  close(): Promise<void>;
}

/** Starts the server (without a fixtures API unless asked) and writes and loads its target file. */
export async function startWorldServer(opts: WorldServerOptions = {}): Promise<WorldServer> {
  const server = await startReferenceServer({
    port: 0,
    seed: opts.seed ?? 11,
    dialect: opts.dialect,
    worlds: opts.worlds ?? [],
    faults: opts.faults ?? [],
    budgets: opts.budgets,
    fixturesApi: opts.fixturesApi ?? false,
  });
  const dir = tempDir('spgate-worlds-');
  try {
    const targetFile = join(dir, 'target.json');
    await writeTargetFile(targetFile, server.describe({ budgets: opts.omitBudgets !== true }));
    const target = await loadTarget(targetFile);
    return {
      server,
      targetFile,
      target,
      close: async () => {
        rmSync(dir, { recursive: true, force: true });
        await server.close();
      },
    };
  } catch (err) {
    rmSync(dir, { recursive: true, force: true });
    await server.close();
    throw err;
  }
}

/** One cell of the world × dialect table: what a conformance run said. */
export interface WorldVerdict {
  dialect: DialectName;
  worlds: string;
  /** Check ids with findings (sorted, unique). */
  findings: string[];
  /** `checkId: reason` of the checks that could not judge. */
  inconclusive: string[];
  /** `checkId: reason` of checks that errored. */
  errors: string[];
  /** Checks that ran (not skipped) and all checks. */
  ran: number;
  total: number;
  ms: number;
}

/** Runs conformance (every suite, as `spgate conformance --target FILE` does) and sums the outcome up. */
export async function worldVerdict(opts: WorldServerOptions & { runs?: number; runSeed?: number }): Promise<WorldVerdict> {
  const t0 = Date.now();
  const ws = await startWorldServer(opts);
  try {
    const out = await runConformance({ target: ws.target, runs: opts.runs ?? 4, seed: opts.runSeed ?? 5 });
    return {
      dialect: opts.dialect ?? 'default',
      worlds: (opts.worlds ?? []).join(',') || 'quiet',
      findings: [...new Set(out.findings.map((f) => f.checkId))].sort(),
      inconclusive: out.checks.filter((c) => c.status === 'inconclusive').map((c) => `${c.checkId}: ${c.reason ?? ''}`),
      errors: out.checks.filter((c) => c.status === 'error').map((c) => `${c.checkId}: ${c.reason ?? ''}`),
      ran: out.checks.filter((c) => c.status !== 'skipped').length,
      total: out.checks.length,
      ms: Date.now() - t0,
    };
  } finally {
    await ws.close();
  }
}
