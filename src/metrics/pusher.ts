/**
 * The periodic pusher: every interval one snapshot goes to every sink, and once more at the end. A push
 * is bounded in time (its deadline: the interval, at most PUSH_TIMEOUT_MS; the final one FINAL_PUSH_MS);
 * a sink still busy with the previous push skips a tick (pushes are cumulative, so the next carries
 * everything); a failure is handed to `report` and the pushing goes on. The timer is unref'd and nothing
 * is awaited on the run's path but `finish()`, which is bounded: a dead endpoint can neither fail, slow
 * nor hang the run.
 */
import type { MetricsSnapshot } from './model.js';

/** The longest one periodic push may take, ms. */
export const PUSH_TIMEOUT_MS = 10_000;
/** The longest the final push (and the wait for a push still under way) may take, ms. */
export const FINAL_PUSH_MS = 5_000;
/** The longest closing a sink may take, ms. */
const CLOSE_MS = 1_000;

/** Where metrics go: one endpoint of one kind. */
export interface MetricsSink {
  /** How messages name it (kind and URL without credentials). */
  readonly display: string;
  /** Sends the snapshot; rejects once the endpoint failed for good or `deadline` (epoch ms) passed. */
  push(s: MetricsSnapshot, deadline: number): Promise<void>;
  /** Releases connections and timers. */
  close(): Promise<void>;
}

export interface PusherOptions {
  sinks: MetricsSink[];
  intervalMs: number;
  /** The snapshot of this moment (at finish(): the last one, with the judged figures). */
  snapshot: () => MetricsSnapshot;
  /** Told of every failed push, with a one-line reason. */
  report: (sink: MetricsSink, reason: string) => void;
  /** Bound of the final push, ms (default FINAL_PUSH_MS). */
  finalMs?: number;
}

/** Resolves after `ms`, or at once when `cancel` is called; never keeps the process alive. */
function delay(ms: number): { done: Promise<void>; cancel: () => void } {
  let cancel = (): void => undefined;
  const done = new Promise<void>((resolve) => {
    const t = setTimeout(resolve, Math.max(0, ms));
    t.unref();
    cancel = () => {
      clearTimeout(t);
      resolve();
    };
  });
  return { done, cancel };
}

/** `p`, or nothing once `ms` passed. */
async function within(p: Promise<unknown>, ms: number): Promise<void> {
  const d = delay(ms);
  try {
    await Promise.race([
      p.then(
        () => undefined,
        () => undefined,
      ),
      d.done,
    ]);
  } finally {
    d.cancel();
  }
}

/** One line of a thrown value. */
function reasonOf(err: unknown): string {
  const msg = err instanceof Error ? err.message : String(err);
  return msg.split('\n')[0]!.trim() || 'push failed';
}

export class Pusher {
  private timer: NodeJS.Timeout | undefined;
  private readonly inflight = new Map<MetricsSink, Promise<void>>();
  private finished = false;
  /** Pushes launched and pushes that failed (for the tests and the notes). */
  pushes = 0;
  failures = 0;

  constructor(private readonly opts: PusherOptions) {}

  /** Starts the periodic pushes. */
  start(): void {
    if (this.opts.sinks.length === 0) return;
    this.timer = setInterval(() => this.tick(), this.opts.intervalMs);
    this.timer.unref();
  }

  private tick(): void {
    if (this.finished) return;
    const snap = this.opts.snapshot();
    const deadline = Date.now() + Math.min(this.opts.intervalMs, PUSH_TIMEOUT_MS);
    for (const sink of this.opts.sinks) if (!this.inflight.has(sink)) void this.launch(sink, snap, deadline);
  }

  private launch(sink: MetricsSink, snap: MetricsSnapshot, deadline: number): Promise<void> {
    this.pushes++;
    let p: Promise<void>;
    try {
      p = sink.push(snap, deadline);
    } catch (err) {
      p = Promise.reject(err);
    }
    const settled = p
      .then(
        () => undefined,
        (err: unknown) => {
          this.failures++;
          this.opts.report(sink, reasonOf(err));
        },
      )
      .finally(() => this.inflight.delete(sink));
    this.inflight.set(sink, settled);
    return settled;
  }

  /** Stops the timer, pushes the final snapshot (bounded) and closes the sinks; never rejects. */
  async finish(): Promise<void> {
    if (this.finished) return;
    this.finished = true;
    if (this.timer) clearInterval(this.timer);
    const { sinks } = this.opts;
    if (sinks.length === 0) return;
    const bound = this.opts.finalMs ?? FINAL_PUSH_MS;
    const deadline = Date.now() + bound;
    const snap = this.opts.snapshot();
    await Promise.all(
      sinks.map(async (sink) => {
        // The previous push first: the final one must not arrive before it (Prometheus refuses older samples).
        const pending = this.inflight.get(sink);
        if (pending) await within(pending, deadline - Date.now());
        if (!this.inflight.has(sink)) await within(this.launch(sink, snap, deadline), deadline - Date.now() + 100);
      }),
    );
    await Promise.all(sinks.map((s) => within(s.close(), CLOSE_MS)));
  }
}
