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

/** Violations about how many requests a window admitted. */
const COUNT_RULES = new Set(['8.ratelimit.over-admission', '8.ratelimit.under-admission']);

/**
 * The fitted shapes of `current` for the violation, smallest first, each strictly smaller than `current`.
 * `limit` is the budget's announced limit (null when unknown): a count violation (over- or under-admission)
 * is shown by the first few budgets' worth of requests of its stretch, so the first L + 1, 2L + 2 and
 * 4L + 2 of them are shapes too (L + 1: a 429 too early; 2L + 2: more than two counters' worth inside one
 * window, the model-free bound's tolerance included; 4L + 2: across a window boundary). `admittedAt` are
 * the send times of the stretch's admitted requests in the attempt that showed it: over-admission is about
 * them alone, so they are a shape too. For the other rules (counters that disagree: Remaining rising between
 * replicas, one store for two budgets), the first 4, 8 and 16 requests of the class: every attempt starts a
 * window, and the disagreement shows in its first requests.
 */
export function fittedShapes(
  current: readonly Send[],
  v: RateLimitViolation,
  signature: ViolationSignature,
  limit: number | null = null,
  admittedAt: readonly number[] = [],
): Shape[] {
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
  const counted = signature.class === undefined ? stretch : stretch.filter((x) => x.class === signature.class);
  if (COUNT_RULES.has(v.rule) && admittedAt.length > 0) {
    // Over-admission counts admitted requests only: the refused ones of the stretch are dropped (with two
    // counters behind a round robin, the admitted ones alternate as before). Under-admission keeps the
    // first refusal after them.
    const inStretch = new Set(counted);
    const keep = new Set<number>();
    for (const t of admittedAt) if (dueBy(t) >= 0 && inStretch.has(current[dueBy(t)]!)) keep.add(dueBy(t));
    const under = v.rule === '8.ratelimit.under-admission';
    const admitted = current.filter((_x, i) => keep.has(i) || (under && picked.has(i)));
    add(admitted, `only the requests of the violation's stretch it admitted${under ? ', and the refusal it cites' : ''}`);
  }
  if (!COUNT_RULES.has(v.rule)) {
    // Counters disagreeing (Remaining rising between replicas, one store for two budgets) show in the first
    // requests of a window, and every attempt starts one (the budget is full): the first few of the class.
    const ofClass = signature.class === undefined ? current : current.filter((x) => x.class === signature.class);
    for (const n of [4, 8, 16]) add(ofClass.slice(0, n), `the first ${n} requests of the schedule's ${signature.class ?? 'all'} class`);
  }
  if (limit !== null && limit > 0 && COUNT_RULES.has(v.rule)) {
    for (const n of [limit + 1, 2 * limit + 2, 4 * limit + 2]) {
      add(counted.slice(0, n), `the first ${n} requests of the violation's stretch`);
    }
  }
  return shapes.sort((a, b) => a.schedule.length - b.schedule.length);
}
