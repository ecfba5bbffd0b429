/**
 * Throughput, defined once for the live run, workers and merge: answered responses other than 429 per
 * second. A 429 is an answer but not work the server did for the caller, so refusals are counted apart
 * (the timeline's `429` family) and never as throughput. The peak is over whole seconds; the run's last,
 * partial second is left out of it (it holds a fraction of a second's answers, not a collapse), and the peak
 * is never below the mean (when the only denser stretch was that partial second, the peak is the mean).
 */

/** What a timeline second holds of answers: counts by status family (`2xx`, `429`, `other`). */
interface Second {
  t: number;
  byFamily: Record<string, number>;
}

/** Answered non-429 responses of one second. */
export function answeredIn(p: Second): number {
  let n = 0;
  for (const [family, c] of Object.entries(p.byFamily)) if (family !== '429') n += c;
  return n;
}

/** Mean and peak answered (non-429) responses per second over a run of `seconds`. */
export function throughputOf(points: readonly Second[], seconds: number): { meanRps: number; peakRps: number } {
  const s = Math.max(seconds, 1e-3);
  let total = 0;
  let peak = 0;
  for (const p of points) {
    const n = answeredIn(p);
    total += n;
    if (p.t + 1 <= s && n > peak) peak = n;
  }
  const mean = Math.round((total / s) * 100) / 100;
  return { meanRps: mean, peakRps: Math.max(peak, mean) };
}

/**
 * How much of a second the timeline point at `t` covers in a run of `seconds` (1 for whole seconds): the
 * charts scale the trailing partial second to a per-second rate, or leave it out when it is under half.
 */
export function coverageOf(t: number, seconds: number): number {
  return Math.max(0, Math.min(1, seconds - t));
}

/** The keys a run sent with and their combined budget, as the rate-limit analysis found them (per key and class). */
export interface KeysBudget {
  /** Key names (a role, or `role.pool[i]`), in the analysis's order. */
  keys: string[];
  /** Sum of every key's budget rate (limit / window) over its classes; null when one is unknown. */
  budgetRps: number | null;
}

/** What keysBudget reads of one key × class of the rate-limit analysis. */
interface KeyClassBudget {
  key?: string;
  observedLimit: number | null;
  windowSeconds: number | null;
  budgetSource?: string;
  statedLimit?: number;
  statedWindowSeconds?: number;
}

/**
 * The combined admission budget of the keys an analysis saw: each key × class contributes its limit over its
 * window (the stated budget where the analysis used it, else the observed one). Pure.
 */
export function keysBudget(classes: ReadonlyArray<KeyClassBudget>): KeysBudget {
  const keys = [...new Set(classes.map((c) => c.key ?? ''))].filter((k) => k !== '');
  let budgetRps: number | null = classes.length > 0 ? 0 : null;
  for (const c of classes) {
    const stated = c.budgetSource === 'stated' && c.statedLimit !== undefined && c.statedWindowSeconds !== undefined;
    const limit = stated ? c.statedLimit! : c.observedLimit;
    const window = stated ? c.statedWindowSeconds! : c.windowSeconds;
    if (limit === null || window === null || !(window > 0) || budgetRps === null) {
      budgetRps = null;
      continue;
    }
    budgetRps += limit / window;
  }
  return { keys, budgetRps: budgetRps === null ? null : Math.round(budgetRps * 100) / 100 };
}
