/**
 * The per-second timeline of a run and the capacity search over it. Responses are placed in the second
 * they completed, sends and drops in the second they were (meant to be) sent. The timeline is built online:
 * a second's latencies are kept only until the second is over (responses arrive in completion order), then
 * reduced to p50/p95/p99 (by selection, not sorting), so memory holds one second of latencies plus a few
 * numbers per past second.
 */
import type { KeysBudget } from '../fold/throughput.js';
import type { RouteClass, TimelinePoint } from '../results/schema.js';
import { familyOf } from './status-family.js';
import { ROUTE_CLASSES } from '../spec/routes.js';

/** Whether a response counts against the `errors` rate: transport failures and 4xx/5xx other than 429. */
export function isError(status: number): boolean {
  return status === 0 || (status >= 400 && status !== 429);
}

/** The nearest-rank index of percentile `p` among `n` values. */
function rank(n: number, p: number): number {
  return Math.min(n - 1, Math.max(0, Math.ceil((p / 100) * n) - 1));
}

/**
 * Reorders a[lo..hi] so that a[k] holds the value a sorted copy would hold there, with nothing larger
 * before it and nothing smaller after it (Hoare's selection, median-of-three pivots): the three
 * percentiles of a second cost a few linear passes instead of sorting tens of thousands of latencies.
 */
export function selectInPlace(a: Float64Array, lo: number, hi: number, k: number): void {
  while (hi - lo > 16) {
    const mid = (lo + hi) >>> 1;
    // Median of three as the pivot, and a[lo] <= a[mid] <= a[hi] as sentinels for the scans.
    if (a[mid]! < a[lo]!) swap(a, mid, lo);
    if (a[hi]! < a[lo]!) swap(a, hi, lo);
    if (a[hi]! < a[mid]!) swap(a, hi, mid);
    const pivot = a[mid]!;
    let i = lo;
    let j = hi;
    while (i <= j) {
      while (a[i]! < pivot) i++;
      while (a[j]! > pivot) j--;
      if (i <= j) swap(a, i++, j--);
    }
    if (k <= j) hi = j;
    else if (k >= i) lo = i;
    else return;
  }
  // A short range: insertion sort.
  for (let x = lo + 1; x <= hi; x++) {
    const v = a[x]!;
    let y = x - 1;
    while (y >= lo && a[y]! > v) {
      a[y + 1] = a[y]!;
      y--;
    }
    a[y + 1] = v;
  }
}

function swap(a: Float64Array, i: number, j: number): void {
  const t = a[i]!;
  a[i] = a[j]!;
  a[j] = t;
}

/** p50, p95 and p99 (nearest rank, rounded to µs) of the first `n` values of `a`, which it reorders. */
export function secondPercentiles(a: Float64Array, n: number): [number | null, number | null, number | null] {
  if (n === 0) return [null, null, null];
  const k50 = rank(n, 50);
  const k95 = rank(n, 95);
  const k99 = rank(n, 99);
  // Each selection leaves everything after its rank no smaller: the next one searches only there.
  selectInPlace(a, 0, n - 1, k50);
  if (k95 > k50) selectInPlace(a, k50 + 1, n - 1, k95);
  if (k99 > k95) selectInPlace(a, k95 + 1, n - 1, k99);
  const r = (v: number): number => Math.round(v * 1000) / 1000;
  return [r(a[k50]!), r(a[k95]!), r(a[k99]!)];
}

const intOrNull = (raw: string | undefined): number | null => (raw !== undefined && /^\d+$/.test(raw) ? Number(raw) : null);

export type TimelineRow = TimelinePoint & { errors: number };

/** The sends and drops per second of the run, per class (the engines' recorder keeps them). */
export interface SendsPerSecond {
  sentPerSecond: Record<RouteClass, number[]>;
  droppedPerSecond: Record<RouteClass, number[]>;
}

/** A second still collecting latencies: the first `n` entries of `lat` (a buffer reused second after second). */
interface Open {
  lat: Float64Array;
  n: number;
}

interface Last {
  at: number;
  limit?: string;
  remaining?: string;
  reset?: string;
}

/** Folds responses into per-second points as they arrive. */
export class TimelineBuilder {
  private readonly rows: TimelineRow[] = [];
  /** Seconds whose latencies are still collected (the current one and the one before). */
  private readonly open = new Map<number, Open>();
  private readonly last = new Map<number, Partial<Record<RouteClass, Last>>>();
  private readonly closedSeconds = new Set<number>();
  /** The second of the latest response, its open latencies and last headers (a cache of the maps above). */
  private curT = -1;
  private curOpen: Open | undefined;
  private curLast: Partial<Record<RouteClass, Last>> | undefined;
  /** The latency buffer of a closed second, for the next one (tens of thousands a second, no garbage). */
  private spare: Float64Array | undefined;

