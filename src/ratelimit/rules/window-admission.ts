/**
 * Per-window counting for fixed-window limiters: 8.ratelimit.over-admission (more admitted in a window
 * than the budget) and 8.ratelimit.under-admission (429s in a window that admitted less than the budget).
 * Windows are the refill-delimited segments; near their edges a request may belong to either window, so
 * over-admission counts only requests certainly inside, and under-admission every request possibly inside.
 * Over-admission is judged only once a refill showed the budget coming back faster than a token bucket's.
 */
import type { BudgetContext } from '../context.js';
import { admittedPossiblyBetween } from '../group.js';
import { responsesOf, type ParsedSample } from '../parsed.js';
import { fasterThanABucket } from '../model.js';
import { segmentSpan } from '../segments.js';
import type { ViolationSink } from '../sink.js';
import { classify, sharesBudget } from './claims.js';

/**
 * Reports windows that admitted more than the budget, or (with `judgeRefusals`) refused before the budget
 * was used: not when requests the run never saw spent the budget (unexplained-falls.ts).
 */
export function checkWindowAdmission(ctx: BudgetContext, sink: ViolationSink, judgeRefusals = true): void {
  const L = ctx.limit;
  if (ctx.model !== 'fixed-window' || L === null) return;
  const segs = ctx.segments;
  // A correct token bucket under traffic slower than its refill is full whenever it is looked at, and reads
  // as fixed windows; the token it gives back between two looks, counted in one of them, reads as one
  // admission too many (a bucket of Limit 4 with a request every half second: "5 admitted in one window").
  // So a window's admissions are judged against the budget only once some refill came faster than any
  // bucket refills: a limiter that gives its budget back at once, which is what counting per window assumes.
  let fast: boolean | undefined;
  const givesBackAtOnce = (): boolean =>
    (fast ??= ctx.boundWindowMs !== null && segs.some((seg) => fasterThanABucket(seg, ctx.announcedLimit ?? L, ctx.boundWindowMs!)));
  segs.forEach((seg, k) => {
    const next = segs[k + 1];
    const span = segmentSpan(seg);
    // A segment longer than the window means a refill went unseen: it is not one window.
    if (ctx.windowMs !== null && span.end - span.start > ctx.windowMs + 1000 + ctx.roundingSlackMs) return;
    // The responses that proved a refill belong to their side of it, unless another request overlapped
    // them (then an unseen second refill could sit between the two).
    // The trace may start mid-window: its first response plays the part of the refill evidence.
    const after = seg.evidence?.after ?? seg.samples[0]!;
    const startAt = k === 0 ? after.receivedAt : seg.hi;
    const before = next?.evidence?.before;
    const afterAlone = !seg.samples.some((c) => c !== after && c.sentAt < after.receivedAt && c.receivedAt > after.sentAt);
    const beforeAlone =
      before !== undefined && !seg.samples.some((c) => c !== before && c.sentAt < before.receivedAt && c.receivedAt > before.sentAt);
    const certainlyIn = (c: ParsedSample): boolean =>
      (c.sentAt >= startAt || (c === after && afterAlone)) && (!next || c.receivedAt <= next.lo || (c === before && beforeAlone));
    const admitted = seg.samples.filter((c) => c.admitted && certainlyIn(c));
    if (admitted.length > L && givesBackAtOnce()) {
      const over = admitted.slice(L);
      sink.add({
        rule: '8.ratelimit.over-admission',
        sample: over[0]!,
        related: over.slice(1),
        window: span,
        message: `${admitted.length} requests admitted in one window of a budget of ${L}`,
      });
    }
    if (!judgeRefusals) return;
    const refused = seg.samples.filter((c) => c.refused && certainlyIn(c));
    if (refused.length === 0) return;
    let maxRem = -1;
    for (const c of seg.samples) if (c.remaining !== null && c.remaining > maxRem) maxRem = c.remaining;
    if (maxRem < 0) return;
    // Measured against the announced Limit: Remaining counts down from it, whatever budget was stated.
    const spentBefore = Math.max(0, (ctx.announcedLimit ?? L) - 1 - maxRem);
    const possibly = admittedPossiblyBetween(ctx.group, k === 0 ? -Infinity : seg.lo, next ? next.hi : Infinity);
    if (possibly + spentBefore <= L - 2) {
      const others =
        ctx.other && sharesBudget(ctx, sink, refused[0]!)
          ? admittedPossiblyBetween(ctx.other, k === 0 ? -Infinity : seg.lo, next ? next.hi : Infinity)
          : 0;
      const shared = possibly + spentBefore + others > L - 2;
      sink.add({
        rule: classify(ctx, refused[0]!, shared ? others : 0),
        sample: refused[0]!,
        related: refused.slice(1),
        window: span,
        message: `${responsesOf(refused)} request(s) refused in a window that admitted at most ${possibly} of a budget of ${L}${shared ? `, while ${others} request(s) of the other class were admitted` : ''}`,
      });
    }
  });
}
