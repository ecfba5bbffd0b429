/**
 * Candidate shapes that fit the violation, tried before any generic cutting. The analyzer cites the
 * responses that show a violation and the stretch it happened in (for over-admission the stretch in which
 * more was admitted than any limiter of that budget admits; for a rise, the pair). A limiter bug is nearly
 * always shown by a handful of requests inside that stretch: several counters each admitting their own
 * budget, Remaining jumping between counters, an early 429 in a full window. So the shapes are, smallest
 * first: the cited requests alone; for over-admission, the smallest count above the bound (one more than
 * twice the Limit sent at once; the interval's admitted requests up to the first one over the bound, then
 * up to each later cited one, then all of them: the refused ones in between show nothing); for an early
 * 429, the window's admissions up to it close together, with one request a window later; then the
 * stretch with the window before it (before the one-window shapes, so that one kept after it has it to
 * back off to), the violation's class inside its stretch, the whole stretch. Times keep their offsets
 * (each attempt starts from a full budget), but for the burst and the early 429's window. Pure.
 */
import type { RateLimitViolation } from '../results/schema.js';
import type { Send } from './schedule.js';
import type { ViolationSignature } from './signature.js';
import { BOUND_TOLERANCE } from '../ratelimit/bounds.js';

/** One send of the latest reproducing attempt: when it went out (the violation's clock), its status, its answer's time. */
export interface AttemptSend {
  t: number;
  status: number;
  latency?: number;
}

export interface Shape {
  schedule: Send[];
  step: string;
  /**
   * At most this many of its sends can go before what the violation counts falls under its bound (a count
   * just above the bound), or before it reproduces at fewer phases of the limiter's windows (the early
   * 429's one more): a cut of more is not tried.
   */
  spare?: number;
}

const EPS = 0.001;

/**
 * The fitted shapes of `current` for the violation, each strictly smaller than `current`: the cited
 * requests and the counts above the bound, smallest first; then the stretch with the window before it
 * (`windowMs`, the analyzer's window), the violation's class in its stretch, the stretch. `attempt` is the
 * latest reproducing attempt of `current`, send by send (candidates.ts ShrinkHint).
 */
export function fittedShapes(
  current: readonly Send[],
  v: RateLimitViolation,
  signature: ViolationSignature,
  attempt?: ReadonlyArray<AttemptSend>,
  limit: number | null = null,
  windowMs: number | null = null,
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
  const add = (schedule: Send[], step: string, spare?: number): void => {
    if (schedule.length === 0 || schedule.length >= current.length) return;
    if (shapes.some((s) => s.schedule.length === schedule.length)) return;
    shapes.push({ schedule, step, ...(spare !== undefined ? { spare } : {}) });
  };
  // An attempt's sends go out at or after their offsets, never before: a cited response's request is the
  // latest send due at or before the time it went out.
  const picked = new Set<number>();
  for (const t of cited) if (dueBy(t) >= 0) picked.add(dueBy(t));
  const citedOnly = current.filter((_x, i) => picked.has(i));
  add(citedOnly, `only the ${citedOnly.length} requests the violation cites`);
  for (const shape of admittedInInterval(current, v, attempt, limit, windowMs)) add(shape.schedule, shape.step, shape.spare);
  const early = earlyRefusal(current, v, attempt, limit, windowMs);
  if (early) add(early.schedule, early.step, early.spare);
  const counted = shapes.length;
  // The stretch with the window before it, then the stretch: a window's worth of requests shows a bug of
  // windows aligned to the clock only at the phases where the limiter's window falls as it did in the trace
  // (the reference server's early 429: a one-window schedule kept on four lucky attempts failed the final
  // measurement and left only the original to back off to); two windows' worth holds a whole window at
  // every phase, so it is kept first and is what the final measurement backs off to.
  if (windowMs !== null && windowMs > 0)
    add(current.slice(Math.max(0, dueBy(from - windowMs)), dueBy(to) + 1), "the violation's stretch and the window before it");
  if (signature.class !== undefined)
    add(
      stretch.filter((x) => x.class === signature.class),
      `only the ${signature.class} requests of the violation's stretch`,
    );
  add(stretch, "only the violation's stretch");
  // The cited requests and the counts, smallest first; the stretch shapes after them, in the order above.
  return [...shapes.slice(0, counted).sort((a, b) => a.schedule.length - b.schedule.length), ...shapes.slice(counted)];
}

