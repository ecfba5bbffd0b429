/**
 * The closed model on autocannon: one autocannon instance per route class, each connection sending its
 * next request when the previous one completes. Every response passes through `onResponse`, where only the
 * raw RateLimit-* strings, status and time are captured; verification happens after the run.
 * Single process on purpose: autocannon's workers would take per-response hooks out of our reach.
 */
import autocannon from 'autocannon';
import { randomUUID } from 'node:crypto';
import type { PlannedClass, Plan } from './plan.js';
import type { LoadRecorder } from './recorder.js';

export interface EngineOptions {
  plan: Plan;
  baseUrl: string;
  secrets: Partial<Record<string, string>>;
  recorder: LoadRecorder;
  signal?: AbortSignal;
}

/** A request entry tagged with its route, so the response hook knows which route answered. */
type TaggedRequest = autocannon.Request & { spgateRoute: number };

/** The slice of autocannon's per-connection client the engine hooks into (autocannon 8 internals). */
interface AutocannonClient {
  requestIterator: { recordBody: (req: TaggedRequest | undefined, status: number, body: string, rawHeaders: string[] | undefined) => void };
}

/** A deterministic cyclic sequence of route indexes in proportion to their weights (smooth round robin). */
export function weightedCycle(pc: PlannedClass, length = 60): number[] {
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

/** Picks a route index from cumulative weights with one random number. */
export function pickRoute(pc: PlannedClass, r: number): number {
  const total = pc.cumulative[pc.cumulative.length - 1]!;
  const x = r * total;
  for (let i = 0; i < pc.cumulative.length; i++) if (x < pc.cumulative[i]!) return pc.routes[i]!.idx;
  return pc.routes[pc.routes.length - 1]!.idx;
}

/** Runs the closed model until the duration, the request cap or the signal ends it. */
export async function runClosed(opts: EngineOptions): Promise<void> {
  const { plan } = opts;
  const totalConns = plan.classes.reduce((s, c) => s + (c.connections ?? 0), 0);
  await Promise.all(plan.classes.map((pc) => {
    const share = plan.maxRequests !== undefined ? Math.max(1, Math.floor((plan.maxRequests * (pc.connections ?? 0)) / totalConns)) : undefined;
    return runClass(opts, pc, share);
  }));
}

function runClass(opts: EngineOptions, pc: PlannedClass, amount: number | undefined): Promise<void> {
  const { plan, recorder } = opts;
  const url = new URL(opts.baseUrl);
  const prefix = url.pathname.replace(/\/$/, '');
  const runId = randomUUID().slice(0, 8);
  let seq = 0;
  // autocannon gives a per-connection rate of floor(overall / connections), where 0 means unlimited.
  let connections = pc.connections ?? 1;
  if (pc.maxRps !== undefined) connections = Math.min(connections, Math.max(1, Math.floor(pc.maxRps)));
  if (amount !== undefined) connections = Math.min(connections, amount);
  const auth = new Map(plan.routes.map((r) => [r.idx, `Bearer ${opts.secrets[r.keyRole] ?? ''}`]));

  let pending = -1;
  // Static routes are built into request buffers once; only routes with a fresh Idempotency-Key or a
  // sequence-numbered body are rebuilt per request. The weighted cycle keeps the mix in proportion.
  const requests: TaggedRequest[] = weightedCycle(pc).map((idx) => {
    const route = plan.routes[idx]!;
    const headers: Record<string, string> = { authorization: auth.get(idx)!, accept: 'application/json' };
    if (route.body) headers['content-type'] = 'application/json';
    const req: TaggedRequest = { spgateRoute: idx, method: route.method as autocannon.Request['method'], path: prefix + route.path, headers };
    const dynamic = route.idempotencyKey || (route.body !== undefined && route.body(1) !== route.body(2));
    if (route.body && !dynamic) req.body = route.body(0);
    if (dynamic) {
      req.setupRequest = (r: autocannon.Request) => {
        const n = ++seq;
        const h = { ...headers };
        if (route.idempotencyKey) h['idempotency-key'] = `spgate-${runId}-${n}`;
        return { ...r, headers: h, body: route.body ? route.body(n) : undefined };
      };
    }
    return req;
  });

  // Called once per response with autocannon's raw header array: no header object is built.
  const onResponse = (req: TaggedRequest | undefined, status: number, body: string, raw: string[] | undefined): void => {
    const received = recorder.now();
    let limit: string | undefined;
    let remaining: string | undefined;
    let reset: string | undefined;
    let retryAfter: string | undefined;
    let requestId: string | undefined;
    if (raw) {
      for (let i = 0; i + 1 < raw.length; i += 2) {
        const name = raw[i]!;
        const len = name.length;
        // Cheap length filter before lowercasing: only 11, 12, 15 and 19-character names matter.
        if (len !== 11 && len !== 12 && len !== 15 && len !== 19) continue;
        const v = raw[i + 1]!;
        switch (name.toLowerCase()) {
          case 'ratelimit-limit': limit = limit === undefined ? v : `${limit}, ${v}`; break;
          case 'ratelimit-remaining': remaining = remaining === undefined ? v : `${remaining}, ${v}`; break;
          case 'ratelimit-reset': reset = reset === undefined ? v : `${reset}, ${v}`; break;
          case 'retry-after': retryAfter = retryAfter === undefined ? v : `${retryAfter}, ${v}`; break;
          case 'x-request-id': requestId = requestId === undefined ? v : `${requestId}, ${v}`; break;
        }
      }
    }
    let errorCode: string | undefined;
    if (status === 429) errorCode = errorCodeOf(body);
    pending = recorder.response({
      route: req?.spgateRoute ?? pc.routes[0]!.idx,
      intended: NaN, sent: received, received, status, limit, remaining, reset, retryAfter, requestId, errorCode,
    });
  };

  return new Promise<void>((resolve, reject) => {
    const options: autocannon.Options = {
      url: url.origin,
      connections,
      pipelining: 1,
      // autocannon rounds fractional durations; the exact duration is enforced by the timer below.
      duration: Math.ceil(plan.durationMs / 1000) + 1,
      timeout: Math.ceil(plan.timeoutMs / 1000),
      // autocannon only notices stop() on its sampling tick: 50 ms keeps stops and aborts prompt.
      sampleInt: 50,
      requests,
      setupClient: (client: unknown) => {
        (client as AutocannonClient).requestIterator.recordBody = onResponse;
      },
    };
    if (amount !== undefined) options.amount = amount;
    if (pc.maxRps !== undefined) options.overallRate = Math.max(connections, Math.floor(pc.maxRps));
    let timer: NodeJS.Timeout | undefined;
    const instance = autocannon(options, (err) => {
      if (timer) clearTimeout(timer);
      opts.signal?.removeEventListener('abort', stop);
      if (err) reject(err instanceof Error ? err : new Error(String(err)));
      else resolve();
    });
    const stop = (): void => instance.stop();
    // `amount` makes autocannon ignore the duration, and it rounds fractional ones: the timer is exact.
    timer = setTimeout(stop, plan.durationMs);
    if (opts.signal?.aborted) stop();
    opts.signal?.addEventListener('abort', stop, { once: true });
    // Fires synchronously right after onResponse for the same response: adds autocannon's own timing.
    (instance as unknown as NodeJS.EventEmitter).on('response', (_client: unknown, _status: number, _bytes: number, responseTime: number) => {
      if (pending < 0) return;
      const buf = recorder.buffer;
      buf.sent[pending] = buf.received[pending]! - responseTime;
      recorder.sent(pc.class, buf.sent[pending]!);
      pending = -1;
    });
    instance.on('reqError', (err: unknown) => {
      const at = recorder.now();
      recorder.sent(pc.class, at);
      recorder.response({ route: pc.routes[0]!.idx, intended: NaN, sent: at, received: at, status: 0, error: describe(err) });
    });
  });
}

/** error.code of a JSON error envelope, or a marker when the body is not one (429 bodies only). */
export function errorCodeOf(body: string | undefined): string | undefined {
  if (!body) return undefined;
  try {
    const j = JSON.parse(body) as { error?: { code?: unknown } };
    return typeof j?.error?.code === 'string' ? j.error.code : undefined;
  } catch {
    return undefined;
  }
}

function describe(err: unknown): string {
  const e = err as { code?: string; message?: string };
  return e?.code ?? e?.message?.split('\n')[0] ?? 'transport error';
}
