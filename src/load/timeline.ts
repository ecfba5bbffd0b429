/**
 * The per-second timeline of a run and the capacity search over it. Responses are placed in the second
 * they completed, sends and drops in the second they were (meant to be) sent.
 */
import type { RouteClass, TimelinePoint } from '../results/schema.js';
import { familyOf } from './histograms.js';
import type { LoadRecorder } from './recorder.js';
import type { PlannedRoute } from './plan.js';
import { H_LIMIT, H_REMAINING, H_RESET } from './samples.js';

/** Whether a response counts against the `errors` rate: transport failures and 4xx/5xx other than 429. */
export function isError(status: number): boolean {
  return status === 0 || (status >= 400 && status !== 429);
}

function percentile(sorted: number[], p: number): number | null {
  if (!sorted.length) return null;
  const i = Math.min(sorted.length - 1, Math.max(0, Math.ceil((p / 100) * sorted.length) - 1));
  return Math.round(sorted[i]! * 1000) / 1000;
}

const intOrNull = (raw: string | undefined): number | null => (raw !== undefined && /^\d+$/.test(raw) ? Number(raw) : null);

/** Builds one point per second, from 0 to the last second anything happened in. */
export function buildTimeline(rec: LoadRecorder, routes: PlannedRoute[], corrected: boolean): Array<TimelinePoint & { errors: number }> {
  const buf = rec.buffer;
  let seconds = Math.max(rec.sentPerSecond.read.length, rec.sentPerSecond.write.length);
  for (let i = 0; i < buf.length; i++) seconds = Math.max(seconds, Math.floor(buf.received[i]! / 1000) + 1);
  for (const cls of ['read', 'write'] as const) for (const t of rec.dropped[cls]) seconds = Math.max(seconds, Math.floor(t / 1000) + 1);
  const points = Array.from({ length: seconds }, (_, t) => ({
    t,
    sent: (rec.sentPerSecond.read[t] ?? 0) + (rec.sentPerSecond.write[t] ?? 0),
    completed: 0,
    dropped: 0,
    errors: 0,
    byFamily: {} as Record<string, number>,
    p50: null as number | null,
    p95: null as number | null,
    p99: null as number | null,
    rateLimit: {} as TimelinePoint['rateLimit'],
    refused: { read: 0, write: 0 },
    lat: [] as number[],
    last: { read: -1, write: -1 } as Record<RouteClass, number>,
  }));
  for (let i = 0; i < buf.length; i++) {
    const p = points[Math.floor(buf.received[i]! / 1000)]!;
    const status = buf.status[i]!;
    const cls = routes[buf.route[i]!]!.class;
    p.completed++;
    if (isError(status)) p.errors++;
    const fam = familyOf(status) ?? 'error';
    p.byFamily[fam] = (p.byFamily[fam] ?? 0) + 1;
    if (status === 0) continue;
    if (status === 429) p.refused[cls]++;
    p.lat.push(corrected ? buf.correctedLatency(i) : buf.latency(i));
    if (p.last[cls] < 0 || buf.received[p.last[cls]]! <= buf.received[i]!) p.last[cls] = i;
  }
  for (const cls of ['read', 'write'] as const) for (const t of rec.dropped[cls]) points[Math.floor(t / 1000)]!.dropped++;
  return points.map(({ lat, last, ...p }) => {
    lat.sort((a, b) => a - b);
    for (const cls of ['read', 'write'] as const) {
      const i = last[cls];
      if (i >= 0) p.rateLimit[cls] = { limit: intOrNull(buf.header(i, H_LIMIT)), remaining: intOrNull(buf.header(i, H_REMAINING)), reset: intOrNull(buf.header(i, H_RESET)) };
    }
    return { ...p, p50: percentile(lat, 50), p95: percentile(lat, 95), p99: percentile(lat, 99) };
  });
}

export interface CapacityResult {
  /** Highest offered rate (sent + dropped per second) met before the SLO first broke; null if never met. */
  rps: number | null;
  sloP95Ms: number;
  maxErrorPct: number;
  /** Second in which the SLO first broke, or null when it held throughout. */
  firstBreachAt: number | null;
  explanation: string;
}

/** Finds the highest per-second rate still meeting the SLO, stopping at the first second that breaks it. */
export function findCapacity(points: Array<TimelinePoint & { errors: number }>, slo: { p95Ms: number; maxErrorPct: number }, lastFullSecond: number): CapacityResult {
  let best: number | null = null;
  let breach: number | null = null;
  let why = '';
  for (const p of points) {
    if (p.t >= lastFullSecond) break;
    const offered = p.sent + p.dropped;
    if (offered === 0) continue;
    const errPct = ((p.errors + p.dropped) / Math.max(1, p.completed + p.dropped)) * 100;
    const slow = p.p95 !== null && p.p95 > slo.p95Ms;
    if (slow || errPct > slo.maxErrorPct) {
      breach = p.t;
      why = slow ? `p95 ${p.p95}ms > ${slo.p95Ms}ms` : `errors ${errPct.toFixed(2)}% > ${slo.maxErrorPct}%`;
      break;
    }
    best = Math.max(best ?? 0, offered);
  }
  const explanation = breach === null
    ? `the SLO (p95 <= ${slo.p95Ms}ms, errors <= ${slo.maxErrorPct}%) held at every rate offered, up to ${best ?? 0} rps: capacity is at least that`
    : `the SLO broke at second ${breach} (${why}); the highest rate that met it before then was ${best ?? 'none'} rps`;
  return { rps: best, sloP95Ms: slo.p95Ms, maxErrorPct: slo.maxErrorPct, firstBreachAt: breach, explanation };
}
