/**
 * The open model: requests are scheduled at intended send times from each class's arrival rate, whether or
 * not earlier ones have completed. Latency is measured from the intended time (coordinated-omission
 * corrected, as wrk2) and from the actual send. An arrival that finds no free connection is queued; one
 * still unsent `dropAfterMs` after its intended time is counted as dropped.
 *
 * Built for a generator that is not the bottleneck: each class has its own keep-alive HTTP/1.1
 * connections (http1-connection.ts, pipelining 1) and static requests are prebuilt bytes; one scheduler
 * timer admits due arrivals (a completion admits and sends too, so a freed connection takes the next due
 * arrival at once); the engines' base (engine-base.ts) owns the rest of the run: the 50 ms tick that sweeps
 * request deadlines and flushes responses in batches, abort, accounting. Nothing is allocated per request
 * but a dynamic route's bytes. Every send's slip (sent − the moment the arrival was due and a connection was
 * free) goes to the generator meter.
 */
import { pickRoute, type EngineOptions } from './engine.js';
import { RateGate } from './rate-gate.js';
import type { Http1Connection } from './http1-connection.js';
import { ArrivalQueue } from './arrival-queue.js';
import { EngineBase, TICK_MS, type EngineClass } from './engine-base.js';

interface ClassState extends EngineClass {
  /** Intended send time (ms since start) of the next arrival. */
  next: number;
  queue: ArrivalQueue;
  idle: Http1Connection[];
  /** Explicit schedule: the route of each queued send (parallel to queue), and the next send's position. */
  routes: number[];
  cursor: number;
}

/** Runs the open model until the duration, the request cap or the signal ends it. */
export async function runOpen(opts: EngineOptions): Promise<void> {
  await new OpenRun(opts).run();
}

class OpenRun extends EngineBase<ClassState> {
  protected readonly states: ClassState[];
  private readonly gate: RateGate | undefined;
  private scheduled = 0;
  private timer: NodeJS.Timeout | undefined;
  private timerAt = Infinity;

  constructor(opts: EngineOptions) {
    super(opts);
    const { plan } = opts;
    this.gate = opts.maxRps !== undefined ? new RateGate(opts.maxRps) : undefined;
    this.states = plan.classes.map((pc, tag) => {
      const conns = Array.from({ length: plan.maxConnections }, () => this.connection(tag));
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
  }

  /**
   * One request outside /v1 (no budget) opens a connection and warms the parser, so the first scheduled
   * requests are not measured late for reasons that belong to the client, not the server; then the clock
   * restarts and the schedule begins.
   */
  protected async start(): Promise<void> {
    const { plan } = this.opts;
    const host = new URL(this.opts.baseUrl).host;
    await warmUp(this.states[0]!.conns[0]!, host, Math.min(plan.timeoutMs, 2000), (w) => (this.warming = w));
    this.warming = undefined;
    this.recorder.restart();
    this.opts.meter?.restart();
    if (!this.isFinished) this.pump();
  }

  /** The connection is free and takes the next due arrival. */
  protected released(st: ClassState, conn: Http1Connection, at: number): void {
    conn.freedAt = at;
    st.idle.push(conn);
    if (this.isFinished) return;
    this.admit(st, at);
    if (st.inFlight === 0 && st.queue.length === 0 && this.scheduleOver()) this.pump();
  }

  protected stopTimers(): void {
    if (this.timer) clearTimeout(this.timer);
  }

  protected dropWaiting(): void {
    for (const st of this.states) {
      st.queue.clear();
      st.routes.length = 0;
    }
  }

  private capped(): boolean {
    const max = this.opts.plan.maxRequests;
    return max !== undefined && this.scheduled >= max;
  }

  private scheduleOver(): boolean {
    return this.capped() || this.states.every((st) => st.next >= this.opts.plan.durationMs);
  }

  /** Queues the arrivals due by `now`, drops the overdue ones, and sends while a connection is free. */
  private admit(st: ClassState, now: number): void {
    const { plan } = this.opts;
    const end = plan.durationMs;
    // The schedule never exceeds the duration or the request cap.
    // An explicit schedule (a regression profile) fixes each send's time and route; a rate draws the route.
    const sched = st.pc.schedule;
    while (st.next <= now && st.next < end && !this.capped()) {
      st.queue.push(st.next);
      this.scheduled++;
      if (sched) {
        st.routes.push(sched[st.cursor]!.idx);
        st.next = sched[++st.cursor]?.atMs ?? Infinity;
      } else {
        const rate = st.pc.rateAt!(st.next / 1000);
        st.next += rate > 0 ? 1000 / rate : 10;
      }
    }
    while (st.queue.length && now - st.queue.peek() > plan.dropAfterMs) {
      this.recorder.drop(st.pc.class, st.queue.shift());
      if (sched) st.routes.shift();
    }
    while (st.queue.length && st.idle.length) {
      // The gate is asked with the send's own time: a stale `now` would let sends bunch past caps.maxRps.
      if (this.gate && !this.gate.tryTake(this.recorder.now())) break;
      const intended = st.queue.shift();
      this.send(st, intended, sched ? st.routes.shift()! : pickRoute(st.pc, Math.random()));
    }
  }

  private send(st: ClassState, intended: number, idx: number): void {
    const conn = st.idle.pop()!;
    const sent = this.recorder.now();
    // The generator's own lateness: from when the arrival was due and a connection was free.
    this.opts.meter?.slip(sent - Math.max(intended, conn.freedAt));
    this.dispatch(st, conn, idx, intended, sent);
  }

  private pump(): void {
    this.timer = undefined;
    this.timerAt = Infinity;
    if (this.isFinished) return;
    const { plan } = this.opts;
    const now = this.recorder.now();
    for (const st of this.states) this.admit(st, now);
    const over = this.scheduleOver();
    const busy = this.states.some((st) => st.queue.length > 0 || st.inFlight > 0);
    if (over && !busy) return this.finish();
    let wake = now + TICK_MS;
    if (!over) for (const st of this.states) if (st.next < plan.durationMs && st.next < wake) wake = st.next;
    // Queued arrivals wait for a connection (a completion sends them) or for their drop time.
    for (const st of this.states) if (st.queue.length) wake = Math.min(wake, st.queue.peek() + plan.dropAfterMs + 0.001, now + 5);
    this.arm(wake, now);
  }

  private arm(at: number, now: number): void {
    if (this.timer && this.timerAt <= at) return;
    if (this.timer) clearTimeout(this.timer);
    this.timerAt = at;
    this.timer = setTimeout(() => this.pump(), Math.max(0, at - now));
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
