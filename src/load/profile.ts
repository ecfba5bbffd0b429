/**
 * Load profiles: the zod schema of a profile file and `loadProfile(nameOrPath)`. Built-ins are the JSON
 * files in profiles/ at the repository root; a name that is not a built-in is read as a file path.
 */
import { readFileSync, readdirSync, existsSync } from 'node:fs';
import { packagePath } from '../package-root.js';
import { basename, join } from 'node:path';
import { parse as parseYaml, YAMLParseError } from 'yaml';
import { z } from 'zod';
import { KeyRole } from '../target/schema.js';
import { SpgateError } from '../errors.js';
import { describeJsonError } from '../target/issues.js';
import { didYouMean, fieldsAt } from '../target/suggest.js';
import { ROUTE_NAMES, ROUTE_CLASSES } from '../spec/routes.js';
import { parseThreshold } from '../fold/threshold.js';

const Weight = z
  .number()
  .positive()
  .default(1)
  .describe("The route's share of its class's requests, relative to the other routes' weights.");
const RouteKey = KeyRole.default('admin').describe('Key role the requests are sent with (a role of the target file).');

const NamedRouteRef = z.strictObject({
  route: z.enum(ROUTE_NAMES).describe('A built-in route by name (docs/profiles.md lists them).'),
  weight: Weight,
  key: RouteKey,
});

const CustomRouteRef = z.strictObject({
  method: z
    .enum(['GET', 'POST', 'PUT', 'DELETE', 'PATCH'])
    .describe('HTTP method; GET belongs to the read class, the others to the write class.'),
  path: z
    .string()
    .regex(/^(\/|\{resolvePath\})/, 'must start with / or {resolvePath}')
    .describe('Path under baseUrl (starts with /, or {resolvePath}); {name} placeholders are filled from fixtures.ids of the target file.'),
  query: z.record(z.string(), z.string()).optional().describe('Query parameters, by name.'),
  body: z.unknown().optional().describe('JSON request body.'),
  idempotencyKey: z.boolean().default(false).describe('Send a fresh Idempotency-Key header with every request.'),
  weight: Weight,
  key: RouteKey,
});

export const RouteRef = z.union([NamedRouteRef, CustomRouteRef]);
export type RouteRef = z.infer<typeof RouteRef>;

/** An arrival rate: fixed requests/s, or a multiple of the class budget (limit / window) when it is known. */
export const RateSpec = z.union([
  z.number().positive(),
  z.strictObject({
    budgetFactor: z.number().positive().describe("Multiple of the class's budget rate (limit / window)."),
    fallback: z.number().positive().describe('Requests per second when the budget is not known.'),
  }),
]);
export type RateSpec = z.infer<typeof RateSpec>;

export const Ramp = z.strictObject({
  start: z.number().nonnegative().describe('Requests per second at the start.'),
  stages: z
    .array(
      z.strictObject({
        duration: z.number().positive().describe("The stage's length in seconds (stages are scaled to fit the profile's duration)."),
        target: z.number().nonnegative().describe('Requests per second reached, linearly, at the end of the stage.'),
      }),
    )
    .min(1)
    .describe('Stages of the ramp, in order.'),
});
export type Ramp = z.infer<typeof Ramp>;

/** Optional bursts on top of a constant rate: `rate × factor` for `length` s out of every `every` s. */
export const Bursts = z.strictObject({
  every: z.number().positive().describe('Seconds from one burst to the next.'),
  length: z.number().positive().describe('Seconds a burst lasts.'),
  factor: z.number().positive().describe('Multiple of the constant rate during a burst.'),
});
export type Bursts = z.infer<typeof Bursts>;

/**
 * Open model, explicit schedule: every send by its offset from the start (ms) and its route (an index into
 * the class's routes, each with its key role). `spgate shrink --profile-out` writes one: a rate-limit bug's
 * minimal reproduction, replayed exactly.
 */
export const ScheduledSend = z.strictObject({
  atMs: z.number().nonnegative().describe('Offset of the send from the start, ms (within the duration).'),
  route: z.number().int().nonnegative().describe("Index into the class's routes."),
});
export type ScheduledSend = z.infer<typeof ScheduledSend>;

const ClassMix = z.strictObject({
  routes: z
    .array(RouteRef)
    .min(1, 'needs at least one route')
    .describe('The routes of the class: a built-in route by name, or a method and path of your own.'),
  connections: z
    .number()
    .int()
    .positive()
    .optional()
    .describe('Closed model: concurrent connections, each sending its next request when the last one completes.'),
  rate: RateSpec.optional().describe('Open model: constant arrival rate, requests per second (or a multiple of the budget).'),
  ramp: Ramp.optional().describe("Open model: ramping arrival rate (the rate goes linearly to each stage's target)."),
  bursts: Bursts.optional().describe('Open model: bursts of rate × factor on top of a constant rate.'),
  schedule: z
    .array(ScheduledSend)
    .min(1)
    .optional()
    .describe('Open model: the explicit schedule of sends, instead of a rate or a ramp (spgate shrink writes one).'),
});
export type ClassMix = z.infer<typeof ClassMix>;

