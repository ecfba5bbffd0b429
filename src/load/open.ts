/**
 * The open model: requests are scheduled at intended send times from each class's arrival rate, whether or
 * not earlier ones have completed. Latency is measured from the intended time (coordinated-omission
 * corrected, as wrk2) and from the actual send. An arrival that finds no free connection is queued; one
 * still unsent `dropAfterMs` after its intended time is counted as dropped.
 *
 * Built for a generator that is not the bottleneck: each class has its own keep-alive HTTP/1.1
 * connections (http1-connection.ts, pipelining 1) and static requests are prebuilt bytes; one scheduler
 * timer admits due arrivals (a completion admits and sends too, so a freed connection takes the next due
 * arrival at once); one 50 ms tick sweeps request deadlines and flushes responses to the recorder in
 * batches (response-batch.ts). Nothing is allocated per request but a dynamic route's bytes. Every send's
 * slip (sent − the moment the arrival was due and a connection was free) goes to the generator meter.
 */
import type { PlannedClass } from './plan.js';
import { pickRoute, type EngineOptions } from './engine.js';
import { RateGate } from './rate-gate.js';
import { ResponseBatch } from './response-batch.js';
import { Http1Connection, type Http1Handler, type Http1Head } from './http1-connection.js';
import { RequestSource, endpointOf, fillFailure, fillResponse, sweepDeadlines } from './socket-requests.js';
import { ArrivalQueue } from './arrival-queue.js';

/** Deadline sweep and batch flush period, ms (a deadline fires at most this late). */
const TICK_MS = 50;

interface ClassState {
  pc: PlannedClass;
  /** Intended send time (ms since start) of the next arrival. */
  next: number;
  queue: ArrivalQueue;
  idle: Http1Connection[];
  conns: Http1Connection[];
  /** Explicit schedule: the route of each queued send (parallel to queue), and the next send's position. */
  routes: number[];
  cursor: number;
  inFlight: number;
}

