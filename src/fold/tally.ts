/**
 * Responses counted per route class × status: the one definition of the count metrics (completed,
 * transport failures, status families, 429s, the error rate) for a live run, local workers and a merge of
 * shards alike. Mergeable: the tally of shards merged is the tally of all their responses. Pure.
 */
import type { RouteClass } from '../results/schema.js';
import type { CountMetric } from './threshold.js';
import { isError } from './timeline.js';
import { ROUTE_CLASSES } from '../spec/routes.js';

/** One class's responses (status 0: a transport failure). */
export interface ClassTally {
  /** Responses and transport failures. */
  records: number;
  completed: number;
  transport: number;
  /** Transport failures and 4xx/5xx other than 429 (the `errors` rate's numerator). */
  errors: number;
  byStatus: Map<number, number>;
}

const newClassTally = (): ClassTally => ({ records: 0, completed: 0, transport: 0, errors: 0, byStatus: new Map() });

/** The status metrics a tally answers (`sent`, `dropped` and `ratelimit.violations` are not responses). */
export type StatusMetric = Exclude<CountMetric, 'sent' | 'dropped' | 'ratelimit.violations'>;

/** Whether a response of `status` counts in `metric`. */
export function statusCounts(metric: StatusMetric, status: number): boolean {
  switch (metric) {
    case 'completed':
      return status !== 0;
    case 'transport':
      return status === 0;
    case '429':
      return status === 429;
    default:
      return status !== 0 && Math.floor(status / 100) === Number(metric[0]);
  }
}

export class StatusTally {
  readonly byClass: Record<RouteClass, ClassTally> = { read: newClassTally(), write: newClassTally() };

  /** Counts one response (or transport failure, status 0) of class `cls`. */
  add(cls: RouteClass, status: number): void {
    const t = this.byClass[cls];
    t.records++;
    t.byStatus.set(status, (t.byStatus.get(status) ?? 0) + 1);
    if (status === 0) t.transport++;
    else t.completed++;
    if (isError(status)) t.errors++;
  }

  /** Adds another tally's counts (a shard's) to this one. */
  merge(other: StatusTally): this {
    for (const c of ROUTE_CLASSES) {
      const a = this.byClass[c];
      const b = other.byClass[c];
      a.records += b.records;
      a.completed += b.completed;
      a.transport += b.transport;
      a.errors += b.errors;
      for (const [st, n] of b.byStatus) a.byStatus.set(st, (a.byStatus.get(st) ?? 0) + n);
    }
    return this;
  }

  /** Responses of one class (or both) counting in `metric`. */
  count(metric: StatusMetric, cls?: RouteClass): number {
    let n = 0;
    for (const c of cls ? [cls] : ROUTE_CLASSES) {
      const t = this.byClass[c];
      if (metric === 'completed') n += t.completed;
      else if (metric === 'transport') n += t.transport;
      else for (const [st, k] of t.byStatus) if (statusCounts(metric, st)) n += k;
    }
    return n;
  }

  /** The error rate of one class (or both): errors over responses and transport failures; null with none. */
  errorRate(cls?: RouteClass): number | null {
    let n = 0;
    let e = 0;
    for (const c of cls ? [cls] : ROUTE_CLASSES) {
      n += this.byClass[c].records;
      e += this.byClass[c].errors;
    }
    return n === 0 ? null : e / n;
  }

  /** Counts by status as results list them (`error` for transport failures), both classes together. */
  byStatusRecord(): Record<string, number> {
    const out: Record<string, number> = {};
    for (const c of ROUTE_CLASSES) {
      for (const [st, k] of this.byClass[c].byStatus) {
        const key = st === 0 ? 'error' : String(st);
        out[key] = (out[key] ?? 0) + k;
      }
    }
    return out;
  }
}
