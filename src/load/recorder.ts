/**
 * What both engines write into while a profile runs: the sample buffer, sent and dropped counters per
 * second, and live counters for the progress line. Everything heavier (histograms, timeline,
 * verification, analysis) is computed from it after the run.
 */
import type { RouteClass } from '../results/schema.js';
import { SampleBuffer, type SampleInput } from './samples.js';

export interface Progress {
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

export class LoadRecorder {
  private origin = performance.now();
  readonly buffer = new SampleBuffer();
  /** Requests sent, per second of the run, per class. */
  readonly sentPerSecond: Record<RouteClass, number[]> = { read: [], write: [] };
  readonly sentTotal: Record<RouteClass, number> = { read: 0, write: 0 };
  /** Intended send times (ms) of dropped requests, per class. */
  readonly dropped: Record<RouteClass, number[]> = { read: [], write: [] };
  refused = 0;
  transportErrors = 0;
  private completedPerSecond: number[] = [];

  /** Restarts the clock; only valid before anything was recorded. */
  restart(): void {
    this.origin = performance.now();
  }

  /** ms since the run started. */
  now(): number {
    return performance.now() - this.origin;
  }

  /** Counts one request as sent at `at` ms. */
  sent(cls: RouteClass, at: number): void {
    const s = Math.floor(at / 1000);
    const arr = this.sentPerSecond[cls];
    while (arr.length <= s) arr.push(0);
    arr[s]!++;
    this.sentTotal[cls]++;
  }

  /** Records one response (or transport failure); returns its sample index. */
  response(s: SampleInput): number {
    const sec = Math.floor(s.received / 1000);
    while (this.completedPerSecond.length <= sec) this.completedPerSecond.push(0);
    this.completedPerSecond[sec]!++;
    if (s.status === 429) this.refused++;
    else if (s.status === 0) this.transportErrors++;
    return this.buffer.push(s);
  }

  /** Records a request that could not be sent on time. */
  drop(cls: RouteClass, intended: number): void {
    this.dropped[cls].push(intended);
  }

  /** A snapshot for the per-second progress line. */
  progress(durationSeconds: number): Progress {
    const elapsed = this.now() / 1000;
    const last = Math.floor(elapsed) - 1;
    return {
      elapsed,
      durationSeconds,
      sent: this.sentTotal.read + this.sentTotal.write,
      completed: this.buffer.length,
      dropped: this.dropped.read.length + this.dropped.write.length,
      lastSecondRps: last >= 0 ? (this.completedPerSecond[last] ?? 0) : 0,
      refused: this.refused,
      errors: this.transportErrors,
    };
  }
}
