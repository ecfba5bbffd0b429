/**
 * 8.ratelimit.over-admission, model-free: in no interval of length T may more be admitted than any
 * legitimate limiter of the budget allows, L × (⌈T/W⌉ + 1) (bounds.ts). Judged on every run whatever model
 * the classifier inferred, so over-admission is caught for sliding, token-bucket and unknown limiters too
 * (a stuck counter that admits everything, refills twice as often as announced, two stores behind one
 * port). Only admissions certainly inside an interval count, so concurrency never makes a violation.
 */
import type { BudgetContext } from '../context.js';
import { BOUND_TOLERANCE, densestInterval, intervalLengths, legitimateMax, samplesInside } from '../bounds.js';
import type { ParsedSample } from '../parsed.js';
import type { ViolationSink } from '../sink.js';
import { fmt } from './claims.js';

/** Reports the interval whose admissions exceed the model-free bound by the largest factor. */
export function checkAdmissionBound(ctx: BudgetContext, sink: ViolationSink): boolean {
  const L = ctx.limit;
  const W = ctx.boundWindowMs;
  if (L === null || L <= 0 || W === null) return false;
  const g = ctx.group;
  // No interval can hold more than L admissions when the budget admitted no more in all (a generous
  // budget at any rate): the filtered copies below are made only when one could.
  let admitted = 0;
  for (const s of g.bySent) if (s.admitted) admitted++;
  if (admitted <= L) return false;
  const bySent = g.bySent.filter((s) => s.admitted);
  const byReceived = g.byReceived.filter((s) => s.admitted);
  const span = byReceived[byReceived.length - 1]!.receivedAt - bySent[0]!.sentAt;
  let worst: { count: number; start: number; T: number; bound: number } | undefined;
  for (const T of intervalLengths(W, span)) {
    const bound = legitimateMax(L, W, T) + BOUND_TOLERANCE;
    const d = densestInterval(bySent, byReceived, T);
    if (d.count <= bound) continue;
    if (!worst || d.count / bound > worst.count / worst.bound) worst = { ...d, T, bound };
  }
  if (!worst) return false;
  const inside = samplesInside(bySent, worst.start, worst.T);
  const over: ParsedSample[] = inside.slice(worst.bound);
  const first = inside[0]!;
  const last = inside[inside.length - 1]!;
  sink.add({
    rule: '8.ratelimit.over-admission',
    sample: over[0] ?? last,
    related: [first, ...over.slice(1, 3), last],
    window: { start: worst.start, end: worst.start + worst.T },
    bucket: 'model-free',
    message:
      `${worst.count} requests admitted within ${fmt(worst.T)} (${fmt(first.sentAt)} – ${fmt(last.receivedAt)}); ` +
      `no limiter of ${L} per ${fmt(W)} (fixed, sliding or token bucket) admits more than ${worst.bound - BOUND_TOLERANCE} in that time`,
  });
  return true;
}
