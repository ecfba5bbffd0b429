/**
 * Turns a profile and a target into the concrete plan the engines run: routes filled from the fixtures,
 * write routes dropped unless the target allows writes, rates resolved against known budgets, and the
 * target's caps applied (never exceeded). Every adjustment is written into `config` so reports say so.
 * Budgets come from the target file (stated) or from a probe of the headers (observed, see discover.ts);
 * `config.budgets` says which drove each class.
 */
import type { Target, KeyName, KeyRole } from '../target/schema.js';
import type { RouteClass } from '../results/schema.js';
import { SpgateError } from '../errors.js';
import { legacyWriteWarning, WRITING_ROLES } from '../target/legacy-keys.js';
import type { Profile, RateSpec, ClassMix } from './profile.js';
import { NAMED_ROUTES, routeClass, type RouteDef, ROUTE_CLASSES } from '../spec/routes.js';
import { compileBody, fillRoutePath, tracePath } from '../target/templates.js';
import { parseThreshold, type Threshold } from '../fold/threshold.js';
import { PROBE_MAX_REQUESTS } from './budget-probe.js';
import { budgetEntry, budgetOf, needsBudget, type ClassBudget, type PlanBudgets } from './budgets.js';

export type { BudgetEntry, ClassBudget, PlanBudgets } from './budgets.js';

export interface PlannedRoute {
  /** Index in Plan.routes (stored in every sample). */
  idx: number;
  label: string;
  class: RouteClass;
  method: string;
  /** Template for traces and reports; never holds filled ids or secrets. */
  template: string;
  /** Filled path with query string, relative to baseUrl. */
  path: string;
  body?: (seq: number) => string;
  idempotencyKey: boolean;
  keyRole: KeyRole;
  /**
   * The key the requests carry: the role's own (`keyRole`), or one key of its pool (`role.pool[i]`) when
   * the profile spreads over the pool; each is a route of its own, so every figure keyed by route or key
   * (the rate-limit analysis above all: budgets are per key) sees each key apart.
   */
  keyName: KeyName;
  weight: number;
}

export interface PlannedClass {
  class: RouteClass;
  routes: PlannedRoute[];
  /** Cumulative weights, for picking a route with one random number. */
  cumulative: number[];
  /**
   * A route spread over a key pool is one planned route per key, side by side: for each position in `routes`,
   * the position of its route's first key (itself when not spread), per first key the number of its keys
   * (1 when not spread) and the next key's turn, so a draw picks the route at random and its key in turn
   * (engine.ts pickRoute) without scanning for the group's end per request.
   */
  firstKey: Int32Array;
  keyCount: Int32Array;
  keyTurn: Int32Array;
  /** Closed model. */
  connections?: number;
  /** Closed model: this class's share of target.caps.maxRps (the engine's sliding-window rate gate). */
  maxRps?: number;
  /** Open model: arrival rate (requests/s) at t seconds after start. */
  rateAt?: (t: number) => number;
  /** Open model: the highest rate rateAt reaches. */
  peakRate?: number;
  /** Open model, explicit schedule: sends by intended time (ms since start) and route index, sorted. */
  schedule?: Array<{ atMs: number; idx: number }>;
  /** Dry run: the rate is a multiple of a budget that the run will first discover from the headers. */
  budgetPending?: { budgetFactor: number; fallback: number };
}

export interface Plan {
  name: string;
  description: string;
  model: 'closed' | 'open';
  durationMs: number;
  maxRequests?: number;
  maxConnections: number;
  dropAfterMs: number;
  timeoutMs: number;
  routes: PlannedRoute[];
  classes: PlannedClass[];
  thresholds: Threshold[];
  capacity?: { p95Ms: number; maxErrorPct: number };
  /** The configuration actually run, with every clamp and dropped route explained in `notes`. */
  config: Record<string, unknown> & { notes: string[] };
}

