/**
 * The contract both load engines share: what they are given (EngineOptions), how they choose routes (a
 * smooth weighted cycle for the closed model's prebuilt requests, one random draw per arrival for the open
 * model), how they build a request's headers, and how they name what came back (the 429 body code and a
 * one-line transport error). Both engines hand every response to the same LoadRecorder, which folds it
 * into the online aggregator (aggregate.ts), so neither engine keeps anything per response.
 */
import type { Plan, PlannedClass, PlannedRoute } from './plan.js';
import type { LoadRecorder } from './load-recorder.js';
import type { Tls } from '../target/schema.js';
import type { GeneratorMeter } from './generator-meter.js';

export interface EngineOptions {
  plan: Plan;
  baseUrl: string;
  secrets: Partial<Record<string, string>>;
  recorder: LoadRecorder;
  signal?: AbortSignal;
  /** caps.maxRps of the target (the open model's sliding-window guard; the closed model uses the plan's). */
  maxRps?: number;
  /**
   * The target's tls block: both engines' sockets take `tlsConnectOptions(tls)` (client/transport.ts, through
   * socket-requests.ts endpointOf).
   */
  tls?: Tls;
  /** Measures the generator's own lag (the open engine reports each send's slip to it). */
  meter?: GeneratorMeter;
  /** Where the engine adds, at its end, the connections it opened and the requests it re-sent (connection churn). */
  connections?: { opened: number; resent: number };
}

/** An engine runs a plan until its duration, its request cap or the signal ends it. */
export type Engine = (opts: EngineOptions) => Promise<void>;

/**
 * The most requests the plan's engine has in flight at once: every closed class's connections, or the open
 * model's pool (maxConnections per class, pipelining 1).
 */
export function maxInFlight(plan: Plan): number {
  return plan.model === 'closed' ? plan.classes.reduce((n, c) => n + (c.connections ?? 0), 0) : plan.maxConnections * plan.classes.length;
}

/**
 * The period of the smooth round robin over integer weights (their sum over their gcd: one route gives 1,
 * weights 3 and 1 give 4), when at most 60; else 60. The closed engine walks it with one cursor per class:
 * a whole period keeps the proportions exact.
 */
export function cyclePeriod(pc: PlannedClass, max = 60): number {
  const ws = pc.routes.map((r) => r.weight);
  if (!ws.every((w) => Number.isInteger(w) && w > 0)) return max;
  const gcd = (a: number, b: number): number => (b === 0 ? a : gcd(b, a % b));
  const g = ws.reduce(gcd);
  const period = ws.reduce((s, w) => s + w, 0) / g;
  return period <= max ? period : max;
}

/** A deterministic cyclic sequence of route indexes in proportion to their weights (smooth round robin). */
export function weightedCycle(pc: PlannedClass, length = cyclePeriod(pc)): number[] {
  const total = pc.routes.reduce((s, r) => s + r.weight, 0);
  const current = pc.routes.map(() => 0);
  const out: number[] = [];
  for (let n = 0; n < length; n++) {
    let best = 0;
    pc.routes.forEach((r, i) => {
      current[i]! += r.weight;
      if (current[i]! > current[best]!) best = i;
    });
    current[best]! -= total;
    out.push(pc.routes[best]!.idx);
  }
  return out;
}

/**
 * Picks a route index from cumulative weights with one random number; a route spread over a key pool takes
 * its keys in turn (the draw chooses the route, never the key), so each key gets an equal share exactly.
 */
export function pickRoute(pc: PlannedClass, r: number): number {
  const total = pc.cumulative[pc.cumulative.length - 1]!;
  const x = r * total;
  let i = pc.cumulative.length - 1;
  for (let k = 0; k < pc.cumulative.length; k++) {
    if (x < pc.cumulative[k]!) {
      i = k;
      break;
    }
  }
  const first = pc.firstKey[i]!;
  const keys = pc.keyCount[first]!;
  if (keys > 1) i = first + (pc.keyTurn[first]!++ % keys);
  return pc.routes[i]!.idx;
}

/**
 * The headers of one request of a route: its key's bearer token (the role's, or a pool key's), JSON accept, a content type when the
 * route has a body, and a fresh Idempotency-Key (from the run id and sequence number) when it needs one.
 */
export function requestHeaders(
  route: PlannedRoute,
  secrets: Partial<Record<string, string>>,
  runId: string,
  seq?: number,
): Record<string, string> {
  const headers: Record<string, string> = { authorization: `Bearer ${secrets[route.keyName] ?? ''}`, accept: 'application/json' };
  if (route.body) headers['content-type'] = 'application/json';
  if (route.idempotencyKey && seq !== undefined) headers['idempotency-key'] = `spgate-${runId}-${seq}`;
  return headers;
}

/** True when every request of the route differs (fresh Idempotency-Key or a `{seq}` body): not prebuildable. */
export function isDynamicRoute(route: PlannedRoute): boolean {
  return route.idempotencyKey || (route.body !== undefined && route.body(1) !== route.body(2));
}

/** One line naming a transport failure: an error code when there is one, else the message's first line. */
export function describeTransportError(err: unknown): string {
  const e = err as { code?: unknown; message?: unknown };
  if (typeof e?.code === 'string') return e.code;
  return typeof e?.message === 'string' ? (e.message.split('\n')[0] ?? 'transport error') : 'transport error';
}

/** A repeated header as one string (values joined with ", ", as HTTP folds them). */
export function joinHeader(v: string | string[] | undefined): string | undefined {
  return v === undefined ? undefined : typeof v === 'string' ? v : v.join(', ');
}
