/**
 * The closed model: each class has a fixed number of keep-alive connections (http1-connection.ts, the open
 * engine's), and each connection sends its next request the moment the previous one ends. Routes follow the
 * class's weighted cycle (one cursor per class, so the mix is exact over the class, whatever the number of
 * connections). A class with a rate cap (caps.maxRps shared out by the plan) sends no faster than it, over a
 * sliding window (rate-gate.ts); a request cap is shared out over the classes.
 *
 * Every send is recorded as it goes out (the recorder's in-flight watermark works as in the open model),
 * every response is recorded when it ends, through the same batches. At the duration, nothing more is sent
 * and the requests in flight are awaited (each within the request deadline); an abort drops them at once.
 * A connection whose request failed waits for the next tick before it sends again, so an unreachable target
 * is tried a bounded number of times a second rather than in a tight loop.
 */
import type { PlannedClass } from './plan.js';
import { maxInFlight, weightedCycle, type EngineOptions } from './engine.js';
import { RateGate } from './rate-gate.js';
import { ResponseBatch } from './response-batch.js';
import { Http1Connection, type Http1Handler } from './http1-connection.js';
import { endpointOf, fillFailure, fillResponse, requestSource, sweepDeadlines } from './socket-requests.js';

export type { EngineOptions };

/** Deadline sweep, batch flush and retry period, ms. */
const TICK_MS = 50;

interface ClassState {
  pc: PlannedClass;
  conns: Http1Connection[];
  cycle: number[];
  cursor: number;
  /** Sends this class may still make (Infinity: no request cap). */
  left: number;
  inFlight: number;
  gate: RateGate | undefined;
  /** Connections waiting for the rate gate or the next tick. */
  waiting: Http1Connection[];
}

/** Runs the closed model until the duration, the request cap or the signal ends it. */
export async function runClosed(opts: EngineOptions): Promise<void> {
  const { plan, recorder } = opts;
  const endpoint = endpointOf(opts.baseUrl, opts.tls);
  const bytesOf = requestSource(plan, opts.baseUrl, opts.secrets);
  const batch = new ResponseBatch(recorder);
  const totalConns = maxInFlight(plan);
  let seq = 0;
  let stopped = false;
  let aborted = false;
  let gateTimer: NodeJS.Timeout | undefined;
  let done!: () => void;
  const allDone = new Promise<void>((r) => (done = r));

  const handler: Http1Handler = {
    onResponse(conn, h, body) {
      if (aborted) return;
      const received = recorder.now();
      fillResponse(batch.next(), conn, h, body, received);
      ended(conn, false);
    },
    onFailure(conn, error) {
      if (aborted) return;
      fillFailure(batch.next(), conn, error, recorder.now());
      ended(conn, true);
    },
  };

  const states: ClassState[] = plan.classes.map((pc, tag) => {
    const share = plan.maxRequests !== undefined ? Math.max(1, Math.floor((plan.maxRequests * (pc.connections ?? 0)) / totalConns)) : Infinity;
    let n = pc.connections ?? 1;
    if (pc.maxRps !== undefined) n = Math.min(n, Math.max(1, Math.floor(pc.maxRps)));
    n = Math.max(1, Math.min(n, share));
    const conns = Array.from({ length: n }, () => {
      const c = new Http1Connection(endpoint, handler, (status) => status === 429);
      c.tag = tag;
      return c;
    });
    return { pc, conns, cycle: weightedCycle(pc), cursor: 0, left: share, inFlight: 0, gate: pc.maxRps !== undefined ? new RateGate(pc.maxRps) : undefined, waiting: [] };
  });

  /** A request ended: its record is committed and the connection sends again (after a tick if it failed). */
  function ended(conn: Http1Connection, failed: boolean): void {
    const st = states[conn.tag]!;
    batch.commit(st.pc.class);
    st.inFlight--;
    if (failed) st.waiting.push(conn);
    else next(st, conn);
    if (stopped && allIdle()) done();
  }

  /** Sends the class's next request on `conn`, unless the run is over or the rate gate says wait. */
  function next(st: ClassState, conn: Http1Connection): void {
    if (stopped || st.left <= 0) {
      if (!stopped && states.every((s) => s.left <= 0)) stop();
      return;
    }
    const now = recorder.now();
    if (st.gate && !st.gate.tryTake(now)) {
      st.waiting.push(conn);
      armGate(st.gate.availableAt() - now);
      return;
    }
    st.left--;
    const idx = st.cycle[st.cursor]!;
    st.cursor = st.cursor + 1 === st.cycle.length ? 0 : st.cursor + 1;
    conn.route = idx;
    conn.intended = NaN;
    conn.sent = now;
    recorder.sent(st.pc.class, now);
    st.inFlight++;
    conn.send(bytesOf(idx, ++seq));
  }

  /** Sends on every waiting connection the gate (or the retry delay) now lets through. */
  function release(): void {
    for (const st of states) {
      const waiting = st.waiting.splice(0);
      for (const c of waiting) next(st, c);
    }
  }

  function armGate(delayMs: number): void {
    if (gateTimer) return;
    gateTimer = setTimeout(() => {
      gateTimer = undefined;
      release();
    }, Math.max(1, delayMs));
  }

  const allIdle = (): boolean => states.every((s) => s.inFlight === 0);

  /** The duration is over or the request caps are used up: nothing more is sent; in-flight requests end. */
  function stop(): void {
    if (stopped) return;
    stopped = true;
    for (const st of states) st.waiting.length = 0;
    if (allIdle()) done();
  }

  /** The 50 ms tick: request deadlines, failed connections' retries, the batch flush. */
  const tick = setInterval(() => {
    const now = recorder.now();
    for (const st of states) {
      if (st.inFlight === 0) continue;
      sweepDeadlines(st.conns, now, plan.timeoutMs);
    }
    if (!stopped) release();
    batch.flush();
  }, TICK_MS);

  const abort = (): void => {
    // Stop at once: nothing more is sent; in-flight requests are cancelled and not recorded.
    aborted = true;
    for (const st of states) for (const c of st.conns) c.destroy();
    stopped = true;
    done();
  };
  if (opts.signal?.aborted) abort();
  else opts.signal?.addEventListener('abort', abort, { once: true });
  const timer = setTimeout(stop, plan.durationMs);

  try {
    if (!aborted) for (const st of states) for (const c of st.conns) next(st, c);
    await allDone;
  } finally {
    clearTimeout(timer);
    if (gateTimer) clearTimeout(gateTimer);
    clearInterval(tick);
    batch.flush();
    opts.signal?.removeEventListener('abort', abort);
    for (const st of states) for (const c of st.conns) c.destroy();
  }
}
