/**
 * The state one reference server works on: data, keys, faults, limiter, signers. Handlers receive it with
 * the call, so nothing lives in module-level globals and several servers can run in one process.
 */
import { createHmac } from 'node:crypto';
import type { IncomingHttpHeaders } from 'node:http';
import type { FixtureIds, KeyRole, Scope } from '../target/schema.js';
import { createConnections, type Connection } from './connections.js';
import { CursorSigner } from './cursor.js';
import { AGENTS, TEAMS, type Dialect } from './dialect.js';
import { FaultSet } from './fault-set.js';
import type { FaultName } from './faults.js';
import { IdempotencyStore } from './idempotency.js';
import { OpaqueCursors } from './opaque-cursor.js';
import { POOL_SIZES, seedPools } from './pools.js';
import { Prng } from './prng.js';
import { RateLimiter, type Budgets } from './rate-limiter.js';
import type { Reply } from './reply.js';
import { Router } from './router.js';
import { routesFor } from './routes.js';
import { DEFAULT_SEED_SHAPE, seedDefaultData } from './seed.js';
import { Store } from './store.js';
import { seedBig } from './worlds/big.js';
import { startBusy } from './worlds/busy.js';
import { startDrift } from './worlds/drifting.js';
import type { Worlds } from './worlds/index.js';
import { SPARSE_POOL_SIZES, SPARSE_SEED_SHAPE } from './worlds/sparse.js';

export interface App {
  store: Store;
  faults: FaultSet;
  clock: () => number;
  conns: Map<KeyRole, Connection>;
  byKey: Map<string, Connection>;
  byId: Map<string, Connection>;
  limiter: RateLimiter;
  cursors: Cursors;
  /** The choices this server makes where the spec says "not shown". */
  dialect: Dialect;
  /** The /v1 routes of the dialect. */
  router: Router;
  /** False when the /_fixtures routes are switched off (the ids-only path). */
  fixturesApi: boolean;
  idem: IdempotencyStore;
  /** Request ids come from their own stream so serving requests never shifts data ids. */
  requestIds: Prng;
  fixtureIds: FixtureIds;
  workspace: { id: string; name: string };
  /** Signs attachment download URLs. */
  signUrl(path: string, expires: number): string;
  /**
   * The server's other workspaces (spec 5.1: a key is bound to one workspace). Each is a whole App of its
   * own, so handlers and the Store stay single-workspace and nothing crosses over by construction.
   */
  siblings: App[];
  /** Keys of other workspaces this server answers (the first workspace only): key → the workspace serving it. */
  foreignKeys: Map<string, App>;
  /** The worlds this workspace lives in (worlds/index.ts); empty for a quiet lab. */
  worlds: Worlds;
  /** Stops what the worlds keep doing by themselves (the busy client, a pending drift); safe to call twice. */
  stopWorlds(): void;
}

/** One /v1 call after authentication, body reading and route matching. */
export interface Call {
  method: string;
  params: string[];
  query: URLSearchParams;
  /** The query string as received (not percent-decoded). */
  rawQuery: string;
  headers: IncomingHttpHeaders;
  conn: Connection;
  body: Buffer | null;
}

/** Both cursor formats (signed, opaque) answer the same three calls. */
export type Cursors = Pick<CursorSigner, 'sign' | 'signStandard' | 'verify'>;

export type Handler = (app: App, call: Call) => Reply | Promise<Reply>;

export interface RouteDef {
  method: string;
  /** Path below /v1 with :params, e.g. "/customers/:id". */
  path: string;
  scopes: Scope[];
  handler: Handler;
}

export interface AppOptions {
  seed: number;
  budgets: Budgets;
  faults: readonly FaultName[];
  dialect: Dialect;
  fixturesApi?: boolean;
  clock?: () => number;
  /** The worlds of the first workspace (the one the target file describes); the other stays quiet. */
  worlds?: Worlds;
}