  private row(t: number): TimelineRow {
    while (this.rows.length <= t) {
      this.rows.push({
        t: this.rows.length,
        sent: 0,
        completed: 0,
        dropped: 0,
        errors: 0,
        byFamily: {},
        p50: null,
        p95: null,
        p99: null,
        rateLimit: {},
        refused: { read: 0, write: 0 },
      });
    }
    return this.rows[t]!;
  }

  /** Adds one response received at `received` ms; `latencyMs` is the view the timeline reports. */
  add(
    received: number,
    cls: RouteClass,
    status: number,
    latencyMs: number,
    h: { limit?: string; remaining?: string; reset?: string },
  ): void {
    const t = Math.max(0, Math.floor(received / 1000));
    const p = this.row(t);
    p.completed++;
    if (isError(status)) p.errors++;
    const fam = familyOf(status) ?? 'error';
    p.byFamily[fam] = (p.byFamily[fam] ?? 0) + 1;
    if (status === 0) return;
    if (status === 429) p.refused[cls]++;
    let o = t === this.curT ? this.curOpen : this.open.get(t);
    if (!o) {
      // Responses arrive in completion order, so a late one for a second already reduced is rare (a
      // clock step): it is counted above but no longer moves that second's percentiles.
      if (this.closedSeconds.has(t)) return;
      // A new second began: every second before the previous one is over.
      for (const done of [...this.open.keys()]) if (done < t - 1) this.close(done);
      this.open.set(t, (o = { lat: this.spare ?? new Float64Array(1024), n: 0 }));
      this.spare = undefined;
    }
    if (o.n === o.lat.length) {
      const grown = new Float64Array(o.lat.length * 2);
      grown.set(o.lat);
      o.lat = grown;
    }
    o.lat[o.n++] = latencyMs;
    let l = t === this.curT ? this.curLast : this.last.get(t);
    if (!l) this.last.set(t, (l = {}));
    // The second most responses fall in, looked up once per second rather than once per response.
    if (t !== this.curT) {
      this.curT = t;
      this.curOpen = o;
      this.curLast = l;
    }
    const prev = l[cls];
    if (!prev) l[cls] = { at: received, limit: h.limit, remaining: h.remaining, reset: h.reset };
    else if (prev.at <= received) {
      // Updated in place: one object per second and class, not one per response.
      prev.at = received;
      prev.limit = h.limit;
      prev.remaining = h.remaining;
      prev.reset = h.reset;
    }
  }

  /** Reduces a finished second to its percentiles and last rate-limit headers. */
  private close(t: number): void {
    if (t === this.curT) this.curT = -1;
    const o = this.open.get(t);
    this.open.delete(t);
    this.closedSeconds.add(t);
    const p = this.row(t);
    if (o) {
      [p.p50, p.p95, p.p99] = secondPercentiles(o.lat, o.n);
      if (!this.spare || this.spare.length < o.lat.length) this.spare = o.lat;
    }
    const l = this.last.get(t);
    this.last.delete(t);
    for (const cls of ROUTE_CLASSES) {
      const x = l?.[cls];
      if (x) p.rateLimit[cls] = { limit: intOrNull(x.limit), remaining: intOrNull(x.remaining), reset: intOrNull(x.reset) };
    }
  }

  /** Closes every second and adds the sent and dropped counts: one point per second up to the last event. */
  finish(rec: SendsPerSecond): TimelineRow[] {
    for (const t of [...this.open.keys()]) this.close(t);
    for (const cls of ROUTE_CLASSES) {
      rec.sentPerSecond[cls].forEach((n, t) => (this.row(t).sent += n));
      rec.droppedPerSecond[cls].forEach((n, t) => (this.row(t).dropped += n));
    }
    return this.rows;
  }
}

export interface CapacityResult {
  /**
   * The most responses the target served (2xx, completed) in one second while the SLO still held: what it
   * actually did, never the arrival rate offered to it; null if the SLO never held.
   */
  rps: number | null;
  sloP95Ms: number;
  maxErrorPct: number;
  /** Second in which the SLO first broke, or null when it held throughout. */
  firstBreachAt: number | null;
  explanation: string;
  /** The rate limiter refused part of the load: the figure is the keys' admission budget, not the server's. */
  admissionBudget?: boolean;
  remedy?: string;
}

/**
 * Refusals shaped the figure: a 429 is an answer inside the SLO, so a per-key limiter holds the served rate at
 * its budget long before the server tires and the ramp never reaches the knee. Flagged as the keys' admission
 * budget with the way out (a pool of keys), unless the keys' combined budget exceeded every second's offered
 * load: then their budgets cannot be what refused, and the figure is said to be shaped by other refusals.
 */
