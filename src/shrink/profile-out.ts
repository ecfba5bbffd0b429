/**
 * The minimal schedule as a regression profile: the open model's explicit-schedule form (every send by
 * offset, route and key role; no ids, no keys), with the violation's absence as its threshold, so
 * `spgate load --profile repro.json` fails while the bug is there and passes once it is fixed. Pure.
 */
import { NAMED_ROUTES, type RouteName, ROUTE_CLASSES } from '../spec/routes.js';
import { parseProfile, type ProfileInput } from '../load/profile.js';
import { KEY_ROLES, type KeyRole } from '../target/schema.js';
import { replayBody } from '../trace/fill.js';
import { spanMs, type Send } from './schedule.js';
import { describeSignature, type ViolationSignature } from './signature.js';

type Mix = NonNullable<ProfileInput['classes']['read']>;
type Route = Mix['routes'][number];

/** A named route when the send is one (same method and template), else the method and template as a custom route. */
function routeOf(s: Send): Route {
  const key: KeyRole = s.key !== undefined && (KEY_ROLES as readonly string[]).includes(s.key) ? (s.key as KeyRole) : 'admin';
  for (const [name, def] of Object.entries(NAMED_ROUTES)) {
    if (def.method === s.method.toUpperCase() && templateShape(def.path) === templateShape(s.path))
      return { route: name as RouteName, key };
  }
  const body = replayBody(s.method, s.path);
  return { method: s.method.toUpperCase() as 'GET', path: s.path, key, ...(body !== undefined ? { body } : {}) };
}

/** Placeholder names differ between deployments' traces ({id} vs {collectionId}): compare shapes. */
function templateShape(p: string): string {
  return p.replace(/\{[^}]+\}/g, '{}');
}

/** How the minimal schedule is repeated in the profile. */
export interface Repeat {
  /** Copies of the schedule (a window-phase bug that shows 9 times in 10 is missed by all three 1 time in 1000). */
  times: number;
  /** ms from one copy's start to the next: the schedule and the wait for a full budget, from the headers. */
  periodMs: number;
}

/** Builds and validates the profile (the same zod schema as every profile file). */
export function scheduleProfile(
  schedule: readonly Send[],
  signature: ViolationSignature,
  name = 'repro',
  repeat: Repeat = { times: 1, periodMs: 0 },
): ProfileInput {
  const classes: ProfileInput['classes'] = {};
  const copies = Array.from({ length: repeat.times }, (_, k) => schedule.map((s) => ({ ...s, t: s.t + k * repeat.periodMs }))).flat();
  for (const cls of ROUTE_CLASSES) {
    const mine = copies.filter((s) => s.class === cls);
    if (mine.length === 0) continue;
    const routes: Route[] = [];
    const index = new Map<string, number>();
    const sends = mine.map((s) => {
      const r = routeOf(s);
      const id = JSON.stringify(r);
      if (!index.has(id)) {
        index.set(id, routes.length);
        routes.push(r);
      }
      return { atMs: Math.round(s.t * 1000) / 1000, route: index.get(id)! };
    });
    classes[cls] = { routes, schedule: sends };
  }
  const profile: ProfileInput = {
    name:
      name
        .toLowerCase()
        .replace(/[^a-z0-9._-]+/g, '-')
        .replace(/^[^a-z0-9]+/, '') || 'repro',
    description: `Minimal reproduction of ${describeSignature(signature)} (spgate shrink): ${schedule.length} requests over ${(spanMs(schedule) / 1000).toFixed(3)} s${repeat.times > 1 ? `, sent ${repeat.times} times ${(repeat.periodMs / 1000).toFixed(1)} s apart (the budget full again before each)` : ''}. Start it with the budget full; it fails while the limiter has the bug and passes once it is fixed.`,
    model: 'open',
    duration: Math.ceil(spanMs(copies) / 1000 + 1),
    classes,
    thresholds: ['ratelimit.violations == 0'],
  };
  parseProfile(profile, 'the shrunk schedule');
  return profile;
}