/**
 * An early 429 (under-admission: refused in a fixed window that admitted less than its budget) is shown by
 * the window's admissions up to it, from a full budget, all inside one window: the first request alone,
 * then the others and the refused one at once as soon as its answer is in (the analyzer counts a request in
 * the trace's first window only when sent after the first answer arrived), then one request a window later,
 * whose refill shows the windows. At the recorded pace, the window's requests fall into one of the
 * limiter's windows only at some phases of its clock; close together they do at nearly every phase, and
 * with one request more than the window admitted, at every phase. As many as the budget at once is what
 * any limiter admits from full, so a correct one shows nothing.
 */
function earlyRefusal(
  current: readonly Send[],
  v: RateLimitViolation,
  attempt: ReadonlyArray<AttemptSend> | undefined,
  limit: number | null,
  windowMs: number | null,
): Shape | undefined {
  if (v.rule !== '8.ratelimit.under-admission' || !v.window || !attempt || attempt.length !== current.length) return undefined;
  const cited = v.samples.filter((s) => s.status === 429);
  if (windowMs === null || windowMs <= 0 || cited.length === 0) return undefined;
  // The first cited refusal (a rule may cite the admitted response that reported budget left, too).
  const refusedAt = Math.min(...cited.map((s) => s.t));
  const inWindow = (i: number): boolean =>
    current[i]!.class === v.class && attempt[i]!.t >= v.window!.start - EPS && attempt[i]!.t <= refusedAt + EPS && attempt[i]!.status > 0;
  const admitted: number[] = [];
  let refused = -1;
  for (let i = 0; i < current.length; i++) {
    if (!inWindow(i)) continue;
    if (attempt[i]!.status === 429) {
      refused = i;
      break;
    }
    admitted.push(i);
  }
  // More than the budget at once is refused by a correct limiter too.
  if (refused < 0 || admitted.length === 0 || (limit !== null && admitted.length + 1 > limit)) return undefined;
  const t0 = current[admitted[0]!]!.t;
  const at = (i: number, t: number): Send => ({ ...current[i]!, t });
  // One request more than the window admitted, where the known budget allows it (a correct limiter admits
  // the window's requests from full): a window's end between the first and the rest (gap/W of the phases: the
  // reference server's early 429 missed 4 attempts in 30 at 200 ms of 2 s windows) then leaves the rest more
  // than the limiter admits, refused in a window of their own; it missed none. A cut of it would reproduce
  // at fewer phases, which a sequential test cannot tell from all: `spare` 0 keeps it.
  const withMore = limit !== null && admitted.length + 2 <= limit;
  // The rest go once the first answer is in: the analyzer holds the 429 against that answer's Remaining only
  // when it was read before the rest went out. With one more, where the window ends no longer matters, so the
  // rest wait a quarter of the window: a client stalled past the gap (its due timers run before it reads the
  // answer that arrived meanwhile) or a slow first answer then misses the attempt only past a quarter of a
  // window (CI: at 50 ms, the 19-request shape missed one attempt in five on the 2-core machine under the whole
  // suite, and the search fell back to a shape twice its size). Without one more, the gap is four times the
  // slowest answer of the window and at least 50 ms, at most a quarter of the window, beyond which the first
  // and the rest are too often in different windows.
  const slowest = (): number => Math.max(0, ...[...admitted, refused].map((i) => attempt[i]!.latency ?? 0));
  const gap = withMore ? windowMs / 4 : Math.min(Math.max(50, 4 * slowest()), windowMs / 4);
  const more = withMore ? [at(refused, t0 + gap)] : [];
  const schedule = [
    at(admitted[0]!, t0),
    ...admitted.slice(1).map((i) => at(i, t0 + gap)),
    at(refused, t0 + gap),
    ...more,
    at(refused, t0 + gap + windowMs + 50),
  ];
  return {
    schedule,
    step: `the early 429 and the ${admitted.length} admissions before it in one window, close together${
      more.length ? ', with one more' : ''
    }, and one request a window later`,
    spare: 0,
  };
}