function admissionJudgement(
  result: CapacityResult,
  seen: { refused: number; answers: number; peakOffered: number },
  keys?: KeysBudget,
): void {
  const { refused, answers, peakOffered } = seen;
  const n = keys?.keys.length ?? 1;
  const budget = keys?.budgetRps ?? null;
  const share = `${refused} of ${answers} answers were 429s`;
  if (budget !== null && budget > peakOffered) {
    const whose = n === 1 ? "key's budget" : `${n} keys' combined budget`;
    result.explanation =
      `${share} although the ${whose} (${budget}/s) exceeds the most offered in a second (${peakOffered}): ` +
      `the refusals are not the keys' budgets (a limit across keys, or the server shedding load); ${result.explanation}`;
    return;
  }
  const roles = [...new Set((keys?.keys ?? []).map((k) => k.replace(/\.pool\[\d+\]$/, '')))];
  const pool = roles.length === 1 ? `keys.${roles[0]}.pool` : 'keys.ROLE.pool';
  const rate = budget !== null ? ` (${budget}/s)` : '';
  result.admissionBudget = true;
  result.explanation =
    n > 1
      ? `this is the combined admission budget of the ${n} keys${rate}, not the server's capacity: ${share}; ${result.explanation}`
      : `this is the admission budget of the key${rate}, not the server's capacity: ${share}; ${result.explanation}`;
  result.remedy =
    n > 1
      ? `add keys to the pool (${pool} in the target file) until their combined budget exceeds what the server can serve, so the knee shows`
      : `spread the load over a pool of keys: list more keys of the role under ${pool} in the target file (the capacity profile ` +
        'spreads over them; a profile of your own with "keys": "pool"), so their combined budget exceeds what the server can serve and the knee shows';
}

/** Refusals above this share of the answers in the judged seconds shape the capacity figure. */
export const ADMISSION_SHARE = 0.01;

/**
 * The capacity of the target under an arrival rate that ramps up: the highest per-second count of 2xx
 * responses completed in a second that met the SLO (p95 of the open model's corrected latency, measured
 * from each request's intended send time so the queue's lag is in it; errors, and dropped arrivals, at
 * most maxErrorPct), among the seconds before the SLO first broke. An offered rate is never credited: while
 * arrivals outrun the target its queue grows, so a second can meet the SLO at an arrival rate the target
 * is not serving; what completed in that second is what it served. Error bounds: above the sustained
 * capacity by less than one response per request the target serves at once (a count per second catches
 * at most one extra completion per concurrent slot: a fraction of about its service time in seconds);
 * below it by what the ramp adds between the knee and the first second whose p95 shows the queue (a ramp
 * whose queue reaches the SLO latency only after a full second past the knee loses nothing).
 * `lastFullSecond`: seconds from it on are partial and not judged.
 */
export function findCapacity(
  points: TimelineRow[],
  slo: { p95Ms: number; maxErrorPct: number },
  lastFullSecond: number,
  keys?: KeysBudget,
): CapacityResult {
  let best: number | null = null;
  let bestOffered = 0;
  let breach: number | null = null;
  let why = '';
  let refused = 0;
  let answers = 0;
  let peakOffered = 0;
  for (const p of points) {
    if (p.t >= lastFullSecond) break;
    refused += p.byFamily['429'] ?? 0;
    answers += p.completed;
    const offered = p.sent + p.dropped;
    peakOffered = Math.max(peakOffered, offered);
    if (offered === 0 && p.completed === 0) continue;
    const errPct = ((p.errors + p.dropped) / Math.max(1, p.completed + p.dropped)) * 100;
    const slow = p.p95 !== null && p.p95 > slo.p95Ms;
    if (slow || errPct > slo.maxErrorPct) {
      breach = p.t;
      why = slow ? `p95 ${p.p95}ms > ${slo.p95Ms}ms` : `errors ${errPct.toFixed(2)}% > ${slo.maxErrorPct}%`;
      break;
    }
    const served = p.byFamily['2xx'] ?? 0;
    if (best === null || served > best) {
      best = served;
      bestOffered = offered;
    }
  }
  const at = best === null ? '' : ` (${bestOffered} arrivals offered in that second)`;
  const explanation =
    breach === null
      ? `the SLO (p95 <= ${slo.p95Ms}ms, errors <= ${slo.maxErrorPct}%) held throughout; the target served up to ${best ?? 0} responses/s${at}: capacity is at least that`
      : `the SLO broke at second ${breach} (${why}); before then the target served at most ${best ?? 'no'} responses/s within it${at}`;
  const result: CapacityResult = { rps: best, sloP95Ms: slo.p95Ms, maxErrorPct: slo.maxErrorPct, firstBreachAt: breach, explanation };
  if (answers > 0 && refused / answers > ADMISSION_SHARE) admissionJudgement(result, { refused, answers, peakOffered }, keys);
  return result;
}
