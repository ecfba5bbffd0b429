/**
 * The cumulative state the live metrics push, folded one response at a time: per route class × status
 * family × method a request count, a sum of durations and counts in the explicit DURATION_BUCKETS, and per
 * route class × key role the last RateLimit-Remaining. Its size is that of the label combinations seen
 * (a few dozen), whatever the run's length; `snapshot()` copies it with the run's counters. Pure.
 */
import type { RouteClass } from '../results/schema.js';
import { DURATION_BUCKETS } from './names.js';
import type { GeneratorLag, ObservedResponse, ObservedRoute, ResponseObserver, RunFigures } from './source.js';

/** Status families of the request metrics: the results' three, and `error` for a transport failure. */
export type StatusFamily = '2xx' | '429' | 'other' | 'error';

/** The family of a status, as the results' latency summaries name it (0: transport failure). */
export function statusFamily(status: number): StatusFamily {
  if (status === 0) return 'error';
  if (status >= 200 && status < 300) return '2xx';
  if (status === 429) return '429';
  return 'other';
}

const FAMILY_INDEX: Record<StatusFamily, number> = { '2xx': 0, '429': 1, other: 2, error: 3 };

/** One request series: cumulative figures of one class × family × method. */
export interface RequestSeries {
  class: RouteClass;
  family: StatusFamily;
  method: string;
  count: number;
  /** Sum of the durations, seconds. */
  sum: number;
  /** Cumulative counts at or below each DURATION_BUCKETS bound (the +Inf bucket is `count`). */
  buckets: number[];
}

/** The last RateLimit-Remaining of one class and key role. */
export interface RemainingGauge {
  class: RouteClass;
  keyRole: string;
  value: number;
}

/** Everything one push sends. */
export interface MetricsSnapshot {
  /** Epoch ms the figures are of. */
  at: number;
  requests: RequestSeries[];
  sent: Readonly<Record<RouteClass, number>>;
  dropped: Readonly<Record<RouteClass, number>>;
  remaining: RemainingGauge[];
  violations?: number;
  lag: GeneratorLag;
}

interface Series {
  class: RouteClass;
  family: StatusFamily;
  method: string;
  count: number;
  sum: number;
  /** Per bucket, not cumulative; the last slot is above the largest bound. */
  perBucket: Float64Array;
}

/** Index of the first bound ≥ v (DURATION_BUCKETS.length: above them all). */
function bucketOf(v: number): number {
  let lo = 0;
  let hi = DURATION_BUCKETS.length;
  while (lo < hi) {
    const mid = (lo + hi) >> 1;
    if (v <= DURATION_BUCKETS[mid]!) hi = mid;
    else lo = mid + 1;
  }
  return lo;
}

/** A RateLimit-Remaining header as a non-negative integer, or undefined when it is not one. */
function plainInteger(v: string | undefined): number | undefined {
  if (v === undefined || !/^\s*\d{1,15}\s*$/.test(v)) return undefined;
  return Number(v);
}

/** The live metrics' fold of one profile run. */
export class MetricsState implements ResponseObserver {
  private readonly series = new Map<string, Series>();
  /** The four family slots of each route seen (routes are the plan's objects): no key string per response. */
  private readonly byRoute = new Map<ObservedRoute, (Series | undefined)[]>();
  private readonly remaining = new Map<string, RemainingGauge>();
  private readonly remainingByRoute = new Map<ObservedRoute, RemainingGauge>();

  /** Folds one response in. */
  onResponse(s: ObservedResponse, route: ObservedRoute): void {
    const family = statusFamily(s.status);
    let slots = this.byRoute.get(route);
    if (!slots) {
      slots = [undefined, undefined, undefined, undefined];
      this.byRoute.set(route, slots);
    }
    const fi = FAMILY_INDEX[family];
    const series = slots[fi] ?? (slots[fi] = this.seriesOf(route.class, family, route.method));
    const seconds = Math.max(0, s.received - s.sent) / 1000;
    series.count++;
    series.sum += seconds;
    series.perBucket[bucketOf(seconds)]!++;
    if (s.status !== 0 && s.remaining !== undefined) {
      const v = plainInteger(s.remaining);
      if (v !== undefined) this.gaugeOf(route).value = v;
    }
  }

  private seriesOf(cls: RouteClass, family: StatusFamily, method: string): Series {
    const key = `${cls}|${family}|${method}`;
    let s = this.series.get(key);
    if (!s) {
      s = { class: cls, family, method, count: 0, sum: 0, perBucket: new Float64Array(DURATION_BUCKETS.length + 1) };
      this.series.set(key, s);
    }
    return s;
  }

  private gaugeOf(route: ObservedRoute): RemainingGauge {
    let g = this.remainingByRoute.get(route);
    if (g) return g;
    const key = `${route.class}|${route.keyRole}`;
    g = this.remaining.get(key);
    if (!g) {
      g = { class: route.class, keyRole: route.keyRole, value: 0 };
      this.remaining.set(key, g);
    }
    this.remainingByRoute.set(route, g);
    return g;
  }

  /** Label combinations held (the state's size: it does not grow with the number of responses). */
  get seriesCount(): number {
    return this.series.size + this.remaining.size;
  }

  /** A copy of the cumulative figures, with the run's counters, at epoch ms `at`. */
  snapshot(figures: RunFigures, lag: GeneratorLag, at: number): MetricsSnapshot {
    const requests: RequestSeries[] = [...this.series.values()].map((s) => {
      let acc = 0;
      const buckets = DURATION_BUCKETS.map((_, i) => (acc += s.perBucket[i]!));
      return { class: s.class, family: s.family, method: s.method, count: s.count, sum: s.sum, buckets };
    });
    return {
      at,
      requests,
      sent: { ...figures.sent },
      dropped: { ...figures.dropped },
      remaining: [...this.remaining.values()].map((g) => ({ ...g })),
      ...(figures.violations !== undefined ? { violations: figures.violations } : {}),
      lag,
    };
  }
}
