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

interface Ctx {
  route?: number;
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
  const setupRequest = (req: autocannon.Request, context: object): autocannon.Request => {
    const ctx = context as Ctx;
    const idx = pickRoute(pc, Math.random());
    const route = plan.routes[idx]!;
    ctx.route = idx;
    const s = ++seq;
    const headers: Record<string, string> = { authorization: auth.get(idx)!, accept: 'application/json' };
    if (route.idempotencyKey) headers['idempotency-key'] = `spgate-${runId}-${s}`;
    const out: autocannon.Request = { ...req, method: route.method as autocannon.Request['method'], path: prefix + route.path, headers };
    if (route.body) {
      out.body = route.body(s);
      headers['content-type'] = 'application/json';
    } else {
      out.body = undefined;
    }
    return out;
  };

  const onResponse = (status: number, body: string, context: object, headers?: Record<string, string | string[]>): void => {
    const received = recorder.now();
    let limit: string | undefined;
    let remaining: string | undefined;
    let reset: string | undefined;
    let retryAfter: string | undefined;
    let requestId: string | undefined;
    if (headers) {
      for (const name in headers) {
        const v = headers[name]!;
        const raw = typeof v === 'string' ? v : v.join(', ');
        switch (name.toLowerCase()) {
          case 'ratelimit-limit': limit = raw; break;
          case 'ratelimit-remaining': remaining = raw; break;
          case 'ratelimit-reset': reset = raw; break;
          case 'retry-after': retryAfter = raw; break;
          case 'x-request-id': requestId = raw; break;
        }
      }
    }
    let errorCode: string | undefined;
    if (status === 429) errorCode = errorCodeOf(body);
    pending = recorder.response({
      route: (context as Ctx).route ?? pc.routes[0]!.idx,
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
      requests: [{ setupRequest, onResponse } as autocannon.Request],
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
