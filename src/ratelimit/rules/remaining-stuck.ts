/**
 * 8.ratelimit.remaining-decreases, model-free: Remaining stuck while admissions go on. Between two
 * responses a and b of an ordered chain, one counter's Remaining changes by what came back minus what was
 * admitted in between, so what came back is at least Remaining(b) − Remaining(a) + the admissions counted
 * certainly in between. No limiter gives back more than L × (⌈T/W⌉ + 1) within T (bounds.ts). A token
 * bucket drained exactly at its refill rate keeps Remaining flat legitimately; that stays within the bound,
 * and only a counter that ignores the admissions breaks it.
 */
import type { BudgetContext } from '../context.js';
import { BOUND_TOLERANCE, intervalLengths, legitimateMax } from '../bounds.js';
import { orderedChain } from '../chain.js';
import { countAtMost, countBelow } from '../group.js';
import type { ViolationSink } from '../sink.js';
import { fmt } from './claims.js';

/** Reports two responses whose Remaining fell far less than the admissions between them allow. */
export function checkRemainingStuck(ctx: BudgetContext, sink: ViolationSink): boolean {
  const L = ctx.announcedLimit ?? ctx.limit;
  const W = ctx.boundWindowMs;
  if (L === null || L <= 0 || W === null) return false;
  const g = ctx.group;
  const chain = orderedChain(g);
  if (chain.length < 2) return false;
  const span = chain[chain.length - 1]!.receivedAt - chain[0]!.sentAt;
  // zeros[i]: responses reporting Remaining 0 among chain[0..i). A counter that reached 0 in between does
  // not ignore admissions; admitting past it is over-admission (the admission bound's finding).
  const zeros = [0];
  for (const s of chain) zeros.push(zeros[zeros.length - 1]! + (s.remaining === 0 ? 1 : 0));
  let worst: { a: number; b: number; between: number; back: number; bound: number; T: number } | undefined;
  for (const T of intervalLengths(W, span)) {
    const bound = legitimateMax(L, W, T) + BOUND_TOLERANCE;
    let j = 0;
    for (let i = 0; i < chain.length; i++) {
      const a = chain[i]!;
      while (j + 1 < chain.length && chain[j + 1]!.receivedAt - a.sentAt <= T) j++;
      if (j <= i) continue;
      const b = chain[j]!;
      if (zeros[j + 1]! - zeros[i]! > 0) continue;
      // Certainly counted between a and b: sent after a was answered and answered before b was sent
      // (requests in flight across the whole stretch are left out: an undercount, never an overcount).
      const between = Math.max(0, countAtMost(g.admittedReceived, b.sentAt) - countBelow(g.admittedSent, a.receivedAt));
      const back = b.remaining! - a.remaining! + between;
      if (back > bound && (!worst || back / bound > worst.back / worst.bound)) worst = { a: i, b: j, between, back, bound, T };
    }
  }
  if (!worst) return false;
  const a = chain[worst.a]!;
  const b = chain[worst.b]!;
  sink.add({
    rule: '8.ratelimit.remaining-decreases',
    sample: b,
    related: [a],
    window: { start: a.sentAt, end: b.receivedAt },
    bucket: 'model-free',
    message:
      `RateLimit-Remaining went from ${a.remaining} to ${b.remaining} within ${fmt(b.receivedAt - a.sentAt)} while at least ${worst.between} request(s) were admitted in between; ` +
      `that needs ${worst.back} to come back, and no refill of a budget of ${L} per ${fmt(W)} gives back more than ${worst.bound - BOUND_TOLERANCE}`,
  });
  return true;
}
