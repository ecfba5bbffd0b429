/**
 * Load profiles: the zod schema of a profile file and `loadProfile(nameOrPath)`. Built-ins are the JSON
 * files in profiles/ at the repository root; a name that is not a built-in is read as a file path.
 */
import { readFileSync, readdirSync, existsSync } from 'node:fs';
import { packagePath } from '../package-root.js';
import { basename, join } from 'node:path';
import { z } from 'zod';
import { KeyRole } from '../target/schema.js';
import { SpgateError } from '../errors.js';
import { describeJsonError } from '../target/issues.js';
import { ROUTE_NAMES } from './routes.js';
import { parseThreshold } from './threshold.js';

const Weight = z.number().positive().default(1);

const NamedRouteRef = z.strictObject({
  route: z.enum(ROUTE_NAMES),
  weight: Weight,
  key: KeyRole.default('admin'),
});

const CustomRouteRef = z.strictObject({
  method: z.enum(['GET', 'POST', 'PUT', 'DELETE', 'PATCH']),
  path: z.string().regex(/^(\/|\{resolvePath\})/, 'must start with / or {resolvePath}'),
  query: z.record(z.string(), z.string()).optional(),
  body: z.unknown().optional(),
  idempotencyKey: z.boolean().default(false),
  weight: Weight,
  key: KeyRole.default('admin'),
});

export const RouteRef = z.union([NamedRouteRef, CustomRouteRef]);
export type RouteRef = z.infer<typeof RouteRef>;

/** An arrival rate: fixed requests/s, or a multiple of the class budget (limit / window) when it is known. */
export const RateSpec = z.union([
  z.number().positive(),
  z.strictObject({ budgetFactor: z.number().positive(), fallback: z.number().positive() }),
]);
export type RateSpec = z.infer<typeof RateSpec>;

export const Ramp = z.strictObject({
  start: z.number().nonnegative(),
  stages: z.array(z.strictObject({ duration: z.number().positive(), target: z.number().nonnegative() })).min(1),
});
export type Ramp = z.infer<typeof Ramp>;

/** Optional bursts on top of a constant rate: `rate × factor` for `length` s out of every `every` s. */
export const Bursts = z.strictObject({
  every: z.number().positive(),
  length: z.number().positive(),
  factor: z.number().positive(),
});
export type Bursts = z.infer<typeof Bursts>;

/**
 * Open model, explicit schedule: every send by its offset from the start (ms) and its route (an index into
 * the class's routes, each with its key role). `spgate shrink --profile-out` writes one: a rate-limit bug's
 * minimal reproduction, replayed exactly.
 */
export const ScheduledSend = z.strictObject({
  atMs: z.number().nonnegative(),
  route: z.number().int().nonnegative(),
});
export type ScheduledSend = z.infer<typeof ScheduledSend>;

const ClassMix = z.strictObject({
  routes: z.array(RouteRef).min(1, 'needs at least one route'),
  /** Closed model: concurrent connections, each sending its next request when the last one completes. */
  connections: z.number().int().positive().optional(),
  /** Open model: constant arrival rate. */
  rate: RateSpec.optional(),
  /** Open model: ramping arrival rate (rate goes linearly to each stage's target). */
  ramp: Ramp.optional(),
  bursts: Bursts.optional(),
  /** Open model: the explicit schedule of sends, instead of a rate or a ramp. */
  schedule: z.array(ScheduledSend).min(1).optional(),
});
export type ClassMix = z.infer<typeof ClassMix>;

