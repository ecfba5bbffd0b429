/**
 * What both engines write into while a profile runs: sent and dropped counters per second, live counters
 * for the progress line, and every response, which goes straight on to a sink (the online aggregator) and
 * is not kept here. Per-second arrays are O(duration), a few numbers a second; nothing is O(requests).
 */
import type { RouteClass } from '../results/schema.js';
import type { SampleInput } from './samples.js';

export interface LoadProgress {
  /** Seconds since start. */
  elapsed: number;
  durationSeconds: number;
  sent: number;
  completed: number;
  dropped: number;
  /** Responses in the last full second. */
  lastSecondRps: number;
  refused: number;
  errors: number;
}

/**
 * Receives every response as it is recorded. An object with a method rather than a function: the
 * recorder's call site then always calls the same method (LoadAggregator.prototype.add), where a closure
 * made per run was a new call target each run and cost the optimized recorder and batch a deoptimization
 * and a recompile in every run after the first.
 */
export interface ResponseSink {
  /**
   * `watermark`, when the engine reports its sends as they go out: the earliest send (ms) still in flight
   * once this response is in, or the response's own time when none is — every response sent before it
   * has been handed over.
   */
  add(s: SampleInput, watermark?: number): void;
}

const COUNT_ONLY: ResponseSink = { add: () => undefined };

/**
 * Sends not answered yet, for the watermark: their times in send order in a typed-array window (sends are
 * recorded as they go out, so the times only grow), each with an answered flag. An answer finds its send by
 * binary search over the window (a few hundred requests in flight at most take a handful of steps); the
 * earliest unanswered send is the window's first entry once answered ones are dropped from the front.
 * Nothing is allocated per request (a Map keyed by send times allocated a number per entry and cost four
 * times as much).
 */
class InFlight {
  private times = new Float64Array(1024);
  private answered = new Uint8Array(1024);
  private head = 0;
  private tail = 0;

  add(at: number): void {
    if (this.tail === this.times.length) this.makeRoom();
    this.times[this.tail] = at;
    this.answered[this.tail] = 0;
    this.tail++;
  }

  /** Marks the earliest unanswered send at `at` answered (a time never added is ignored). */
  remove(at: number): void {
    const times = this.times;
    let lo = this.head;
    let hi = this.tail;
    while (lo < hi) {
      const mid = (lo + hi) >>> 1;
      if (times[mid]! < at) lo = mid + 1;
      else hi = mid;
    }
    for (let i = lo; i < this.tail && times[i] === at; i++) {
      if (this.answered[i] === 0) {
        this.answered[i] = 1;
        return;
      }
    }
  }

  /** The earliest send still in flight (Infinity: none). */
  earliest(): number {
    while (this.head < this.tail && this.answered[this.head] === 1) this.head++;
    return this.head < this.tail ? this.times[this.head]! : Infinity;
  }

  /** Moves the window to the front, or doubles it when it is full of sends in flight. */
  private makeRoom(): void {
    const live = this.tail - this.head;
    if (live * 2 > this.times.length) {
      const times = new Float64Array(this.times.length * 2);
      const answered = new Uint8Array(this.times.length * 2);
      times.set(this.times.subarray(this.head, this.tail));
      answered.set(this.answered.subarray(this.head, this.tail));
      this.times = times;
      this.answered = answered;
    } else {
      this.times.copyWithin(0, this.head, this.tail);
      this.answered.copyWithin(0, this.head, this.tail);
    }
    this.head = 0;
    this.tail = live;
  }
}

export interface RecorderOptions {
  /**
   * The engine calls `sent` as each request goes out, before its response (both load engines do): the
   * recorder then knows what is in flight and hands the sink a watermark with each response. A recorder fed
   * only responses (synthetic ones in tests and benchmarks) leaves it off.
   */
  sendsAsTheyGo?: boolean;
}

const bump = (arr: number[], s: number): void => {
  while (arr.length <= s) arr.push(0);
  arr[s]!++;
};

export class LoadRecorder {
  private origin = performance.now();
  /** Requests sent, per second of the run, per class. */
  readonly sentPerSecond: Record<RouteClass, number[]> = { read: [], write: [] };
  readonly sentTotal: Record<RouteClass, number> = { read: 0, write: 0 };
  /** Requests that could not be sent on time, per second of their intended send time, per class. */
  readonly droppedPerSecond: Record<RouteClass, number[]> = { read: [], write: [] };
  readonly droppedTotal: Record<RouteClass, number> = { read: 0, write: 0 };
  refused = 0;
  transportErrors = 0;
  /** Responses (and transport failures) recorded so far. */
  completed = 0;
  /** The first transport error's message (for "target unreachable"). */
  firstError: string | undefined;
  private completedPerSecond: number[] = [];

  private readonly inFlight: InFlight | undefined;

  /** `sink` receives every response; without one, responses are only counted. */
  constructor(
    private readonly sink: ResponseSink = COUNT_ONLY,
    opts: RecorderOptions = {},
  ) {
    this.inFlight = opts.sendsAsTheyGo ? new InFlight() : undefined;
  }

  /** Restarts the clock; only valid before anything was recorded. */
  restart(): void {
    this.origin = performance.now();
  }

  /** Epoch ms (sub-millisecond) of the clock's origin: t = 0 of the run's trace and timeline. */
  get originEpochMs(): number {
    return performance.timeOrigin + this.origin;
  }

  /** ms since the run started. */
  now(): number {
    return performance.now() - this.origin;
  }

  /** Counts one request as sent at `at` ms. */
  sent(cls: RouteClass, at: number): void {
    bump(this.sentPerSecond[cls], Math.max(0, Math.floor(at / 1000)));
    this.sentTotal[cls]++;
    this.inFlight?.add(at);
  }

  /** Records one response (or transport failure) and hands it to the sink. */
  response(s: SampleInput): void {
    bump(this.completedPerSecond, Math.max(0, Math.floor(s.received / 1000)));
    this.completed++;
    if (s.status === 429) this.refused++;
    else if (s.status === 0) {
      this.transportErrors++;
      this.firstError ??= s.error;
    }
    const f = this.inFlight;
    if (f) {
      f.remove(s.sent);
      // With nothing in flight, what is sent next goes out after this response came in.
      this.sink.add(s, Math.min(f.earliest(), s.received));
    } else this.sink.add(s);
  }

  /** Records a request that could not be sent on time (intended at `intended` ms). */
  drop(cls: RouteClass, intended: number): void {
    bump(this.droppedPerSecond[cls], Math.max(0, Math.floor(intended / 1000)));
    this.droppedTotal[cls]++;
  }

  /** A snapshot for the per-second progress line. */
  progress(durationSeconds: number): LoadProgress {
    const elapsed = this.now() / 1000;
    const last = Math.floor(elapsed) - 1;
    return {
      elapsed,
      durationSeconds,
      sent: this.sentTotal.read + this.sentTotal.write,
      completed: this.completed,
      dropped: this.droppedTotal.read + this.droppedTotal.write,
      lastSecondRps: last >= 0 ? (this.completedPerSecond[last] ?? 0) : 0,
      refused: this.refused,
      errors: this.transportErrors,
    };
  }
}
