/**
 * RateLimit-Remaining per class in small time buckets (lowest and highest value, 429 count), so the report
 * can draw each window's drain and refill; the per-second timeline is too coarse for 1–5 s windows.
 */
import type { ProfileResult, RouteClass } from '../results/schema.js';
import type { LoadRecorder } from './recorder.js';
import type { PlannedRoute } from './plan.js';
import { H_REMAINING } from './samples.js';

type Series = NonNullable<ProfileResult['rateLimitSeries']>;
type Bucket = [number, number | null, number | null, number];

/** At most this many buckets per class, whatever the run length (keeps results.json small). */
const MAX_BUCKETS = 1500;

/** Builds the series from every recorded response; buckets are 100 ms or coarser for long runs. */
export function buildRateLimitSeries(rec: LoadRecorder, routes: PlannedRoute[], durationMs: number): Series {
  const buf = rec.buffer;
  const bucketMs = Math.max(100, Math.ceil(durationMs / MAX_BUCKETS / 100) * 100);
  const byClass: Record<RouteClass, Map<number, Bucket>> = { read: new Map(), write: new Map() };
  for (let i = 0; i < buf.length; i++) {
    const status = buf.status[i]!;
    if (status === 0) continue;
    const cls = routes[buf.route[i]!]!.class;
    const start = Math.floor(buf.received[i]! / bucketMs) * bucketMs;
    let b = byClass[cls].get(start);
    if (!b) byClass[cls].set(start, (b = [start, null, null, 0]));
    if (status === 429) b[3]++;
    const raw = buf.header(i, H_REMAINING);
    if (raw === undefined || !/^\d+$/.test(raw)) continue;
    const v = Number(raw);
    b[1] = b[1] === null ? v : Math.min(b[1], v);
    b[2] = b[2] === null ? v : Math.max(b[2], v);
  }
  const sorted = (m: Map<number, Bucket>): Bucket[] => [...m.values()].sort((a, b) => a[0] - b[0]);
  return { bucketMs, read: sorted(byClass.read), write: sorted(byClass.write) };
}
