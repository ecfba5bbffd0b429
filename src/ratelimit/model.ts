/**
 * Window and model inference from the headers alone. Conservative by construction: a stream is only
 * called fixed-window when every refill restored (nearly) the whole budget and no two refills came closer
 * than the window, because fixed-window rules are stricter and must never fire on another model.
 */
import type { Model } from './context.js';
import { admittedPossiblyBetween, type Group } from './group.js';
import type { ParsedSample } from './parsed.js';
import type { Segment } from './segments.js';

/** The largest integer Reset seen (seconds), or null. */
export function maxReset(g: Group): number | null {
  let m: number | null = null;
  for (const s of g.bySent) if (s.reset !== null && (m === null || s.reset > m)) m = s.reset;
  return m;
}

/** Most frequent valid Limit (ties: the smaller), and whether it never changed. */
export function observedLimit(g: Group): { limit: number | null; constant: boolean } {
  const counts = new Map<number, number>();
  // Counted by runs of one value (Limit rarely changes): one map update per run, not per sample.
  let run: number | null = null;
  let n = 0;
  for (const s of g.bySent) {
    if (s.limit === null) continue;
    if (s.limit === run) {
      n++;
      continue;
    }
    if (run !== null) counts.set(run, (counts.get(run) ?? 0) + n);
    run = s.limit;
    n = 1;
  }
  if (run !== null) counts.set(run, (counts.get(run) ?? 0) + n);
  let best: number | null = null;
  let bestCount = 0;
  for (const [v, c] of [...counts].sort((a, b) => a[0] - b[0])) {
    if (c > bestCount) {
      best = v;
      bestCount = c;
    }
  }
  return { limit: best, constant: counts.size <= 1 };
}

/**
 * Rounding of Reset: a Reset of 0 while the budget is visibly not full means the limiter rounds down (or
 * to nearest), so its claims may be up to a second early.
 */
export function roundingSlack(g: Group, limit: number | null): number {
  for (const s of g.bySent) {
    if (s.reset === 0 && s.remaining !== null && (limit === null || s.remaining < limit - 1)) return 1000;
  }
  return 0;
}

/** True when the refill that opened the segment brought the budget back to (nearly) full. */
export function isFullRefill(g: Group, seg: Segment, limit: number): boolean {
  const ev = seg.evidence;
  if (!ev || ev.after.remaining === null) return true;
  const b: ParsedSample = ev.after;
  const countedFirst = admittedPossiblyBetween(g, seg.lo, b.receivedAt) - (b.admitted ? 1 : 0);
  return b.remaining! >= limit - 1 - Math.max(0, countedFirst);
}

/**
 * True when the refill that opened the segment gave back more than any token bucket could in the time it had:
 * a bucket refills at most `limit` per window, and no window is shorter than `boundWindowMs` (bounds.ts), so
 * between the lower answer (counted no earlier than it was sent) and the higher one (counted no later than it
 * was received) it returns at most limit × Δ / boundWindowMs, and one more for the fraction of a token it held.
 * A fixed window gives the whole budget back at its edge, however soon after it was spent.
 */
export function fasterThanABucket(seg: Segment, limit: number, boundWindowMs: number): boolean {
  const ev = seg.evidence;
  if (!ev || ev.after.remaining === null || ev.before.remaining === null) return false;
  // What came back at least: requests counted in between are left out, which only makes it less.
  const returned = ev.after.remaining + (ev.after.admitted ? 1 : 0) - ev.before.remaining;
  const elapsed = ev.after.receivedAt - ev.before.sentAt;
  return returned > (limit * elapsed) / boundWindowMs + 1;
}

/** Classifies the limiter behind one budget. `windowMs` is the expected or Reset-derived window. */
export function classifyModel(g: Group, segments: Segment[], limit: number | null, windowMs: number | null): Model {
  if (limit === null || segments.length < 2) return 'unknown';
  // With a budget of 2 or 3, one refilled token looks like a full refill: fixed windows cannot be told apart.
  const smallBudget = limit < 4;
  let partial = 0;
  for (const seg of segments.slice(1)) if (!isFullRefill(g, seg, limit)) partial += 1;
  if (partial === 0 && !smallBudget) {
    if (windowMs === null) return 'fixed-window';
    // Ceil rounding may overstate the window by up to a second.
    const minGap = windowMs - 1000 - 10;
    let ok = true;
    for (let k = 1; k + 1 < segments.length; k++) {
      if (segments[k + 1]!.hi - segments[k]!.lo < minGap) ok = false;
    }
    if (ok) return 'fixed-window';
  }
  if (windowMs === null) return 'unknown';
  // A token bucket refills continuously, so Reset tracks the deficit: ceil(deficit * window / limit).
  let fit = 0;
  let n = 0;
  for (const s of g.bySent) {
    if (s.reset === null || s.remaining === null || s.remaining < 0) continue;
    n += 1;
    const deficit = Math.max(0, limit - s.remaining);
    const predicted = (deficit * windowMs) / limit / 1000;
    if (s.reset >= Math.floor(predicted) - 1 && s.reset <= Math.ceil(predicted) + 1) fit += 1;
  }
  if (n > 0 && fit >= 0.9 * n) return 'token-bucket';
  return partial > 0 ? 'sliding-window' : 'unknown';
}

/**
 * True when Reset counts milliseconds rather than seconds: between consecutive ordered responses it
 * falls by about the milliseconds that passed (more than 2 per pair, for most such pairs). Several
 * counters make Reset jump too, but by their phase difference, which has nothing to do with the time
 * between two responses. A window read from such Reset values would be a thousand times too long.
 */
export function resetCountsMs(g: Group): boolean {
  let falls = 0;
  let msLike = 0;
  let last: ParsedSample | undefined;
  for (const s of g.bySent) {
    if (s.reset === null || (last && s.sentAt < last.receivedAt)) continue;
    if (last && last.reset! > s.reset) {
      const fall = last.reset! - s.reset;
      falls += 1;
      if (fall > 2 && fall >= s.sentAt - last.receivedAt - 2 && fall <= s.receivedAt - last.sentAt + 2) msLike += 1;
    }
    last = s;
  }
  return falls >= 3 && msLike * 2 >= falls;
}
