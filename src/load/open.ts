/**
 * The open model on undici (Pool, pipelining 1): requests are scheduled at intended send times from each
 * class's arrival rate, whether or not earlier ones have completed. Latency is measured from the intended
 * time (coordinated-omission corrected, as wrk2) and from the actual send. A request that finds no free
 * connection is queued; one still unsent `dropAfterMs` after its intended time is counted as dropped.
 */
import { Pool } from 'undici';
import { randomUUID } from 'node:crypto';
import { setMaxListeners } from 'node:events';
import type { PlannedClass } from './plan.js';
import { errorCodeOf, joinHeader as first, maxInFlight, pickRoute, requestHeaders, type EngineOptions } from './engine.js';
import { deadlineSignal, describeBodyError, readLoadBody } from './request-bounds.js';
import { RateGate } from './rate-gate.js';

interface ClassState {
  pc: PlannedClass;
  /** Intended send time (ms since start) of the next arrival. */
  next: number;
  queue: number[];
  /** Explicit schedule: the route of each queued send (parallel to queue), and the next send's position. */
  routeQueue: number[];
  cursor: number;
  inFlight: number;
}

/** Runs the open model until the duration, the request cap or the signal ends it. */
export async function runOpen(opts: EngineOptions): Promise<void> {
  const { plan, recorder } = opts;
  const url = new URL(opts.baseUrl);
  const prefix = url.pathname.replace(/\/$/, '');
  const pool = new Pool(url.origin, {
    connections: maxInFlight(plan),
    pipelining: 1,
    headersTimeout: plan.timeoutMs,
    bodyTimeout: plan.timeoutMs,
    connectTimeout: Math.min(plan.timeoutMs, 5000),
  });
  const inner = new AbortController();
  // Every in-flight request listens on this one signal.
  setMaxListeners(0, inner.signal);
  const runId = randomUUID().slice(0, 8);
  const states: ClassState[] = plan.classes.map((pc) => ({ pc, next: pc.schedule ? (pc.schedule[0]?.atMs ?? Infinity) : 0, queue: [], routeQueue: [], cursor: 0, inFlight: 0 }));
  let scheduled = 0;
  let seq = 0;
  let timer: NodeJS.Timeout | undefined;
  let finished = false;
  let done!: () => void;
  const allDone = new Promise<void>((r) => (done = r));

  const gate = opts.maxRps !== undefined ? new RateGate(opts.maxRps) : undefined;

  const send = (st: ClassState, intended: number, idx = pickRoute(st.pc, Math.random())): void => {
    const route = plan.routes[idx]!;
    const s = ++seq;
    const headers = requestHeaders(route, opts.secrets, runId, s);
    const body = route.body ? route.body(s) : undefined;
    const sent = recorder.now();
    recorder.sent(st.pc.class, sent);
    st.inFlight++;
    const deadline = deadlineSignal(inner.signal, plan.timeoutMs);
    pool
      .request({ origin: url.origin, path: prefix + route.path, method: route.method as 'GET', headers, body, signal: deadline.signal })
      .then(
        async (res) => {
          const received = recorder.now();
          const h = res.headers;
          let errorCode: string | undefined;
          // A body cut short (reset, deadline) is a transport error, not a completed response.
          const read = await readLoadBody(res.body, res.statusCode === 429, h['content-length']);
          if (read.error !== undefined) {
            if (!inner.signal.aborted) recorder.response({ route: idx, intended, sent, received: recorder.now(), status: 0, error: read.error });
            return;
          }
          if (res.statusCode === 429) errorCode = errorCodeOf(read.text);
          recorder.response({
            route: idx, intended, sent, received, status: res.statusCode,
            limit: first(h['ratelimit-limit']), remaining: first(h['ratelimit-remaining']), reset: first(h['ratelimit-reset']),
            retryAfter: first(h['retry-after']), requestId: first(h['x-request-id']), errorCode,
          });
        },
        (err: unknown) => {
          if (inner.signal.aborted) return;
          const at = recorder.now();
          recorder.response({ route: idx, intended, sent, received: at, status: 0, error: describeBodyError(err) });
        },
      )
      .catch(() => undefined)
      .finally(() => {
        deadline.clear();
        st.inFlight--;
        pump();
      });
  };

  const pump = (): void => {
    if (finished) return;
    const now = recorder.now();
    const end = plan.durationMs;
    for (const st of states) {
      // Arrivals due by now join the queue; the schedule never exceeds the duration or the request cap.
      const sched = st.pc.schedule;
      while (sched && st.next <= now && st.next < end && (plan.maxRequests === undefined || scheduled < plan.maxRequests)) {
        st.queue.push(st.next);
        st.routeQueue.push(sched[st.cursor]!.idx);
        scheduled++;
        st.next = sched[++st.cursor]?.atMs ?? Infinity;
      }
      while (!sched && st.next <= now && st.next < end && (plan.maxRequests === undefined || scheduled < plan.maxRequests)) {
        st.queue.push(st.next);
        scheduled++;
        const rate = st.pc.rateAt!(st.next / 1000);
        st.next += rate > 0 ? 1000 / rate : 10;
      }
      while (st.queue.length && now - st.queue[0]! > plan.dropAfterMs) {
        recorder.drop(st.pc.class, st.queue.shift()!);
        st.routeQueue.shift();
      }
      while (st.queue.length && st.inFlight < plan.maxConnections) {
        if (gate && !gate.tryTake(recorder.now())) break;
        const intended = st.queue.shift()!;
        if (sched) send(st, intended, st.routeQueue.shift()!);
        else send(st, intended);
      }
    }
    const capped = plan.maxRequests !== undefined && scheduled >= plan.maxRequests;
    const scheduling = !capped && states.some((st) => st.next < end);
    const busy = states.some((st) => st.queue.length > 0 || st.inFlight > 0);
    if (!scheduling && !busy) {
      finish();
      return;
    }
    if (timer) clearTimeout(timer);
    let wait = 50;
    if (scheduling) wait = Math.min(...states.filter((st) => st.next < end).map((st) => st.next)) - now;
    if (states.some((st) => st.queue.length > 0)) wait = Math.min(wait, 5);
    timer = setTimeout(pump, Math.max(0, wait));
  };

  const finish = (): void => {
    if (finished) return;
    finished = true;
    if (timer) clearTimeout(timer);
    done();
  };

  const abort = (): void => {
    // Stop at once: nothing more is sent; in-flight requests are cancelled and not recorded.
    for (const st of states) st.queue.length = 0;
    inner.abort();
    finish();
  };
  if (opts.signal?.aborted) abort();
  else opts.signal?.addEventListener('abort', abort, { once: true });

  // One request outside /v1 (no budget) loads undici's parser and opens a connection, so the first
  // scheduled requests are not measured late for reasons that belong to the client, not the server.
  await warmUp(pool, url.origin, Math.min(plan.timeoutMs, 2000));
  recorder.restart();
  if (!finished) pump();
  await allDone;
  opts.signal?.removeEventListener('abort', abort);
  await pool.destroy().catch(() => undefined);
}


async function warmUp(pool: Pool, origin: string, timeoutMs: number): Promise<void> {
  try {
    const res = await pool.request({ origin, path: '/', method: 'HEAD', headersTimeout: timeoutMs, bodyTimeout: timeoutMs });
    await res.body.dump();
  } catch {
    // An unreachable target shows up in the run itself, with every request failing.
  }
}
