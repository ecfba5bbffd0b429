/**
 * The last RateLimit-Remaining of each route class × key (role, or pool key: the live metrics' gauge): per response a
 * plain non-negative integer header updates its route's value and the order it came in; malformed values
 * and transport failures are ignored. Two numbers per route of the plan, whatever the run's length; the
 * snapshot groups the routes by class and key role, the latest value of each group. Pure.
 */
import type { RouteClass } from '../results/schema.js';

/** The last RateLimit-Remaining of one class and key role (a pool key: its name, `role.pool[i]`). */
export interface RemainingGauge {
  class: RouteClass;
  keyRole: string;
  value: number;
}

/** A header value as a non-negative integer (optional spaces around at most 15 digits), else -1. No allocation. */
export function plainInteger(v: string): number {
  let i = 0;
  let j = v.length;
  while (i < j && (v.charCodeAt(i) === 32 || v.charCodeAt(i) === 9)) i++;
  while (j > i && (v.charCodeAt(j - 1) === 32 || v.charCodeAt(j - 1) === 9)) j--;
  if (j === i || j - i > 15) return -1;
  let n = 0;
  for (let k = i; k < j; k++) {
    const d = v.charCodeAt(k) - 48;
    if (d < 0 || d > 9) return -1;
    n = n * 10 + d;
  }
  return n;
}

export class LastRemaining {
  private readonly value: Float64Array;
  /** The order (response number + 1) of each route's value; 0: none yet. */
  private readonly order: Float64Array;
  private seq = 0;

  /** `keyName`: a pool key's name (`role.pool[i]`), whose budget is its own: a gauge apart from the role's key. */
  constructor(private readonly routes: readonly { class: RouteClass; keyRole: string; keyName?: string }[]) {
    this.value = new Float64Array(routes.length);
    this.order = new Float64Array(routes.length);
  }

  /** Folds one response of route `route` (its index in the plan); status 0: a transport failure. */
  add(route: number, status: number, remaining: string | undefined): void {
    this.seq++;
    if (status === 0 || remaining === undefined) return;
    const v = plainInteger(remaining);
    if (v < 0) return;
    this.value[route] = v;
    this.order[route] = this.seq;
  }

  /** The latest value per class × key role, in the order the groups were first planned. */
  gauges(): RemainingGauge[] {
    const groups = new Map<string, { gauge: RemainingGauge; order: number }>();
    this.routes.forEach((r, i) => {
      const order = this.order[i]!;
      if (order === 0) return;
      const name = r.keyName ?? r.keyRole;
      const key = `${r.class}|${name}`;
      const g = groups.get(key);
      if (!g) groups.set(key, { gauge: { class: r.class, keyRole: name, value: this.value[i]! }, order });
      else if (order > g.order) {
        g.gauge.value = this.value[i]!;
        g.order = order;
      }
    });
    return [...groups.values()].map((g) => g.gauge);
  }
}