/**
 * Over-admission is shown by the admissions inside its interval alone: more than any legitimate limiter
 * admits there. The analyzer cites the first admission over the bound and a few after it (and the
 * interval's first: rules/admission-bound.ts, rules/window-admission.ts), so the admitted requests from
 * the interval's start up to each cited one are counts just above the bound, the smallest first; then
 * every admission of the interval. Refused requests in between are dropped (a limiter that counts them
 * admits no less without them).
 */
function admittedInInterval(
  current: readonly Send[],
  v: RateLimitViolation,
  attempt: ReadonlyArray<AttemptSend> | undefined,
  limit: number | null,
  windowMs: number | null = null,
): Shape[] {
  if (v.rule !== '8.ratelimit.over-admission' || !v.window || !attempt || attempt.length !== current.length) return [];
  const { start, end } = v.window;
  const admitted = (i: number): boolean => attempt[i]!.status > 0 && attempt[i]!.status !== 429;
  // An admission after refused ones came after a refill, and at the recorded pace within one request period of
  // it: replayed, a first request answered a little late (a new connection, a loaded machine) starts a window
  // that much later, and the admission lands before its refill, refused (CI: @fastify/rate-limit per replica,
  // the 62 admitted requests of 3 s windows reproduced 0/1 and 3/5 where they had 10/10). So from each such
  // admission on, the sends go a tenth of the window later (at most 250 ms): a margin past the refill that
  // lengthens the interval far less than a window.
  const margin = windowMs !== null && windowMs > 0 ? Math.min(windowMs / 10, 250) : 0;
  const upTo = (t: number): Send[] => {
    const out: Send[] = [];
    let shift = 0;
    let refusedSince = false;
    for (let i = 0; i < current.length; i++) {
      const x = current[i]!;
      if (x.class !== v.class || attempt[i]!.t < start - EPS || attempt[i]!.t > t + EPS || attempt[i]!.status <= 0) continue;
      if (!admitted(i)) {
        refusedSince = out.length > 0;
        continue;
      }
      if (refusedSince) shift += margin;
      refusedSince = false;
      out.push(shift > 0 ? { ...x, t: x.t + shift } : x);
    }
    return out;
  };
  const cited = v.samples.map((s) => s.t).sort((a, b) => a - b);
  const all = upTo(end);
  const out: Shape[] = [];
  // The k-th cited response (from 0) is at most k admissions past the first one over the bound.
  cited.forEach((t, k) => {
    const s = upTo(t);
    if (s.length >= 2 && s.length < all.length)
      out.push({
        schedule: s,
        step: `the ${s.length} admitted requests of the over-admission's interval up to its cited response ${k + 1}`,
        spare: k,
      });
  });
  out.push({ schedule: all, step: `the ${all.length} admitted requests of the over-admission's interval` });
  // At one moment no limiter admits more than twice its Limit (a window's worth just before a refill and
  // one just after, bounds.ts): one more than the bound at once shows it with the fewest requests, though
  // the recorded pace never sent that many so close together.
  const burst = limit !== null && limit > 0 ? 2 * limit + BOUND_TOLERANCE + 1 : Infinity;
  if (all.length >= burst) {
    const t0 = all[0]!.t;
    out.push({
      schedule: all.slice(0, burst).map((x) => ({ ...x, t: t0 })),
      step: `the first ${burst} admitted requests of the over-admission's interval, sent at once (twice the Limit and more)`,
      spare: 0,
    });
  }
  return out;
}
