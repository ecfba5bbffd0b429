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
 * One run is one ClosedRun over the engines' base (engine-base.ts: connections, tick, abort, accounting);
 * what it decides is when a connection sends next.
 */
import { maxInFlight, weightedCycle, type EngineOptions } from './engine.js';
import { RateGate } from './rate-gate.js';
import type { Http1Connection } from './http1-connection.js';
import { EngineBase, type EngineClass } from './engine-base.js';

export type { EngineOptions };

interface ClassState extends EngineClass {
  cycle: number[];
  cursor: number;
  /** Sends this class may still make (Infinity: no request cap). */
  left: number;
  gate: RateGate | undefined;
  /** Connections waiting for the rate gate or the next tick. */
  waiting: Http1Connection[];
}

/** Runs the closed model until the duration, the request cap or the signal ends it. */
export async function runClosed(opts: EngineOptions): Promise<void> {
  await new ClosedRun(opts).run();
}

class ClosedRun extends EngineBase<ClassState> {
  protected readonly states: ClassState[];
  /** No more sends: the duration is over, the request caps are used up, or the run was aborted. */
  private stopped = false;
  private timer: NodeJS.Timeout | undefined;
  private gateTimer: NodeJS.Timeout | undefined;

  constructor(opts: EngineOptions) {
    super(opts);
    const { plan } = opts;
    const totalConns = maxInFlight(plan);
    this.states = plan.classes.map((pc, tag) => {
      const share =
        plan.maxRequests !== undefined ? Math.max(1, Math.floor((plan.maxRequests * (pc.connections ?? 0)) / totalConns)) : Infinity;
      let n = pc.connections ?? 1;
      if (pc.maxRps !== undefined) n = Math.min(n, Math.max(1, Math.floor(pc.maxRps)));
      n = Math.max(1, Math.min(n, share));
      return {
        pc,
        conns: Array.from({ length: n }, () => this.connection(tag)),
        cycle: weightedCycle(pc),
        cursor: 0,
        left: share,
        inFlight: 0,
        gate: pc.maxRps !== undefined ? new RateGate(pc.maxRps) : undefined,
        waiting: [],
      };
    });
  }

  /** Sends on every connection; the duration's timer stops the run. */
  protected start(): void {
    this.timer = setTimeout(() => this.stop(), this.opts.plan.durationMs);
    for (const st of this.states) for (const c of st.conns) this.next(st, c);
  }

  /** The connection sends again (after a tick if its request failed); the run ends once stopped and idle. */
  protected released(st: ClassState, conn: Http1Connection, _at: number, failed: boolean): void {
    if (failed) st.waiting.push(conn);
    else this.next(st, conn);
    if (this.stopped && this.allIdle()) this.finish();
  }

  protected stopTimers(): void {
    if (this.timer) clearTimeout(this.timer);
    if (this.gateTimer) clearTimeout(this.gateTimer);
  }

  protected dropWaiting(): void {
    this.stopped = true;
  }

  /** Failed connections' retries wait for the tick. */
  protected override onTick(): void {
    if (!this.stopped) this.release();
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
    this.dispatch(st, conn, idx, NaN, now);
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
    if (this.allIdle()) this.finish();
  }
}
