/**
 * 8.ratelimit.remaining-rises: Remaining rises only as budget comes back, and no limiter gives back more
 * than it could have admitted: L × (⌈T/W⌉ + 1) within any T (bounds.ts), whether it refills a whole
 * window at once, a token at a time or entry by entry (sliding log). Along an ordered chain every rise is
 * budget that came back between two counting moments, and those moments do not overlap, so the rises add
 * up. Several counters answering for one budget (two in-memory stores behind one port) make Remaining
 * jump between their sequences, and the rises add up to far more than any refill.
 */
import type { BudgetContext } from '../context.js';
import { BOUND_TOLERANCE, intervalLengths, legitimateMax } from '../bounds.js';
import { orderedChain, risesAlong } from '../chain.js';
import type { ParsedSample } from '../parsed.js';
import type { UnexplainedFalls } from '../unexplained-falls.js';
import type { ViolationSink } from '../sink.js';
import { fmt } from './claims.js';

interface Rise {
  from: ParsedSample;
  to: ParsedSample;
  by: number;
}

/**
 * Reports a stretch in which Remaining rose by more than any refill of the budget can give back, or
 * Remaining jumping between sequences (several counters). True when either was found. `falls`: the chain's
 * unexplained falls (unexplained-falls.ts), which the analysis also reads for spentByOthers.
 */
export function checkRemainingRises(ctx: BudgetContext, sink: ViolationSink, falls: UnexplainedFalls): boolean {
  const jumps = checkJumps(ctx, sink, falls);
  return checkRiseTotal(ctx, sink) || jumps;
}

/**
 * Several counters, without any window: a fall of Remaining beyond the admissions possibly counted in
 * between (unexplained-falls.ts), more than once, and rises besides, is Remaining jumping between the
 * sequences of several counters, each admitting the whole budget. Other clients on the same budget (a
 * staging key shared by two jobs, or a budget per workspace) make Remaining fall faster too, and a fixed
 * window then still rises once per window: so where the window's length is known, only rises beyond one
 * per window the chain spans, plus one, are a jump (two loads on one key
 * of the reference server rose 3 times over 4 windows, with 218 such falls). Where the window is unknown,
 * two rises stay enough. A token bucket or a sliding window used by others at a trickle may still rise
 * more often than that (see the docs' limits). The whole chain is judged, then each of its stretches between
 * idle gaps of a window or more (idleSeparated).
 */
function checkJumps(ctx: BudgetContext, sink: ViolationSink, { falls, rises, chain }: UnexplainedFalls): boolean {
  const pieces = [{ chain, falls, rises }, ...idleSeparated(ctx, chain, falls)];
  const jump = pieces.find((p) => p.falls.length >= 2 && p.rises > refillRises(ctx, p.chain));
  if (!jump) return false;
  const f = jump.falls[0]!;
  sink.add({
    rule: '8.ratelimit.remaining-rises',
    sample: f.b,
    related: [f.a, ...jump.falls.slice(1, 3).flatMap((x) => [x.a, x.b])],
    bucket: 'jumps',
    message:
      `RateLimit-Remaining jumps between sequences: it fell from ${f.a.remaining} to ${f.b.remaining} with at most ${f.same} request(s) admitted in between ` +
      `(${jump.falls.length} such falls) and rose ${jump.rises} times${jump.chain === chain ? '' : ` within ${fmt(jump.chain[jump.chain.length - 1]!.receivedAt - jump.chain[0]!.sentAt)}`}: ` +
      'several counters answer for one budget, each admitting it in full (over-admission)',
  });
  return true;
}

/**
 * The chain's stretches between idle gaps of a window or more (a regression profile's copies of a schedule,
 * each after a wait for a full budget), with their own falls and rises, when there are several: each is a
 * trace of its own, and its rises are held against the refills of its own span. The whole chain's span
 * counts a refill for every window of every wait, where a counter rises at most once (CI: three copies of a
 * 25-request schedule that showed it on 10 of 10 replays, judged as one chain of 6 s against windows of at
 * least 0.5 s, showed nothing). Any stretch of a chain is bound as the chain is, so this finds nothing a
 * legitimate limiter does.
 */