export const Profile = z
  .strictObject({
    $schema: z.string().optional(),
    name: z.string().regex(/^[a-z0-9][a-z0-9._-]*$/, 'lowercase letters, digits, . _ -'),
    description: z.string().min(1),
    model: z.enum(['closed', 'open']),
    /** Seconds. For ramps, the stages define the shape and are scaled to fit this duration. */
    duration: z.number().positive(),
    /** Extends the duration to cover this many rate-limit windows when the window is known. */
    minWindows: z.number().positive().optional(),
    maxRequests: z.number().int().positive().optional(),
    /** Open model: connections per class; a request with no free connection waits, then is dropped. */
    maxConnections: z.number().int().positive().default(64),
    /** Open model: a request that cannot be sent this long after its intended time is dropped. */
    dropAfterMs: z.number().positive().default(1000),
    timeoutMs: z.number().positive().default(10_000),
    classes: z.strictObject({ read: ClassMix.optional(), write: ClassMix.optional() }),
    thresholds: z.array(z.string()).default([]),
    /** Capacity search: the highest per-second rate whose responses still meet this SLO. */
    capacity: z.strictObject({ p95Ms: z.number().positive(), maxErrorPct: z.number().nonnegative() }).optional(),
  })
  .superRefine((p, ctx) => {
    const classes = (['read', 'write'] as const).filter((c) => p.classes[c]);
    if (classes.length === 0) ctx.addIssue({ code: 'custom', path: ['classes'], message: 'needs a read or a write mix' });
    for (const c of classes) {
      const mix = p.classes[c]!;
      if (p.model === 'closed' && mix.connections === undefined) {
        ctx.addIssue({ code: 'custom', path: ['classes', c, 'connections'], message: 'the closed model needs connections' });
      }
      const shapes = [mix.rate, mix.ramp, mix.schedule].filter((x) => x !== undefined).length;
      if (p.model === 'open' && shapes !== 1) {
        ctx.addIssue({ code: 'custom', path: ['classes', c], message: 'the open model needs exactly one of rate, ramp or schedule' });
      }
      if (p.model === 'closed' && (mix.rate || mix.ramp || mix.bursts || mix.schedule)) {
        ctx.addIssue({ code: 'custom', path: ['classes', c], message: 'rate, ramp, bursts and schedule belong to the open model' });
      }
      mix.schedule?.forEach((send, i) => {
        if (send.route >= mix.routes.length) ctx.addIssue({ code: 'custom', path: ['classes', c, 'schedule', i, 'route'], message: `no route ${send.route} (the class has ${mix.routes.length})` });
        if (send.atMs >= p.duration * 1000) ctx.addIssue({ code: 'custom', path: ['classes', c, 'schedule', i, 'atMs'], message: `${send.atMs} ms is not within the duration (${p.duration} s)` });
      });
      if (mix.bursts && !mix.rate) ctx.addIssue({ code: 'custom', path: ['classes', c, 'bursts'], message: 'bursts need a constant rate' });
      mix.routes.forEach((r, i) => {
        const method = 'route' in r ? undefined : r.method;
        const wantsClass = method === undefined ? undefined : method === 'GET' ? 'read' : 'write';
        if (wantsClass && wantsClass !== c) {
          ctx.addIssue({ code: 'custom', path: ['classes', c, 'routes', i, 'method'], message: `${method} belongs to the ${wantsClass} class` });
        }
      });
    }
    p.thresholds.forEach((t, i) => {
      const r = parseThreshold(t);
      if (!r.ok) ctx.addIssue({ code: 'custom', path: ['thresholds', i], message: r.error });
    });
  });
export type ProfileInput = z.input<typeof Profile>;
export type Profile = z.infer<typeof Profile>;

const PROFILES_DIR = packagePath('profiles');

/** Names of the built-in profiles (the JSON files in profiles/). */
export function builtinProfileNames(): string[] {
  if (!existsSync(PROFILES_DIR)) return [];
  return readdirSync(PROFILES_DIR).filter((f) => f.endsWith('.json')).map((f) => basename(f, '.json')).sort();
}

/** Validates parsed JSON as a profile; throws SPGATE_ERR_PROFILE_INVALID naming the source and field. */
export function parseProfile(data: unknown, source: string): Profile {
  const r = Profile.safeParse(data);
  if (r.success) return r.data;
  const issue = r.error.issues[0]!;
  const field = issue.path.length ? issue.path.map((p) => (typeof p === 'number' ? `[${p}]` : `.${String(p)}`)).join('').replace(/^\./, '') : '(root)';
  throw new SpgateError('SPGATE_ERR_PROFILE_INVALID', `${source}: ${field}: ${issue.message}`);
}

/** Loads a built-in profile by name, or a profile file by path. */
export function loadProfile(nameOrPath: string): Profile {
  const builtins = builtinProfileNames();
  const file = builtins.includes(nameOrPath) ? join(PROFILES_DIR, `${nameOrPath}.json`) : nameOrPath;
  if (!builtins.includes(nameOrPath) && !existsSync(file)) {
    throw new SpgateError('SPGATE_ERR_PROFILE_UNKNOWN', `no built-in profile or file "${nameOrPath}" (built-ins: ${builtins.join(', ')})`);
  }
  let text: string;
  try {
    text = readFileSync(file, 'utf8');
  } catch (err) {
    throw new SpgateError('SPGATE_ERR_FILE_NOT_FOUND', `cannot read profile ${file}: ${(err as Error).message}`, { cause: err });
  }
  let data: unknown;
  try {
    data = JSON.parse(text);
  } catch (err) {
    throw new SpgateError('SPGATE_ERR_PROFILE_INVALID', `${file}: not JSON: ${describeJsonError(text, err)}`, { cause: err });
  }
  return parseProfile(data, file);
}