function resolveRate(spec: RateSpec, b: ClassBudget | undefined, pending: boolean, cls: RouteClass, notes: string[]): number {
  if (typeof spec === 'number') return spec;
  if (b === undefined) {
    notes.push(
      pending
        ? `${cls}: budget to be discovered from the RateLimit headers before the run (fallback ${spec.fallback} rps if they have none)`
        : `${cls}: budget unknown (no assumptions.rateLimit.${cls}, none observed in the headers); using the fallback rate ${spec.fallback} rps`,
    );
    return spec.fallback;
  }
  return (spec.budgetFactor * b.limit) / b.windowSeconds;
}

/** Builds the rate function of one class; ramp stages are scaled to the run's duration. */
function rateFunction(
  mix: ClassMix,
  b: ClassBudget | undefined,
  pending: boolean,
  cls: RouteClass,
  durationS: number,
  notes: string[],
): { at: (t: number) => number; peak: number } {
  if (mix.ramp) {
    const total = mix.ramp.stages.reduce((s, st) => s + st.duration, 0);
    const scale = durationS / total;
    const points: Array<[number, number]> = [[0, mix.ramp.start]];
    let t = 0;
    for (const st of mix.ramp.stages) {
      t += st.duration * scale;
      points.push([t, st.target]);
    }
    const peak = Math.max(...points.map((p) => p[1]));
    const at = (x: number): number => {
      for (let i = 1; i < points.length; i++) {
        const [t1, r1] = points[i]!;
        const [t0, r0] = points[i - 1]!;
        if (x <= t1) return t1 === t0 ? r1 : r0 + ((r1 - r0) * (x - t0)) / (t1 - t0);
      }
      return points[points.length - 1]![1];
    };
    return { at, peak };
  }
  const base = resolveRate(mix.rate!, b, pending, cls, notes);
  const bursts = mix.bursts;
  if (!bursts) return { at: () => base, peak: base };
  return { at: (x) => (x % bursts.every < bursts.length ? base * bursts.factor : base), peak: base * bursts.factor };
}

function planRoute(ref: ClassMix['routes'][number], target: Target, idx: number): { route?: PlannedRoute; skip?: string } {
  const def: RouteDef & { label: string } =
    'route' in ref ? { ...NAMED_ROUTES[ref.route], label: ref.route } : { ...ref, label: `${ref.method} ${ref.path}` };
  const filled = fillRoutePath(def.path, target);
  if (!filled.ok) return { skip: `${def.label}: no fixture for {${filled.missing.join('}, {')}} in the target file` };
  if (!target.secrets[ref.key]) return { skip: `${def.label}: the target has no ${ref.key} key` };
  const qs = def.query ? new URLSearchParams(def.query).toString() : '';
  return {
    route: {
      idx,
      label: def.label,
      class: routeClass(def.method),
      method: def.method,
      template: tracePath(def.path, target),
      path: qs ? `${filled.path}?${qs}` : filled.path,
      body: compileBody(def.body, target),
      idempotencyKey: def.idempotencyKey,
      keyRole: ref.key,
      keyName: ref.key,
      weight: ref.weight,
    },
  };
}

/**
 * A route spread over its role's pool: one planned route per key, in the pool's order, so the closed
 * engine's weighted cycle sends to the keys in turn and the open engine's draw takes them in turn. `scale`
 * keeps the class's mix: every route's total weight is multiplied by it (the lcm of the class's pool sizes),
 * so integer weights stay integers.
 */
function spreadOverPool(route: PlannedRoute, names: readonly KeyName[], scale: number, firstIdx: number): PlannedRoute[] {
  const each = (route.weight * scale) / names.length;
  return names.map((keyName, i) => ({ ...route, idx: firstIdx + i, keyName, weight: each }));
}

/** The key names a class's route of role `role` spreads over: the role's pool when the profile asks for it. */
function keysFor(profile: Profile, target: Target, role: KeyRole): readonly KeyName[] {
  return profile.keys === 'pool' ? (target.pools[role] ?? [role]) : [role];
}

function lcm(a: number, b: number): number {
  const gcd = (x: number, y: number): number => (y === 0 ? x : gcd(y, x % y));
  return (a * b) / gcd(a, b);
}