function idleSeparated(ctx: BudgetContext, chain: readonly ParsedSample[], falls: UnexplainedFalls['falls']): JumpPiece[] {
  const W = ctx.boundWindowMs;
  if (W === null || W <= 0) return [];
  const pieces: ParsedSample[][] = [[]];
  chain.forEach((s, i) => {
    if (i > 0 && s.sentAt - chain[i - 1]!.receivedAt >= W) pieces.push([]);
    pieces[pieces.length - 1]!.push(s);
  });
  if (pieces.length < 2) return [];
  return pieces.map((piece) => {
    const inPiece = new Set(piece);
    return { chain: piece, falls: falls.filter((x) => inPiece.has(x.a) && inPiece.has(x.b)), rises: risesAlong(piece) };
  });
}

/** A stretch of the ordered chain with the unexplained falls and the rises inside it. */
interface JumpPiece {
  chain: readonly ParsedSample[];
  falls: UnexplainedFalls['falls'];
  rises: number;
}

/**
 * The rises a single counter shows along the chain where others spend its budget too: one per window the
 * chain spans, plus one (their spending keeps a token bucket's or a sliding window's trickle from rising
 * between the run's responses, and the model read from such a run is no guide: two loads on one key of
 * the reference server's fixed windows read as a token bucket); one when the window is unknown.
 */
function refillRises(ctx: BudgetContext, chain: readonly ParsedSample[]): number {
  const W = ctx.boundWindowMs;
  if (W === null || W <= 0 || chain.length < 2) return 1;
  const span = chain[chain.length - 1]!.receivedAt - chain[0]!.sentAt;
  return Math.ceil(span / W) + 1;
}

function checkRiseTotal(ctx: BudgetContext, sink: ViolationSink): boolean {
  const L = ctx.announcedLimit ?? ctx.limit;
  const W = ctx.boundWindowMs;
  if (L === null || L <= 0 || W === null) return false;
  const chain = orderedChain(ctx.group);
  const rises: Rise[] = [];
  for (let i = 1; i < chain.length; i++) {
    const by = chain[i]!.remaining! - chain[i - 1]!.remaining!;
    if (by > 0) rises.push({ from: chain[i - 1]!, to: chain[i]!, by });
  }
  if (rises.length === 0) return false;
  const span = rises[rises.length - 1]!.to.receivedAt - rises[0]!.from.sentAt;
  let worst: { i: number; j: number; total: number; bound: number; T: number } | undefined;
  for (const T of intervalLengths(W, span)) {
    // One more: a token bucket reports floor(tokens), which can cross an integer upwards once more.
    const bound = legitimateMax(L, W, T) + BOUND_TOLERANCE + 1;
    // Rises whose whole span (first send to last answer) fits in T, by a two-pointer sweep.
    let j = 0;
    let total = 0;
    for (let i = 0; i < rises.length; i++) {
      if (j < i) {
        j = i;
        total = 0;
      }
      while (j < rises.length && rises[j]!.to.receivedAt - rises[i]!.from.sentAt <= T) total += rises[j++]!.by;
      if (total > bound && (!worst || total / bound > worst.total / worst.bound)) worst = { i, j, total, bound, T };
      if (j > i) total -= rises[i]!.by;
    }
  }
  if (!worst) return false;
  const shown = rises.slice(worst.i, worst.j);
  const big = [...shown].sort((a, b) => b.by - a.by)[0]!;
  sink.add({
    rule: '8.ratelimit.remaining-rises',
    sample: big.to,
    related: [big.from, shown[0]!.from, shown[shown.length - 1]!.to],
    window: { start: shown[0]!.from.sentAt, end: shown[shown.length - 1]!.to.receivedAt },
    bucket: 'model-free',
    message:
      `RateLimit-Remaining rose ${shown.length} times by ${worst.total} in total within ${fmt(worst.T)} (e.g. from ${big.from.remaining} to ${big.to.remaining}); ` +
      `no refill of a budget of ${L} per ${fmt(W)} gives back more than ${worst.bound - BOUND_TOLERANCE - 1}: the limiter refills faster than it announces, or several counters answer for one budget`,
  });
  return true;
}
