/**
 * RateLimit-Remaining per class in small time buckets (lowest and highest value, 429 count), so the report
 * can draw each window's drain and refill; the per-second timeline is too coarse for 1–5 s windows. Built
 * online in 100 ms buckets (ten a second: O(duration), not O(requests)) and coarsened at the end so a
 * long run still has at most MAX_BUCKETS per class; coarser buckets are multiples of 100 ms, so the
 * coarsening gives exactly what bucketing the responses directly would.
 */
import type { ProfileResult, RouteClass } from '../results/schema.js';
import { plainInt } from '../ratelimit/parsed.js';

type Series = NonNullable<ProfileResult['rateLimitSeries']>;
type Bucket = [number, number | null, number | null, number];

/** At most this many buckets per class, whatever the run length (keeps results.json small). */
const MAX_BUCKETS = 1500;
const FINE_MS = 100;

/** Folds responses into fine buckets as they arrive. */
export class RateLimitSeriesBuilder {
  private readonly fine: Record<RouteClass, Array<Bucket | undefined>> = { read: [], write: [] };

  /** Adds one response (transport failures carry no headers and are left out by the caller). */
  add(cls: RouteClass, received: number, status: number, remaining: string | undefined): void {
    const k = Math.max(0, Math.floor(received / FINE_MS));
    const arr = this.fine[cls];
    while (arr.length <= k) arr.push(undefined);
    let b = arr[k];
    if (!b) arr[k] = b = [k * FINE_MS, null, null, 0];
    if (status === 429) b[3]++;
    if (remaining === undefined) return;
    // plainInt covers the usual 1–15 digits; longer digit runs take the general test.
    let v = plainInt(remaining);
    if (v < 0) {
      if (!/^\d+$/.test(remaining)) return;
      v = Number(remaining);
    }
    b[1] = b[1] === null ? v : Math.min(b[1], v);
    b[2] = b[2] === null ? v : Math.max(b[2], v);
  }

  /** The series for a run of `durationMs`: buckets of 100 ms, or coarser for long runs. */
  build(durationMs: number): Series {
    const bucketMs = Math.max(FINE_MS, Math.ceil(durationMs / MAX_BUCKETS / FINE_MS) * FINE_MS);
    const coarsen = (arr: Array<Bucket | undefined>): Bucket[] => {
      const out: Bucket[] = [];
      for (const b of arr) {
        if (!b) continue;
        const start = Math.floor(b[0] / bucketMs) * bucketMs;
        const last = out[out.length - 1];
        if (!last || last[0] !== start) {
          out.push([start, b[1], b[2], b[3]]);
          continue;
        }
        last[3] += b[3];
        if (b[1] !== null) last[1] = last[1] === null ? b[1] : Math.min(last[1], b[1]);
        if (b[2] !== null) last[2] = last[2] === null ? b[2] : Math.max(last[2], b[2]);
      }
      return out;
    };
    return { bucketMs, read: coarsen(this.fine.read), write: coarsen(this.fine.write) };
  }
}
