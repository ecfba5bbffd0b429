/**
 * Falls of RateLimit-Remaining this run's own requests do not explain. One counter's Remaining falls
 * between two ordered responses by at most the admissions possibly counted in between, of this budget and,
 * where the classes may share one, of the other class (time only gives budget back). A fall beyond that was
 * spent by requests the run never saw: other clients on the same budget (a staging key shared by two jobs,
 * a budget per workspace), another counter answering (several stores behind one port: then Remaining also
 * rises between their sequences, remaining-rises), or a limiter counting a request more than once. Pure.
 */
import type { BudgetContext } from './context.js';
import { orderedChain, risesAlong } from './chain.js';
import { admittedPossiblyBetween } from './group.js';
import type { ParsedSample } from './parsed.js';

export interface UnexplainedFalls {
  /** Consecutive ordered responses whose Remaining fell by more than `same` (own) plus the other class's admissions. */
  falls: Array<{ a: ParsedSample; b: ParsedSample; same: number }>;
  /** Rises along the chain (budget given back, or another counter's sequence). */
  rises: number;
  /** The ordered chain they were read from (orderedChain). */
  chain: ParsedSample[];
}

export function unexplainedFalls(ctx: BudgetContext): UnexplainedFalls {
  const g = ctx.group;
  const chain = orderedChain(g);
  const falls: UnexplainedFalls['falls'] = [];
  for (let i = 1; i < chain.length; i++) {
    const a = chain[i - 1]!;
    const b = chain[i]!;
    const drop = a.remaining! - b.remaining!;
    if (drop <= 0) continue;
    const same = admittedPossiblyBetween(g, a.sentAt, b.receivedAt) - 1;
    const others = ctx.other ? admittedPossiblyBetween(ctx.other, a.sentAt, b.receivedAt) : 0;
    if (drop - same > others) falls.push({ a, b, same });
  }
  return { falls, rises: risesAlong(chain), chain };
}
