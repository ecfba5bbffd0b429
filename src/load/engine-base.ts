/**
 * What both load engines are, whatever their model (undici's lib/dispatcher/pool-base.js is the shape): the
 * base owns a run's lifecycle — its keep-alive connections (http1-connection.ts), the abort signal, the
 * 50 ms tick that sweeps request deadlines and flushes responses to the recorder in batches
 * (response-batch.ts), the accounting of every request sent as answered or failed, the end of the run and
 * the connection counts at its end — and a variant (closed.ts, open.ts) owns one decision: when to send
 * next. It starts the run (`start`), answers each ended request (`released`), and says when the run is over
 * (`finish`).
 *
 * Every send is recorded as it goes out (the recorder's in-flight watermark) and every response when it
 * ends, through the same batches; an abort drops the requests in flight at once, unrecorded.
 */
import type { PlannedClass } from './plan.js';
import type { EngineOptions } from './engine.js';
import type { LoadRecorder } from './load-recorder.js';
import { ResponseBatch } from './response-batch.js';
import { Http1Connection, type Http1Endpoint, type Http1Handler, type Http1Head } from './http1-connection.js';
import { RequestSource, endpointOf, fillFailure, fillResponse, sweepDeadlines } from './socket-requests.js';

/** Deadline sweep and batch flush period, ms (a deadline fires at most this late). */
export const TICK_MS = 50;

/** One class of the run as the base sees it: its connections and its requests in flight. */
export interface EngineClass {
  pc: PlannedClass;
  conns: Http1Connection[];
  inFlight: number;
}

/** The lifecycle of one run; `S` is the variant's per-class state. */
export abstract class EngineBase<S extends EngineClass> implements Http1Handler {
  protected readonly recorder: LoadRecorder;
  protected readonly requests: RequestSource;
  protected readonly batch: ResponseBatch;
  protected readonly endpoint: Http1Endpoint;
  protected abstract readonly states: S[];
  /** Set by abort(): nothing more is sent or recorded. */
  protected aborted = false;
  /** A request outside the run is on the wire (the open model's warm-up): its end goes here, unrecorded. */
  protected warming: ((ok: boolean) => void) | undefined;
  private finished = false;
  private seq = 0;
  private done: () => void = () => undefined;
  private readonly allDone = new Promise<void>((r) => (this.done = r));
  private readonly clock = (): number => this.recorder.now();

  constructor(protected readonly opts: EngineOptions) {
    this.recorder = opts.recorder;
    this.requests = new RequestSource(opts.plan, opts.baseUrl, opts.secrets);
    this.batch = new ResponseBatch(opts.recorder);
    this.endpoint = endpointOf(opts.baseUrl, opts.tls);
  }

  /** The variant starts sending (not called when the run was aborted before it began). */
  protected abstract start(): void | Promise<void>;

  /** The request on `conn` of class `st` ended at `at` (recorded and committed): the variant decides what is sent next. */
  protected abstract released(st: S, conn: Http1Connection, at: number, failed: boolean): void;

  /** Clears the variant's own timers (at the run's end, and on abort). */
  protected abstract stopTimers(): void;

  /** Drops what the variant has waiting to be sent (on abort). */
  protected abstract dropWaiting(): void;

  /** Runs until the variant finishes, or the signal aborts; then closes every connection and counts them. */
  async run(): Promise<void> {
    const signal = this.opts.signal;
    const abort = (): void => this.abort();
    if (signal?.aborted) this.abort();
    else signal?.addEventListener('abort', abort, { once: true });
    const tick = setInterval(() => this.tick(), TICK_MS);
    try {
      if (!this.aborted) await this.start();
      await this.allDone;
    } finally {
      clearInterval(tick);
      this.stopTimers();
      this.batch.flush();
      signal?.removeEventListener('abort', abort);
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
    if (this.warming) return this.warming(true);
    if (this.aborted) return;
    const received = conn.received;
    fillResponse(this.batch.next(), conn, h, body, received);
    this.ended(conn, received, false);
  }

  onFailure(conn: Http1Connection, error: string): void {
    if (this.warming) return this.warming(false);
    if (this.aborted) return;
    const received = this.recorder.now();
    fillFailure(this.batch.next(), conn, error, received);
    this.ended(conn, received, true);
  }

  /** Stop at once: nothing more is sent; in-flight requests are cancelled and not recorded. */
  abort(): void {
    this.aborted = true;
    this.dropWaiting();
    for (const st of this.states) for (const c of st.conns) c.destroy();
    this.finish();
  }

  /** A connection of class `tag` to the target, answering to this run; 429 bodies are kept (their error code). */
  protected connection(tag: number): Http1Connection {
    const c = new Http1Connection(this.endpoint, this, keep429, this.clock);
    c.tag = tag;
    return c;
  }

  /** Sends route `idx` on `conn` at `now` (`intended`: the open model's scheduled time, else NaN) and records the send. */
  protected dispatch(st: S, conn: Http1Connection, idx: number, intended: number, now: number): void {
    conn.route = idx;
    conn.intended = intended;
    conn.sent = now;
    this.recorder.sent(st.pc.class, now);
    st.inFlight++;
    conn.send(this.requests.bytes(idx, ++this.seq));
  }

  /** The run is over (every answer is in, or it was aborted): run() goes on to close the connections. */
  protected finish(): void {
    if (this.finished) return;
    this.finished = true;
    this.stopTimers();
    this.done();
  }

  /** True once finish() ran. */
  protected get isFinished(): boolean {
    return this.finished;
  }

  /** The variant's part of the 50 ms tick, after the deadline sweep and before the flush. */
  protected onTick(): void {}

  /** A request ended: its record is committed, its class has one fewer in flight, and the variant decides. */
  private ended(conn: Http1Connection, at: number, failed: boolean): void {
    const st = this.states[conn.tag]!;
    this.batch.commit(st.pc.class);
    st.inFlight--;
    this.released(st, conn, at, failed);
  }

  /** The 50 ms tick: request deadlines (one sweep instead of a timer per request), the variant's part, the flush. */
  private tick(): void {
    const now = this.recorder.now();
    for (const st of this.states) if (st.inFlight > 0) sweepDeadlines(st.conns, now, this.opts.plan.timeoutMs);
    this.onTick();
    this.batch.flush();
  }
}

function keep429(status: number): boolean {
  return status === 429;
}
