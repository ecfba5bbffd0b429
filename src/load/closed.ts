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
 *
 * One run is one ClosedRun: it is the connections' handler, and its state is its fields.
 */
import type { PlannedClass } from './plan.js';
import { maxInFlight, weightedCycle, type EngineOptions } from './engine.js';
import { RateGate } from './rate-gate.js';
import { ResponseBatch } from './response-batch.js';
import { Http1Connection, type Http1Handler, type Http1Head } from './http1-connection.js';
import { RequestSource, endpointOf, fillFailure, fillResponse, sweepDeadlines } from './socket-requests.js';
import type { LoadRecorder } from './load-recorder.js';

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
  const run = new ClosedRun(opts);
  const abort = (): void => run.abort();
  if (opts.signal?.aborted) run.abort();
  else opts.signal?.addEventListener('abort', abort, { once: true });
  try {
    await run.run();
  } finally {
    opts.signal?.removeEventListener('abort', abort);
  }
}

class ClosedRun implements Http1Handler {
  private readonly recorder: LoadRecorder;
  private readonly requests: RequestSource;
  private readonly batch: ResponseBatch;
  private readonly states: ClassState[];
  private readonly timeoutMs: number;
  private seq = 0;
  private stopped = false;
  private aborted = false;
  private gateTimer: NodeJS.Timeout | undefined;
  private done: () => void = () => undefined;

  constructor(private readonly opts: EngineOptions) {
    const { plan } = opts;
    this.recorder = opts.recorder;
    this.timeoutMs = plan.timeoutMs;
    this.requests = new RequestSource(plan, opts.baseUrl, opts.secrets);
    this.batch = new ResponseBatch(opts.recorder);
    const endpoint = endpointOf(opts.baseUrl, opts.tls);
    const totalConns = maxInFlight(plan);
    const clock = (): number => opts.recorder.now();
    this.states = plan.classes.map((pc, tag) => {
      const share =
        plan.maxRequests !== undefined ? Math.max(1, Math.floor((plan.maxRequests * (pc.connections ?? 0)) / totalConns)) : Infinity;
      let n = pc.connections ?? 1;
      if (pc.maxRps !== undefined) n = Math.min(n, Math.max(1, Math.floor(pc.maxRps)));
      n = Math.max(1, Math.min(n, share));
      const conns = Array.from({ length: n }, () => {
        const c = new Http1Connection(endpoint, this, keep429, clock);
        c.tag = tag;
        return c;
      });
      return {
        pc,
        conns,
        cycle: weightedCycle(pc),
        cursor: 0,
        left: share,
        inFlight: 0,
        gate: pc.maxRps !== undefined ? new RateGate(pc.maxRps) : undefined,
        waiting: [],
      };
    });
  }

  /** Sends on every connection until the duration or the request caps end the run, then awaits the last answers. */
  async run(): Promise<void> {
    const allDone = new Promise<void>((r) => (this.done = r));
    const timer = setTimeout(() => this.stop(), this.opts.plan.durationMs);
    const tick = setInterval(() => this.tick(), TICK_MS);
    try {
      if (this.aborted) return;
      for (const st of this.states) for (const c of st.conns) this.next(st, c);
      await allDone;
    } finally {
      clearTimeout(timer);
      if (this.gateTimer) clearTimeout(this.gateTimer);
      clearInterval(tick);
      this.batch.flush();
      const counts = this.opts.connections;
      for (const st of this.states) {
        for (const c of st.conns) {
          c.destroy();
          if (counts) {
            counts.opened += c.opened;
            counts.resent += c.retries;
          }
        }
      }
    }
  }

  onResponse(conn: Http1Connection, h: Http1Head, body: string | undefined): void {
    if (this.aborted) return;
    fillResponse(this.batch.next(), conn, h, body, conn.received);
    this.ended(conn, false);
  }

  onFailure(conn: Http1Connection, error: string): void {
    if (this.aborted) return;
    fillFailure(this.batch.next(), conn, error, this.recorder.now());
    this.ended(conn, true);
  }

  /** Stop at once: nothing more is sent; in-flight requests are cancelled and not recorded. */
  abort(): void {
    this.aborted = true;
    this.stopped = true;
    for (const st of this.states) for (const c of st.conns) c.destroy();
    this.done();
  }

  /** A request ended: its record is committed and the connection sends again (after a tick if it failed). */
  private ended(conn: Http1Connection, failed: boolean): void {
    const st = this.states[conn.tag]!;
    this.batch.commit(st.pc.class);
    st.inFlight--;
    if (failed) st.waiting.push(conn);
    else this.next(st, conn);
    if (this.stopped && this.allIdle()) this.done();
  }

  /** Sends the class's next request on `conn`, unless the run is over or the rate gate says wait. */
  private next(st: ClassState, conn: Http1Connection): void {
    if (this.stopped || st.left <= 0) {
      if (!this.stopped && this.states.every((s) => s.left <= 0)) this.stop();
      return;
    }
    const now = this.recorder.now();
    if (st.gate && !st.gate.tryTake(now)) {
      st.waiting.push(conn);
      this.armGate(st.gate.availableAt() - now);
      return;
    }
    st.left--;
    const idx = st.cycle[st.cursor]!;
    st.cursor = st.cursor + 1 === st.cycle.length ? 0 : st.cursor + 1;
    conn.route = idx;
    conn.intended = NaN;
    conn.sent = now;
    this.recorder.sent(st.pc.class, now);
    st.inFlight++;
    conn.send(this.requests.bytes(idx, ++this.seq));
  }

  /** Sends on every waiting connection the gate (or the retry delay) now lets through. */
  private release(): void {
    for (const st of this.states) {
      const waiting = st.waiting.splice(0);
      for (const c of waiting) this.next(st, c);
    }
  }

  private armGate(delayMs: number): void {
    if (this.gateTimer) return;
    this.gateTimer = setTimeout(
      () => {
        this.gateTimer = undefined;
        this.release();
      },
      Math.max(1, delayMs),
    );
  }

  private allIdle(): boolean {
    return this.states.every((s) => s.inFlight === 0);
  }

  /** The duration is over or the request caps are used up: nothing more is sent; in-flight requests end. */
  private stop(): void {
    if (this.stopped) return;
    this.stopped = true;
    for (const st of this.states) st.waiting.length = 0;
    if (this.allIdle()) this.done();
  }

  /** The 50 ms tick: request deadlines, failed connections' retries, the batch flush. */
  private tick(): void {
    const now = this.recorder.now();
    for (const st of this.states) if (st.inFlight > 0) sweepDeadlines(st.conns, now, this.timeoutMs);
    if (!this.stopped) this.release();
    this.batch.flush();
  }
}

function keep429(status: number): boolean {
  return status === 429;
}