/** Runs the open model until the duration, the request cap or the signal ends it. */
export async function runOpen(opts: EngineOptions): Promise<void> {
  const { plan, recorder, meter } = opts;
  const host = new URL(opts.baseUrl).host;
  const endpoint = endpointOf(opts.baseUrl, opts.tls);
  const requests = new RequestSource(plan, opts.baseUrl, opts.secrets);

  const batch = new ResponseBatch(recorder);
  const gate = opts.maxRps !== undefined ? new RateGate(opts.maxRps) : undefined;
  let scheduled = 0;
  let seq = 0;
  let finished = false;
  let aborted = false;
  let warming: ((ok: boolean) => void) | undefined;
  let timer: NodeJS.Timeout | undefined;
  let timerAt = Infinity;
  let done!: () => void;
  const allDone = new Promise<void>((r) => (done = r));

  const handler: Http1Handler = {
    onResponse(conn: Http1Connection, h: Http1Head, body: string | undefined) {
      if (warming) return warming(true);
      if (aborted) return;
      const received = conn.received;
      fillResponse(batch.next(), conn, h, body, received);
      released(conn, received);
    },
    onFailure(conn: Http1Connection, error: string) {
      if (warming) return warming(false);
      if (aborted) return;
      const received = recorder.now();
      fillFailure(batch.next(), conn, error, received);
      released(conn, received);
    },
  };

  const clock = (): number => recorder.now();
  const states: ClassState[] = plan.classes.map((pc) => {
    const conns = Array.from(
      { length: plan.maxConnections },
      () => new Http1Connection(endpoint, handler, (status) => status === 429, clock),
    );
    return {
      pc,
      next: pc.schedule ? (pc.schedule[0]?.atMs ?? Infinity) : 0,
      queue: new ArrivalQueue(),
      idle: [...conns].reverse(),
      conns,
      inFlight: 0,
      routes: [],
      cursor: 0,
    };
  });
  states.forEach((st, i) => st.conns.forEach((c) => (c.tag = i)));

  /** A request ended: the record is committed, the connection is free and takes the next due arrival. */
  function released(conn: Http1Connection, at: number): void {
    const st = states[conn.tag]!;
    batch.commit(st.pc.class);
    st.inFlight--;
    conn.freedAt = at;
    st.idle.push(conn);
    if (finished) return;
    admit(st, at);
    if (st.inFlight === 0 && st.queue.length === 0 && scheduleOver()) pump();
  }

  const capped = (): boolean => plan.maxRequests !== undefined && scheduled >= plan.maxRequests;
  const scheduleOver = (): boolean => capped() || states.every((st) => st.next >= plan.durationMs);

  /** Queues the arrivals due by `now`, drops the overdue ones, and sends while a connection is free. */
  function admit(st: ClassState, now: number): void {
    const end = plan.durationMs;
    // The schedule never exceeds the duration or the request cap.
    // An explicit schedule (a regression profile) fixes each send's time and route; a rate draws the route.
    const sched = st.pc.schedule;
    while (st.next <= now && st.next < end && !capped()) {
      st.queue.push(st.next);
      scheduled++;
      if (sched) {
        st.routes.push(sched[st.cursor]!.idx);
        st.next = sched[++st.cursor]?.atMs ?? Infinity;
      } else {
        const rate = st.pc.rateAt!(st.next / 1000);
        st.next += rate > 0 ? 1000 / rate : 10;
      }
    }
    while (st.queue.length && now - st.queue.peek() > plan.dropAfterMs) {
      recorder.drop(st.pc.class, st.queue.shift());
      if (sched) st.routes.shift();
    }
    while (st.queue.length && st.idle.length) {
      // The gate is asked with the send's own time: a stale `now` would let sends bunch past caps.maxRps.
      if (gate && !gate.tryTake(recorder.now())) break;
      const intended = st.queue.shift();
      send(st, intended, sched ? st.routes.shift()! : pickRoute(st.pc, Math.random()));
    }
  }

  function send(st: ClassState, intended: number, idx: number): void {
    const conn = st.idle.pop()!;
    const sent = recorder.now();
    conn.route = idx;
    conn.intended = intended;
    conn.sent = sent;
    recorder.sent(st.pc.class, sent);
    // The generator's own lateness: from when the arrival was due and a connection was free.
    meter?.slip(sent - Math.max(intended, conn.freedAt));
    st.inFlight++;
    conn.send(requests.bytes(idx, ++seq));
  }

  function pump(): void {
    timer = undefined;
    timerAt = Infinity;
    if (finished) return;
    const now = recorder.now();
    for (const st of states) admit(st, now);
    const over = scheduleOver();
    const busy = states.some((st) => st.queue.length > 0 || st.inFlight > 0);
    if (over && !busy) return finish();
    let wake = now + TICK_MS;
    if (!over) for (const st of states) if (st.next < plan.durationMs && st.next < wake) wake = st.next;
    // Queued arrivals wait for a connection (a completion sends them) or for their drop time.
    for (const st of states) if (st.queue.length) wake = Math.min(wake, st.queue.peek() + plan.dropAfterMs + 0.001, now + 5);
    arm(wake, now);
  }

  function arm(at: number, now: number): void {
    if (timer && timerAt <= at) return;
    if (timer) clearTimeout(timer);
    timerAt = at;
    timer = setTimeout(pump, Math.max(0, at - now));
  }

  /** The 50 ms tick: request deadlines (one sweep instead of a timer per request) and the batch flush. */
  const tick = setInterval(() => {
    const now = recorder.now();
    for (const st of states) {
      if (st.inFlight === 0) continue;
      sweepDeadlines(st.conns, now, plan.timeoutMs);
    }
    batch.flush();
  }, TICK_MS);

  const finish = (): void => {
    if (finished) return;
    finished = true;
    if (timer) clearTimeout(timer);
    done();
  };

  const abort = (): void => {
    // Stop at once: nothing more is sent; in-flight requests are cancelled and not recorded.
    aborted = true;
    for (const st of states) {
      st.queue.clear();
      st.routes.length = 0;
      for (const c of st.conns) c.destroy();
    }
    finish();
  };
  if (opts.signal?.aborted) abort();
  else opts.signal?.addEventListener('abort', abort, { once: true });

  try {
    // One request outside /v1 (no budget) opens a connection and warms the parser, so the first
    // scheduled requests are not measured late for reasons that belong to the client, not the server.
    if (!finished) await warmUp(states[0]!.conns[0]!, host, Math.min(plan.timeoutMs, 2000), (w) => (warming = w));
    warming = undefined;
    recorder.restart();
    meter?.restart();
    if (!finished) pump();
    await allDone;
  } finally {
    clearInterval(tick);
    batch.flush();
    opts.signal?.removeEventListener('abort', abort);
    for (const st of states) {
      for (const c of st.conns) {
        c.destroy();
        if (opts.connections) {
          opts.connections.opened += c.opened;
          opts.connections.resent += c.retries;
        }
      }
    }
  }
}

/** Sends `HEAD /` on one connection and waits for its end (or `timeoutMs`); an unreachable target shows in the run. */
function warmUp(
  conn: Http1Connection,
  host: string,
  timeoutMs: number,
  set: (w: ((ok: boolean) => void) | undefined) => void,
): Promise<void> {
  return new Promise<void>((resolve) => {
    const timer = setTimeout(() => end(false), timeoutMs);
    const end = (ok: boolean): void => {
      clearTimeout(timer);
      set(undefined);
      if (!ok) conn.destroy();
      resolve();
    };
    set(end);
    conn.send(`HEAD / HTTP/1.1\r\nhost: ${host}\r\n\r\n`, true);
  });
}
