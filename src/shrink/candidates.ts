/**
 * The search strategy of `spgate shrink`, apart from any I/O: a generator that proposes smaller schedules
 * and is told whether each one still reproduced (then it becomes the current schedule). First the shapes
 * that fit the violation, from the requests the analyzer cites (fitted.ts): the cited requests alone, the
 * counts above an over-admission's bound, the stretch with the window before it, the violation's class
 * inside its stretch, the stretch. Then the generic steps, cheapest and largest first: cut the schedule
 * after the violation, start it one window before the violation (each only when it takes away enough to
 * be worth its attempts), drop the class the violation is not about, one key role, one route per class,
 * then delta debugging (drop one of n equal chunks, n doubling up to MAX_CHUNKS), then merge long gaps.
 * Every proposal is strictly smaller (fewer sends, or as many over a shorter span, or fewer keys/routes)
 * and none is proposed twice.
 */
import type { RateLimitViolation } from '../results/schema.js';
import { rebase, scheduleKey, spanMs, type Send } from './schedule.js';
import type { ViolationSignature } from './signature.js';
import { fittedShapes, type AttemptSend } from './fitted.js';
import { ROUTE_CLASSES } from '../spec/routes.js';

/** Delta debugging stops at this many chunks: finer cuts cost an attempt each and rarely matter to a limiter. */
export const MAX_CHUNKS = 8;

export interface Candidate {
  schedule: Send[];
  /** What the step did, for the progress lines and the report. */
  step: string;
}

export interface ShrinkHint {
  /** The violation as the latest reproducing attempt showed it (times on the schedule's clock). */
  violation: RateLimitViolation | undefined;
  /** The analyzer's window for the violation's budget, ms (null when unknown). */
  windowMs: number | null;
  /**
   * The latest reproducing attempt of the current schedule, send by send (index i is send i): when it
   * went out (the violation's clock), its status and how long its answer took. Absent when the attempt
   * skipped a send.
   */
  attempt?: ReadonlyArray<AttemptSend> | undefined;
  /** The Limit the violation's budget announces (null when unknown). */
  limit?: number | null;
}

/** Strictly smaller: fewer sends; as many over a shorter span; or as many, as long, with fewer keys or routes. */
export function isSmaller(a: readonly Send[], b: readonly Send[]): boolean {
  if (a.length !== b.length) return a.length < b.length;
  if (spanMs(a) !== spanMs(b)) return spanMs(a) < spanMs(b);
  return distinct(a) < distinct(b);
}

function distinct(s: readonly Send[]): number {
  return new Set(s.map((x) => `${x.key ?? ''} ${x.method} ${x.path}`)).size;
}

/**
 * Proposes candidates from `initial`; `hint()` is read before each step (it follows the current schedule).
 * Send the generator `true` when the last candidate reproduced (it becomes current), `false` otherwise.
 */