/** Resolves a profile against a target (and any discovered budgets); throws SpgateError when nothing can run. */
export function planProfile(profile: Profile, target: Target, durationOverride?: number, budgets?: PlanBudgets): Plan {
  const notes: string[] = [];
  const pending = budgets?.pending === true;
  if (!target.loopback && target.caps.maxRps === undefined) {
    throw new SpgateError('SPGATE_ERR_CAPS_REQUIRED', `target ${target.name} is not on loopback: set caps.maxRps in the target file`);
  }
  // Duration: an explicit override wins; otherwise cover minWindows rate-limit windows when known.
  let durationS = durationOverride ?? profile.duration;
  if (durationOverride === undefined && profile.minWindows) {
    const windows = ROUTE_CLASSES.filter((c) => profile.classes[c]).map((c) => budgetOf(target, c, budgets)?.windowSeconds);
    const known = windows.filter((w): w is number => w !== undefined);
    if (known.length) {
      const need = profile.minWindows * Math.max(...known);
      if (need > durationS) {
        notes.push(`duration extended from ${durationS}s to ${need}s to cover ${profile.minWindows} rate-limit windows`);
        durationS = need;
      }
    } else if (pending) {
      notes.push(
        `duration to be extended to cover ${profile.minWindows} rate-limit windows once the window is discovered from the headers`,
      );
    } else {
      notes.push(
        'rate-limit window unknown (no assumptions.rateLimit, none observed in the headers): duration not extended to cover windows',
      );
    }
  }
  if (target.caps.maxDuration !== undefined && durationS > target.caps.maxDuration) {
    notes.push(`duration clamped from ${durationS}s to caps.maxDuration ${target.caps.maxDuration}s`);
    durationS = target.caps.maxDuration;
  }

  const routes: PlannedRoute[] = [];
  const classes: PlannedClass[] = [];
  // The profile's routes as written (one per route, with the keys it spreads over): what config shows.
  const shown: Array<{ cls: RouteClass; route: PlannedRoute; keys: readonly KeyName[] }> = [];
  if (profile.keys === 'pool') notes.push(...poolNotes(profile, target));
  for (const cls of ROUTE_CLASSES) {
    const mix = profile.classes[cls];
    if (!mix) continue;
    if (cls === 'write' && !target.allowWrites) {
      notes.push('write routes left out: the target file does not set allowWrites');
      continue;
    }
    const planned: PlannedRoute[] = [];
    // The schedule names routes by their index in the profile: which planned route each became.
    const byRef: Array<PlannedRoute | undefined> = [];
    // A schedule is a reproduction: sent with the keys it names, never spread.
    const spread = (role: KeyRole): readonly KeyName[] => (mix.schedule ? [role] : keysFor(profile, target, role));
    const scale = mix.routes.reduce((m, ref) => lcm(m, spread(ref.key).length), 1);
    for (const ref of mix.routes) {
      const r = planRoute(ref, target, routes.length);
      if (r.skip) notes.push(`route left out: ${r.skip}`);
      byRef.push(r.route);
      if (r.route) {
        shown.push({ cls, route: r.route, keys: spread(ref.key) });
        const copies = spreadOverPool(r.route, spread(ref.key), scale, routes.length);
        routes.push(...copies);
        planned.push(...copies);
      }
    }
    if (!planned.length) continue;
    let acc = 0;
    const cumulative = planned.map((r) => (acc += r.weight));
    const firstKey = Int32Array.from(planned, (r, i) =>
      i > 0 && r.label === planned[i - 1]!.label && r.keyRole === planned[i - 1]!.keyRole && r.keyName !== r.keyRole ? -1 : i,
    );
    for (let i = 0; i < firstKey.length; i++) if (firstKey[i]! < 0) firstKey[i] = firstKey[i - 1]!;
    const keyCount = new Int32Array(planned.length);
    for (const first of firstKey) keyCount[first]!++;
    const pc: PlannedClass = { class: cls, routes: planned, cumulative, firstKey, keyCount, keyTurn: new Int32Array(planned.length) };
    if (profile.model === 'closed') pc.connections = mix.connections;
    else if (mix.schedule) planSchedule(pc, mix.schedule, byRef, target, notes);
    else {
      const b = budgetOf(target, cls, budgets);
      const f = rateFunction(mix, b, pending, cls, durationS, notes);
      pc.rateAt = f.at;
      pc.peakRate = f.peak;
      if (pending && !b && mix.rate && typeof mix.rate !== 'number') pc.budgetPending = { ...mix.rate };
    }
    classes.push(pc);
  }
  // Write routes whose key is a pk_live_ one (e.g. key: legacyLive): the target-level warning covers the admin-like roles.
  const writeRoles = classes
    .filter((c) => c.class === 'write')
    .flatMap((c) => c.routes.map((r) => r.keyRole))
    .filter((r) => !WRITING_ROLES.includes(r));
  const legacy = legacyWriteWarning(target.secrets, writeRoles, target.allowWrites);
  if (legacy) notes.push(legacy);
  if (!classes.length) {
    const wantsWrites = profile.classes.write && !target.allowWrites;
    if (wantsWrites && !profile.classes.read) {
      throw new SpgateError(
        'SPGATE_ERR_WRITES_NOT_ALLOWED',
        `profile ${profile.name} sends only writes; set allowWrites in the target file`,
      );
    }
    throw new SpgateError(
      'SPGATE_ERR_PROFILE_INVALID',
      `profile ${profile.name}: no route can run against ${target.name} (${notes.join('; ')})`,
    );
  }

  if (pending) {
    const probed = classes.filter((c) => needsBudget(profile, c.class));
    const unstated = probed.filter((c) => !budgetOf(target, c.class, budgets)).map((c) => c.class);
    const stated = probed.filter((c) => budgetOf(target, c.class, budgets)).map((c) => c.class);
    if (unstated.length)
      notes.push(
        `budget probe before the run: up to ${PROBE_MAX_REQUESTS} requests per class (${unstated.join(', ')}) and a wait for one announced refill`,
      );
    if (stated.length) notes.push(`stated budget checked against RateLimit-Limit with one request per class (${stated.join(', ')})`);
  }
  applyRateCap(profile.model, classes, target.caps.maxRps, notes);
  let timeoutMs = profile.timeoutMs;
  const requestMs = target.timeouts?.requestMs;
  if (requestMs !== undefined && requestMs < timeoutMs) {
    notes.push(`request timeout lowered from ${timeoutMs} ms to the target's timeouts.requestMs ${requestMs} ms`);
    timeoutMs = requestMs;
  }
  let maxRequests = profile.maxRequests;
  if (target.caps.maxRequests !== undefined && (maxRequests === undefined || maxRequests > target.caps.maxRequests)) {
    notes.push(`request count capped at caps.maxRequests ${target.caps.maxRequests}`);
    maxRequests = target.caps.maxRequests;
  }

  const config = {
    model: profile.model,
    durationSeconds: durationS,
    maxRequests: maxRequests ?? null,
    caps: target.caps,
    budgets: Object.fromEntries(
      classes.filter((c) => needsBudget(profile, c.class)).map((c) => [c.class, budgetEntry(budgetOf(target, c.class, budgets), pending)]),
    ),
    classes: classes.map((c) => ({
      class: c.class,
      routes: shown
        .filter((x) => x.cls === c.class)
        .map(({ route: r, keys }) => ({
          route: r.label,
          method: r.method,
          path: r.template,
          weight: r.weight,
          key: r.keyRole,
          ...(keys.length > 1 ? { keys: [...keys] } : {}),
        })),
      connections: c.connections ?? null,
      maxRps: c.maxRps ?? null,
      peakRate: c.peakRate !== undefined ? round(c.peakRate) : null,
      startRate: c.rateAt ? round(c.rateAt(0)) : null,
    })),
    notes,
  };
  return {
    name: profile.name,
    description: profile.description,
    model: profile.model,
    durationMs: durationS * 1000,
    maxRequests,
    maxConnections: profile.maxConnections,
    dropAfterMs: profile.dropAfterMs,
    timeoutMs,
    routes,
    classes,
    thresholds: profile.thresholds.map((t) => {
      const r = parseThreshold(t);
      if (!r.ok) throw new SpgateError('SPGATE_ERR_PROFILE_INVALID', r.error);
      return r.threshold;
    }),
    capacity: profile.capacity,
    config,
  };
}

