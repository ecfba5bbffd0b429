/**
 * The closed model on autocannon: one autocannon instance per route class, each connection sending its
 * next request when the previous one completes. Every response passes through `onResponse` (hooked into
 * each autocannon client by autocannon-client.ts), where only the raw RateLimit-* strings, status, time
 * and a 429's error code are captured and handed to the recorder (and from there to the online
 * aggregator) in batches (response-batch.ts); nothing is kept per response here.
 * Single process on purpose: autocannon's workers would take per-response hooks out of our reach.
 */
import { autocannonConnection } from '../client/transport.js';
import autocannon from 'autocannon';
import { randomUUID } from 'node:crypto';
import type { PlannedClass } from './plan.js';
import { hookClient, type ResponseHook, type TaggedRequest } from './autocannon-client.js';
import { describeTransportError, errorCodeOf, isDynamicRoute, maxInFlight, requestHeaders, weightedCycle, type EngineOptions } from './engine.js';
import { ResponseBatch } from './response-batch.js';
import { LIMIT, NONE, REMAINING, REQUEST_ID, RESET, RETRY_AFTER, headerSlot } from './header-slot.js';

export type { EngineOptions };

/**
 * The request list is at least this long (the weighted cycle repeated): autocannon deep-clones its request
 * context each time it wraps around the list, which for a one-route class would be once per request.
 */
const CYCLE_MIN = 64;

/** The most a response waits in the batch before the recorder (and the progress line) sees it, ms. */
const FLUSH_MS = 50;

/** Runs the closed model until the duration, the request cap or the signal ends it. */
export async function runClosed(opts: EngineOptions): Promise<void> {
  const { plan } = opts;
  const totalConns = maxInFlight(plan);
  const batch = new ResponseBatch(opts.recorder);
  const flusher = setInterval(() => batch.flush(), FLUSH_MS);
  try {
    await Promise.all(plan.classes.map((pc) => {
      const share = plan.maxRequests !== undefined ? Math.max(1, Math.floor((plan.maxRequests * (pc.connections ?? 0)) / totalConns)) : undefined;
      return runClass(opts, pc, share, batch);
    }));
  } finally {
    clearInterval(flusher);
    batch.flush();
  }
}

function runClass(opts: EngineOptions, pc: PlannedClass, amount: number | undefined, batch: ResponseBatch): Promise<void> {
  const { plan, recorder } = opts;
  const url = new URL(opts.baseUrl);
  const prefix = url.pathname.replace(/\/$/, '');
  const runId = randomUUID().slice(0, 8);
  let seq = 0;
  // autocannon gives a per-connection rate of floor(overall / connections), where 0 means unlimited.
  let connections = pc.connections ?? 1;
  if (pc.maxRps !== undefined) connections = Math.min(connections, Math.max(1, Math.floor(pc.maxRps)));
  if (amount !== undefined) connections = Math.min(connections, amount);
  // Static routes are built into request buffers once; only routes with a fresh Idempotency-Key or a
  // sequence-numbered body are rebuilt per request. The weighted cycle keeps the mix in proportion.
  const cycle = weightedCycle(pc);
  const requests: TaggedRequest[] = Array.from({ length: Math.ceil(CYCLE_MIN / cycle.length) }, () => cycle).flat().map((idx) => {
    const route = plan.routes[idx]!;
    const headers = requestHeaders(route, opts.secrets, runId);
    const req: TaggedRequest = { spgateRoute: idx, method: route.method as autocannon.Request['method'], path: prefix + route.path, headers };
    const dynamic = isDynamicRoute(route);
    if (route.body && !dynamic) req.body = route.body(0);
    if (dynamic) {
      req.setupRequest = (r: autocannon.Request) => {
        const n = ++seq;
        return { ...r, headers: requestHeaders(route, opts.secrets, runId, n), body: route.body ? route.body(n) : undefined };
      };
    }
    return req;
  });

  // Called once per response with autocannon's raw header array: no header object is built.
  const onResponse: ResponseHook = (req, status, body, raw, durationMs) => {
    const received = recorder.now();
    const sent = received - durationMs;
    let limit: string | undefined;
    let remaining: string | undefined;
    let reset: string | undefined;
    let retryAfter: string | undefined;
    let requestId: string | undefined;
    if (raw) {
      for (let i = 0; i + 1 < raw.length; i += 2) {
        const slot = headerSlot(raw[i]!);
        if (slot === NONE) continue;
        const v = raw[i + 1]!;
        switch (slot) {
          case LIMIT: limit = limit === undefined ? v : `${limit}, ${v}`; break;
          case REMAINING: remaining = remaining === undefined ? v : `${remaining}, ${v}`; break;
          case RESET: reset = reset === undefined ? v : `${reset}, ${v}`; break;
          case RETRY_AFTER: retryAfter = retryAfter === undefined ? v : `${retryAfter}, ${v}`; break;
          case REQUEST_ID: requestId = requestId === undefined ? v : `${requestId}, ${v}`; break;
        }
      }
    }
    const r = batch.next();
    r.route = req?.spgateRoute ?? pc.routes[0]!.idx;
    r.sent = sent;
    r.received = received;
    r.status = status;
    r.limit = limit;
    r.remaining = remaining;
    r.reset = reset;
    r.retryAfter = retryAfter;
    r.requestId = requestId;
    r.errorCode = status === 429 ? errorCodeOf(body) : undefined;
    r.error = undefined;
    batch.commit(pc.class);
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
      // Only a 429's body is read (its error code): the others are not decoded.
      setupClient: (client: unknown) => hookClient(client, onResponse, (status) => status === 429),
    };
    // CA, client certificate and key reach autocannon's tls.connect; autocannon 8 itself sets
    // rejectUnauthorized: false, so the server's certificate is verified once before the run (tls-preflight.ts).
    Object.assign(options, autocannonConnection(opts.baseUrl, { tls: opts.tls }));
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
    instance.on('reqError', (err: unknown) => {
      const at = recorder.now();
      const r = batch.next();
      r.route = pc.routes[0]!.idx;
      r.sent = at;
      r.received = at;
      r.status = 0;
      r.limit = r.remaining = r.reset = r.retryAfter = r.requestId = r.errorCode = undefined;
      r.error = describeTransportError(err);
      batch.commit(pc.class);
    });
  });
}