/**
 * Builds the state of a fresh server: keys, seeded data and empty limiter buckets, and a second workspace
 * with its own keys and data (seed derived from the first's) whose admin key is the otherWorkspace role.
 */
export function createApp(opts: AppOptions): App {
  const faults = new FaultSet(opts.faults);
  const first = createWorkspace(opts, faults, 'Reference Workspace');
  // fork 8 comes after every stream the first workspace draws from, so its ids and keys stay what they were
  const other = createWorkspace({ ...opts, seed: new Prng(opts.seed).fork(8).int(2 ** 31), worlds: {} }, faults, 'Other Workspace');
  first.siblings = [other];
  other.siblings = [first];
  first.foreignKeys = new Map([[other.conns.get('admin')!.key, other]]);
  return first;
}

/** The second workspace's admin connection, which the first workspace's target file names otherWorkspace. */
export function otherWorkspaceConnection(app: App): Connection | undefined {
  return app.siblings[0]?.conns.get('admin');
}

function createWorkspace(opts: AppOptions, faults: FaultSet, name: string): App {
  const clock = opts.clock ?? Date.now;
  const root = new Prng(opts.seed);
  const keyRng = root.fork(1);
  const dataRng = root.fork(2);
  const seedRng = root.fork(3);
  const secret = root.fork(4).token(32);
  const workspace = { id: root.fork(5).id('ws_'), name };
  const requestIds = root.fork(6);
  const cursorRng = root.fork(7);
  const conns = createConnections(keyRng, clock());
  const store = new Store(dataRng, clock);
  const worlds = opts.worlds ?? {};
  const fixtureIds = seedDefaultData(store, seedRng, conns, worlds.sparse ? SPARSE_SEED_SHAPE : DEFAULT_SEED_SHAPE);
  // pools come after the default data, from the same streams, so the default ids stay what they were
  Object.assign(fixtureIds, seedPools(store, seedRng, conns, worlds.sparse ? SPARSE_POOL_SIZES : POOL_SIZES), {
    assigneeIds: [...AGENTS],
    teams: [...TEAMS],
  });
  const stops = startWorlds(worlds, store, fixtureIds, root.fork(9), clock);
  const all = [...conns.values()];
  return {
    worlds,
    stopWorlds: () => stops.splice(0).forEach((stop) => stop()),
    store,
    faults,
    clock,
    conns,
    fixtureIds,
    workspace,
    byKey: new Map(all.map((c) => [c.key, c])),
    byId: new Map(all.map((c) => [c.id, c])),
    limiter: new RateLimiter(opts.budgets, faults, clock),
    cursors: opts.dialect.cursor === 'opaque' ? new OpaqueCursors(cursorRng) : new CursorSigner(secret + ':cursor'),
    dialect: opts.dialect,
    router: new Router(routesFor(opts.dialect)),
    fixturesApi: opts.fixturesApi ?? true,
    idem: new IdempotencyStore(faults),
    requestIds,
    signUrl: (path, expires) =>
      createHmac('sha256', secret + ':files')
        .update(`${path}\n${expires}`)
        .digest('base64url'),
    siblings: [],
    foreignKeys: new Map(),
  };
}

/**
 * Brings the worlds about, each from its own stream of the world seed (so switching one on never changes
 * what another draws), after the default data and pools: their ids stay what they are in a quiet lab.
 */
function startWorlds(worlds: Worlds, store: Store, fixtureIds: FixtureIds, rng: Prng, clock: () => number): Array<() => void> {
  const [bigRng, busyRng, driftRng] = [rng.fork(1), rng.fork(2), rng.fork(3)];
  if (worlds.big) seedBig(store, bigRng, worlds.big.customers);
  const stops: Array<() => void> = [];
  if (worlds.drifting) stops.push(startDrift(store, fixtureIds.pools ?? {}, driftRng, worlds.drifting.afterMs, clock));
  if (worlds.busy) stops.push(startBusy(store, fixtureIds, busyRng, worlds.busy.intervalMs, clock));
  return stops;
}