/** What `keys: "pool"` does with this target: the pool each role spreads over, or that a role has none. */
function poolNotes(profile: Profile, target: Target): string[] {
  const roles = [...new Set((['read', 'write'] as const).flatMap((c) => profile.classes[c]?.routes.map((r) => r.key) ?? []))];
  return roles.map((role) => {
    const pool = target.pools[role];
    return pool
      ? `${role}: requests spread over ${pool.length} keys (${pool.join(', ')}); rate limits judged per key`
      : `${role}: keys "pool" but the target file gives the role no pool (keys.${role}.pool): every request uses its one key`;
  });
}

/**
 * An explicit schedule is sent as written: sends of left-out routes are dropped (and said), and a schedule
 * above caps.maxRps is refused rather than scaled, since a slowed-down reproduction reproduces nothing.
 */
function planSchedule(
  pc: PlannedClass,
  schedule: NonNullable<ClassMix['schedule']>,
  byRef: Array<PlannedRoute | undefined>,
  target: Target,
  notes: string[],
): void {
  const sends = schedule
    .flatMap((s) => (byRef[s.route] ? [{ atMs: s.atMs, idx: byRef[s.route]!.idx }] : []))
    .sort((a, b) => a.atMs - b.atMs);
  if (sends.length < schedule.length)
    notes.push(`${pc.class}: ${schedule.length - sends.length} scheduled send(s) of left-out routes dropped`);
  const perSecond = new Map<number, number>();
  for (const s of sends) perSecond.set(Math.floor(s.atMs / 1000), (perSecond.get(Math.floor(s.atMs / 1000)) ?? 0) + 1);
  const peak = Math.max(0, ...perSecond.values());
  if (target.caps.maxRps !== undefined && peak > target.caps.maxRps) {
    throw new SpgateError(
      'SPGATE_ERR_PROFILE_INVALID',
      `the ${pc.class} schedule peaks at ${peak} requests/s, above the target's caps.maxRps ${target.caps.maxRps} (a slowed-down schedule would not reproduce)`,
    );
  }
  pc.schedule = sends;
  pc.rateAt = (t) => perSecond.get(Math.floor(t)) ?? 0;
  pc.peakRate = peak;
  notes.push(`${pc.class}: explicit schedule of ${sends.length} sends`);
}

/** Scales every class down so the combined peak rate stays within caps.maxRps. */
function applyRateCap(model: 'closed' | 'open', classes: PlannedClass[], maxRps: number | undefined, notes: string[]): void {
  if (maxRps === undefined) return;
  if (model === 'closed') {
    const conns = classes.reduce((s, c) => s + (c.connections ?? 0), 0);
    for (const c of classes) c.maxRps = Math.max(1, Math.floor((maxRps * (c.connections ?? 0)) / conns));
    notes.push(`closed model limited to caps.maxRps ${maxRps} in total`);
    return;
  }
  // Schedules are checked against the cap as they are (planSchedule), never scaled.
  const scalable = classes.filter((c) => !c.schedule);
  const peak = scalable.reduce((s, c) => s + (c.peakRate ?? 0), 0);
  if (peak <= maxRps) return;
  const k = maxRps / peak;
  for (const c of scalable) {
    const f = c.rateAt!;
    c.rateAt = (t) => f(t) * k;
    c.peakRate = c.peakRate! * k;
  }
  notes.push(`arrival rates scaled by ${round(k)} so the peak (${round(peak)} rps) stays within caps.maxRps ${maxRps}`);
}

function round(v: number): number {
  return Math.round(v * 100) / 100;
}
