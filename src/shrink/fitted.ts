/**
 * Candidate shapes that fit the violation, tried before any generic cutting. The analyzer cites the
 * responses that show a violation and the stretch it happened in (for over-admission the stretch in which
 * more was admitted than any limiter of that budget admits; for a rise, the pair). A limiter bug is nearly
 * always shown by a handful of requests inside that stretch: several counters each admitting their own
 * budget, Remaining jumping between counters, an early 429 in a full window. So the shapes are, smallest
 * first: the cited requests alone; the violation's class inside its stretch; the whole stretch. Times keep
 * their offsets (each attempt starts from a full budget). Pure.
 */
import type { RateLimitViolation } from '../results/schema.js';
import type { Send } from './schedule.js';
import type { ViolationSignature } from './signature.js';

export interface Shape {
  schedule: Send[];
  step: string;
}

const EPS = 0.001;

/** The fitted shapes of `current` for the violation, smallest first, each strictly smaller than `current`. */
export function fittedShapes(current: readonly Send[], v: RateLimitViolation, signature: ViolationSignature): Shape[] {
  const cited = v.samples.map((s) => s.t);
  if (cited.length === 0) return [];
  const from = Math.min(v.window?.start ?? Infinity, ...cited);
  const to = Math.max(v.window?.end ?? -Infinity, ...cited);
  const dueBy = (t: number): number => {
    let i = -1;
    for (let j = 0; j < current.length && current[j]!.t <= t + EPS; j++) i = j;
    return i;
  };
  const stretch = current.slice(Math.max(0, dueBy(from)), dueBy(to) + 1);
  const shapes: Shape[] = [];
  const add = (schedule: Send[], step: string): void => {
    if (schedule.length === 0 || schedule.length >= current.length) return;
    if (shapes.some((s) => s.schedule.length === schedule.length)) return;
    shapes.push({ schedule, step });
  };
  // An attempt's sends go out at or after their offsets, never before: a cited response's request is the
  // latest send due at or before the time it went out.
  const picked = new Set<number>();
  for (const t of cited) if (dueBy(t) >= 0) picked.add(dueBy(t));
  const citedOnly = current.filter((_x, i) => picked.has(i));
  add(citedOnly, `only the ${citedOnly.length} requests the violation cites`);
  if (signature.class !== undefined)
    add(
      stretch.filter((x) => x.class === signature.class),
      `only the ${signature.class} requests of the violation's stretch`,
    );
  add(stretch, "only the violation's stretch");
  return shapes.sort((a, b) => a.schedule.length - b.schedule.length);
}