export function* shrinkCandidates(
  initial: readonly Send[],
  signature: ViolationSignature,
  hint: () => ShrinkHint,
): Generator<Candidate, Send[], boolean | undefined> {
  let current = rebase(initial);
  const tried = new Set<string>([scheduleKey(current)]);
  // The fewest sends that can still show it, once a kept fitted shape tells (a count just above the bound
  // over that shape's span): a candidate with fewer over as long a span is known not to reproduce and is
  // not proposed. Over a shorter span the bound is lower (no limiter admits more in less time), so fewer may
  // still exceed it: a cut at either end of a kept count at the recorded pace (142 over 3.4 s of a limit
  // of 20 per 1 s; the first 71 over 1.7 s still exceed it).
  let fewest = { sends: 0, spanMs: 0 };
  // Yields the candidate if new and smaller; returns whether it was accepted.
  function* propose(schedule: Send[], step: string): Generator<Candidate, boolean, boolean | undefined> {
    const s = rebase(schedule);
    if (s.length === 0 || (s.length < fewest.sends && spanMs(s) >= fewest.spanMs) || !isSmaller(s, current)) return false;
    const k = scheduleKey(s);
    if (tried.has(k)) return false;
    tried.add(k);
    const ok = (yield { schedule: s, step }) === true;
    if (ok) current = s;
    return ok;
  }

  // 0. Shapes that fit the violation, in fitted.ts's order; each tried from the current schedule.
  const h0 = hint();
  if (h0.violation) {
    for (const shape of fittedShapes(current, h0.violation, signature, h0.attempt, h0.limit ?? null, h0.windowMs))
      if (yield* propose(shape.schedule, shape.step))
        fewest = shape.spare !== undefined ? { sends: current.length - shape.spare, spanMs: spanMs(current) } : { sends: 0, spanMs: 0 };
  }
  // 1. Nothing after the violation's last cited response matters to it.
  const h1 = hint();
  const cited = h1.violation?.samples.map((x) => x.t) ?? [];
  if (cited.length > 0) {
    const last = Math.max(...cited);
    const cut = current.filter((x) => x.t <= last + 0.001);
    if (worthACut(cut, current)) yield* propose(cut, 'cut after the violation');
  }
  // 2. Start one window before the violation, then at its window (the budget is full at every attempt's start).
  const h2 = hint();
  const v2 = h2.violation;
  if (v2) {
    const first = Math.min(...v2.samples.map((x) => x.t), v2.window?.start ?? Infinity);
    const W = h2.windowMs ?? 1000;
    for (const from of [first - 2 * W, first - W, v2.window?.start ?? first, first]) {
      const cut = current.filter((x) => x.t >= from - 0.001);
      // The violation's window may start after a cited request (an early 429 cites the answer of the window before).
      const step = from > first ? "start at the violation's window" : `start ${((first - from) / 1000).toFixed(1)} s before the violation`;
      if (worthACut(cut, current) && (yield* propose(cut, step))) break;
    }
  }
  // 3. The other class, when the violation is about one.
  if (signature.class !== undefined)
    yield* propose(
      current.filter((x) => x.class === signature.class),
      `only ${signature.class} requests`,
    );
  // 4. One key role; one route per class.
  const keys = [...new Set(current.map((x) => x.key))];
  if (keys.length > 1) {
    const key = signature.key ?? mostFrequent(current.map((x) => x.key ?? ''));
    yield* propose(
      current.map((x) => withKey(x, key)),
      `one key role (${key || 'none'})`,
    );
  }
  for (const cls of ROUTE_CLASSES) {
    const routes = current.filter((x) => x.class === cls).map((x) => `${x.method} ${x.path}`);
    if (new Set(routes).size < 2) continue;
    const top = mostFrequent(routes);
    const [method, path] = [top.slice(0, top.indexOf(' ')), top.slice(top.indexOf(' ') + 1)];
    yield* propose(
      current.map((x) => (x.class === cls ? { ...x, method, path } : x)),
      `one ${cls} route (${top})`,
    );
  }
  // 5. Delta debugging: drop one of n chunks; after a success retry at n − 1, else double n.
  let n = 2;
  while (current.length >= 2 && n <= Math.min(MAX_CHUNKS, current.length)) {
    let removed = false;
    const size = Math.ceil(current.length / n);
    for (let i = 0; i < n && !removed; i++) {
      const from = i * size;
      if (from >= current.length) break;
      const kept = [...current.slice(0, from), ...current.slice(from + size)];
      removed = yield* propose(kept, `drop requests ${from + 1}–${Math.min(current.length, from + size)} of ${current.length}`);
    }
    n = removed ? Math.max(2, n - 1) : n * 2;
  }
  // 6. Merge long gaps: idle time longer than half a window becomes half a window.
  const W = hint().windowMs ?? 1000;
  const gap = W / 2;
  const merged: Send[] = [];
  let shift = 0;
  current.forEach((x, i) => {
    if (i > 0) shift += Math.max(0, x.t - current[i - 1]!.t - gap);
    merged.push({ ...x, t: x.t - shift });
  });
  yield* propose(merged, `gaps longer than ${gap} ms merged`);
  return current;
}

/**
 * Whether a cut of the schedule's ends takes away enough to be worth its attempts: at least delta
 * debugging's finest chunk (1/MAX_CHUNKS) of the sends or of the span. A smaller one is left to delta
 * debugging, which tries it among larger cuts: judged on its own, a cut of 2 sends from 160 cost four
 * attempts of the whole schedule (23 s of a per-replica search) and gained nothing.
 */
export function worthACut(cut: readonly Send[], current: readonly Send[]): boolean {
  const fewer = current.length - cut.length;
  const shorter = spanMs(current) - spanMs(cut);
  return fewer * MAX_CHUNKS >= current.length || shorter * MAX_CHUNKS >= spanMs(current);
}

function withKey(x: Send, key: string): Send {
  const { key: _old, ...rest } = x;
  return key === '' ? rest : { ...rest, key };
}

function mostFrequent(xs: readonly string[]): string {
  const counts = new Map<string, number>();
  for (const x of xs) counts.set(x, (counts.get(x) ?? 0) + 1);
  let best = xs[0] ?? '';
  for (const [x, c] of counts) if (c > (counts.get(best) ?? 0)) best = x;
  return best;
}
