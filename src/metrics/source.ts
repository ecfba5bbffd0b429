/**
 * What the live metrics read from a load run, through the fold's observer hook: every response as it
 * arrives (`onResponse`), and the run's cumulative counters when a push is due (`figures()`). The load
 * run hands both over (load/run.ts); the live outputs keep cumulative state only, nothing per response.
 */
import type { RouteClass } from '../results/schema.js';
import type { ResponseObserver } from '../load/aggregate.js';

/** What the metrics read of one response (a load sample: times in ms since the run's start). */
export interface ObservedResponse {
  sent: number;
  received: number;
  /** 0 for a transport failure. */
  status: number;
  /** The RateLimit-Remaining header exactly as sent, if any. */
  remaining?: string;
}

/** What the metrics read of the route a response answered. */
export interface ObservedRoute {
  class: RouteClass;
  method: string;
  /** The key role the request was sent with (a role name, never a key). */
  keyRole: string;
}

/**
 * What the metrics read of each response: the fold's one observer hook (load/aggregate.ts). Its sample and
 * planned route carry at least ObservedResponse and ObservedRoute, all a metrics observer reads.
 */
export type { ResponseObserver } from '../load/aggregate.js';

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

/** The live outputs of one profile run. */
export interface ProfileMetrics extends ResponseObserver {
  /** Pushes the final figures (bounded in time) and stops; never rejects. */
  finish(final: { violations: number }): Promise<void>;
}

/** Live outputs of a command: one ProfileMetrics per profile run. */
export interface LiveMetrics {
  start(profile: string, figures: () => RunFigures): ProfileMetrics;
}