export const Profile = z
  .strictObject({
    $schema: z.string().optional().describe('Path or URL of this JSON Schema, for editors; ignored by spgate.'),
    name: z
      .string()
      .regex(/^[a-z0-9][a-z0-9._-]*$/, 'lowercase letters, digits, . _ -')
      .describe("The profile's name in reports and re-run lines: lowercase letters, digits, . _ -."),
    description: z.string().min(1).describe('What the profile does, in a sentence (shown in reports).'),
    model: z
      .enum(['closed', 'open'])
      .describe('closed: fixed connections, each waiting for its answer; open: an arrival rate, corrected for coordinated omission.'),
    duration: z.number().positive().describe('Seconds. For ramps, the stages define the shape and are scaled to fit this duration.'),
    minWindows: z
      .number()
      .positive()
      .optional()
      .describe('Extends the duration to cover this many rate-limit windows when the window is known.'),
    maxRequests: z.number().int().positive().optional().describe('Requests the profile sends at most.'),
    maxConnections: z
      .number()
      .int()
      .positive()
      .default(64)
      .describe('Open model: connections per class; a request with no free connection waits, then is dropped.'),
    dropAfterMs: z
      .number()
      .positive()
      .default(1000)
      .describe('Open model: a request that cannot be sent this long after its intended time is dropped (and counted).'),
    timeoutMs: z.number().positive().default(10_000).describe('Bound on one request, ms.'),
    keys: z
      .enum(['role', 'pool'])
      .default('role')
      .describe(
        "role: every request of a route uses its role's key; pool: the requests are spread over the role's key and its pool " +
          "(keys.ROLE.pool of the target file), so the keys' combined budget can exceed what the server serves (capacity). " +
          'The rate limits are judged per key either way.',
      ),
    classes: z
      .strictObject({
        read: ClassMix.optional().describe('The read class (GET requests) and its load.'),
        write: ClassMix.optional().describe('The write class (POST, PUT, PATCH, DELETE requests) and its load.'),
      })
      .describe('The load per route class; at least one of read and write.'),
    thresholds: z
      .array(z.string())
      .default([])
      .describe('k6-style pass/fail expressions (e.g. "read.p95 < 250ms", "errors < 1%", "ratelimit.violations == 0").'),
    capacity: z
      .strictObject({
        p95Ms: z.number().positive().describe('The SLO: p95 latency at most this many ms.'),
        maxErrorPct: z.number().nonnegative().describe('The SLO: at most this percentage of errors.'),
      })
      .optional()
      .describe('Capacity search: the highest per-second rate whose responses still meet this SLO.'),
  })
  .superRefine((p, ctx) => {
    const classes = ROUTE_CLASSES.filter((c) => p.classes[c]);
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
        if (send.route >= mix.routes.length)
          ctx.addIssue({
            code: 'custom',
            path: ['classes', c, 'schedule', i, 'route'],
            message: `no route ${send.route} (the class has ${mix.routes.length})`,
          });
        if (send.atMs >= p.duration * 1000)
          ctx.addIssue({
            code: 'custom',
            path: ['classes', c, 'schedule', i, 'atMs'],
            message: `${send.atMs} ms is not within the duration (${p.duration} s)`,
          });
      });
      if (mix.bursts && !mix.rate) ctx.addIssue({ code: 'custom', path: ['classes', c, 'bursts'], message: 'bursts need a constant rate' });
      mix.routes.forEach((r, i) => {
        const method = 'route' in r ? undefined : r.method;
        const wantsClass = method === undefined ? undefined : method === 'GET' ? 'read' : 'write';
        if (wantsClass && wantsClass !== c) {
          ctx.addIssue({
            code: 'custom',
            path: ['classes', c, 'routes', i, 'method'],
            message: `${method} belongs to the ${wantsClass} class`,
          });
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
  return readdirSync(PROFILES_DIR)
    .filter((f) => f.endsWith('.json'))
    .map((f) => basename(f, '.json'))
    .sort();
}

/** Validates parsed JSON as a profile; throws SPGATE_ERR_PROFILE_INVALID naming the source and field. */
export function parseProfile(data: unknown, source: string): Profile {
  const r = Profile.safeParse(data);
  if (r.success) return r.data;
  const issue = r.error.issues[0]!;
  const field = issue.path.length
    ? issue.path
        .map((p) => (typeof p === 'number' ? `[${p}]` : `.${String(p)}`))
        .join('')
        .replace(/^\./, '')
    : '(root)';
  const hint =
    issue.code === 'unrecognized_keys' && issue.keys[0] !== undefined ? didYouMean(issue.keys[0], fieldsAt(Profile, issue.path)) : '';
  throw new SpgateError('SPGATE_ERR_PROFILE_INVALID', `${source}: ${field}: ${issue.message}${hint}`);
}

/** Loads a built-in profile by name, or a profile file by path (JSON, or YAML for .yaml/.yml). */
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
  return parseProfile(parseProfileText(file, text), file);
}

/** Parses profile-file text by the file's extension (YAML for .yaml/.yml, JSON otherwise); errors name the line and column. */
export function parseProfileText(file: string, text: string): unknown {
  const body = text.charCodeAt(0) === 0xfeff ? text.slice(1) : text;
  if (/\.ya?ml$/i.test(file)) {
    try {
      return parseYaml(body, { uniqueKeys: true }) as unknown;
    } catch (err) {
      const pos = err instanceof YAMLParseError ? err.linePos?.[0] : undefined;
      const problem = (err instanceof Error ? err.message.split('\n', 1)[0]! : 'invalid YAML').replace(/ at line \d+, column \d+:?$/, '');
      throw new SpgateError(
        'SPGATE_ERR_PROFILE_INVALID',
        `${file}: not YAML: ${pos ? `line ${pos.line}, column ${pos.col}: ` : ''}${problem}`,
        { cause: err },
      );
    }
  }
  try {
    return JSON.parse(body) as unknown;
  } catch (err) {
    throw new SpgateError('SPGATE_ERR_PROFILE_INVALID', `${file}: not JSON: ${describeJsonError(body, err)}`, { cause: err });
  }
}
