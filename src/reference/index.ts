/**
 * The embedded reference server: a faithful, fast, in-memory implementation of the Support Platform API
 * with seeded data, keys for every role, a fixtures API and switchable faults. It is the system under test,
 * so it shares no code with the checking side (checks, conformance, suites, ratelimit, spec).
 */
import { randomInt } from 'node:crypto';
import type { TargetFileInput } from '../target/schema.js';
import { createApp } from './app.js';
import { DIALECTS, dialectOf, isDialectName, DIALECT_NAMES, type Dialect, type DialectName } from './dialect.js';
import { FAULTS, isFaultName, type FaultName } from './faults.js';
import { createHttpServer, listen } from './server.js';
import { describeTarget, type DescribeOptions } from './target.js';
import { parseWorlds, type Worlds } from './worlds/index.js';

export { FAULTS, FAULT_NAMES, isFaultName, type FaultName } from './faults.js';
export { DIALECTS, DIALECT_NAMES, describeDialects, isDialectName, type Dialect, type DialectName } from './dialect.js';
export { POOL_SIZES } from './pools.js';
export { writeTargetFile, type DescribeOptions } from './target.js';
export {
  WORLD_DEFAULTS,
  WORLD_DESCRIPTIONS,
  WORLD_NAMES,
  formatWorlds,
  isWorldName,
  parseWorlds,
  type WorldName,
  type Worlds,
} from './worlds/index.js';

export interface ReferenceServerOptions {
  /** Port to listen on; 0 (default) picks a free one. */
  port?: number;
  /** Interface to bind; default 127.0.0.1. */
  host?: string;
  /** Seed for ids, keys and data; random when absent. */
  seed?: number;
  /** Rate-limit budgets per key and route class (default: the dialect's; default dialect read 1000, write 250 per 5 s). */
  budgets?: { read?: number; write?: number; windowSeconds?: number };
  faults?: FaultName[];
  /** The set of choices where the spec says "not shown" (default: `default`). Faults apply in every dialect. */
  dialect?: DialectName;
  /** Single strict choices switched over the dialect's, e.g. `{ uniqueSlugs: true }` (docs/reference-server.md, Dialects). */
  strict?: Partial<Dialect['strict']>;
  /** Serve the /_fixtures API (default true); false makes it 404 and leaves fixtures.api out of the target. */
  fixturesApi?: boolean;
  /**
   * The conditions of a shared staging (docs/reference-server.md, Worlds): parsed worlds, or specs such as
   * `['big=12000', 'busy,drifting=2s']`. Not faults: the server stays correct in every world.
   */
  worlds?: Worlds | readonly string[];
  /** Milliseconds since the epoch as the server sees them (default Date.now): tests move it past a window instead of waiting. */
  clock?: () => number;
}

export interface RunningReferenceServer {
  origin: string;
  /** origin + '/v1' */
  baseUrl: string;
  /** origin + '/_fixtures' */
  fixturesUrl: string;
  /** A complete target file describing this server (keys inline, budgets stated). */
  target: TargetFileInput;
  /** The target file with options, e.g. `{ budgets: false }` to leave assumptions.rateLimit out. */
  describe(opts?: DescribeOptions): TargetFileInput;
  /** The dialect in use. */
  dialect: DialectName;
  /** The seed in use (useful when it was random). */
  seed: number;
  /** The worlds switched on (empty for a quiet lab). */
  worlds: Worlds;
  /** Replaces the active faults. */
  setFaults(f: FaultName[]): void;
  close(): Promise<void>;
}

/** The budgets of the default dialect (other dialects bring their own; see dialect.ts). */
export const DEFAULT_BUDGETS = {
  read: DIALECTS.default.limiter.read,
  write: DIALECTS.default.limiter.write,
  windowSeconds: DIALECTS.default.limiter.windowSeconds,
} as const;

/** Starts a reference server and resolves once it is listening. */
export async function startReferenceServer(opts: ReferenceServerOptions = {}): Promise<RunningReferenceServer> {
  for (const f of opts.faults ?? []) if (!isFaultName(f)) throw new RangeError(`unknown fault "${String(f)}"`);
  const dialectName = opts.dialect ?? 'default';
  if (!isDialectName(dialectName)) throw new RangeError(`unknown dialect "${String(dialectName)}"; valid: ${DIALECT_NAMES.join(', ')}`);
  const named = dialectOf(dialectName);
  const dialect: Dialect = opts.strict ? { ...named, strict: { ...named.strict, ...stripUndefined(opts.strict) } } : named;
  const seed = opts.seed ?? randomInt(0, 2 ** 31);
  const { model, ...dialectBudgets } = dialect.limiter;
  const budgets = { ...dialectBudgets, ...stripUndefined(opts.budgets ?? {}), model };
  const worlds = Array.isArray(opts.worlds) ? parseWorlds(opts.worlds as readonly string[]) : ((opts.worlds as Worlds | undefined) ?? {});
  const app = createApp({ seed, budgets, faults: opts.faults ?? [], dialect, fixturesApi: opts.fixturesApi, worlds, clock: opts.clock });
  const server = createHttpServer(app);
  const host = opts.host ?? '127.0.0.1';
  let addr;
  try {
    addr = await listen(server, opts.port ?? 0, host);
  } catch (err) {
    app.stopWorlds();
    throw err;
  }
  const hostPart = addr.family === 'IPv6' ? `[${addr.address}]` : addr.address;
  const origin = `http://${hostPart}:${addr.port}`;
  const baseUrl = `${origin}/v1`;
  const fixturesUrl = `${origin}/_fixtures`;
  return {
    origin,
    baseUrl,
    fixturesUrl,
    seed,
    dialect: dialectName,
    worlds,
    target: describeTarget(app, baseUrl, fixturesUrl),
    describe: (o) => describeTarget(app, baseUrl, fixturesUrl, o),
    setFaults(f) {
      for (const name of f) if (!isFaultName(name)) throw new RangeError(`unknown fault "${String(name)}"`);
      app.faults.set(f);
    },
    close() {
      app.stopWorlds();
      return new Promise<void>((resolve, reject) => {
        server.close((err) => (err ? reject(err) : resolve()));
        server.closeAllConnections();
      });
    },
  };
}

function stripUndefined<T extends object>(o: T): Partial<T> {
  return Object.fromEntries(Object.entries(o).filter(([, v]) => v !== undefined)) as Partial<T>;
}

/** One-line descriptions of every fault, for help texts. */
export function describeFaults(): string[] {
  return Object.entries(FAULTS).map(([name, info]) => `${name}: ${info.description}`);
}
