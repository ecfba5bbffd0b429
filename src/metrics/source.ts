/**
 * What the live metrics read from a load run: the fold's cumulative figures (`FoldSource.snapshot()`,
 * fold/observer.ts), handed over once when the run's aggregator is made (`attach`), and the run's counters
 * when a push is due (`figures()`). Nothing of the metrics runs per response: every count, duration and
 * RateLimit-Remaining they push is the fold's.
 */
import type { RouteClass } from '../results/schema.js';
import type { FoldObserver } from '../fold/observer.js';

export type { FoldObserver, FoldSource } from '../fold/observer.js';

/** The generator's own lag since the previous push, in seconds. */
export interface GeneratorLag {
  /** Largest event-loop delay. */
  eventLoopDelayMax?: number;
  /** Largest delay of a send behind its intended time. */
  sendSlipMax?: number;
}

/** The run's cumulative counters at one moment. */
export interface RunFigures {
  sent: Readonly<Record<RouteClass, number>>;
  dropped: Readonly<Record<RouteClass, number>>;
  /** Rate-limit findings, once judged (the final push). */
  violations?: number;
  /** The engine's send slip since the previous push (open model); the pusher measures the event-loop delay itself. */
  lag?: GeneratorLag;
}

/** The live outputs of one profile run: attached to the run's fold, whose figures they push. */
export interface ProfileMetrics extends FoldObserver {
  /** Pushes the final figures (bounded in time) and stops; never rejects. */
  finish(final: { violations: number }): Promise<void>;
}

/** Live outputs of a command: one ProfileMetrics per profile run. */
export interface LiveMetrics {
  start(profile: string, figures: () => RunFigures): ProfileMetrics;
}
