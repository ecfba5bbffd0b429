/**
 * Whether a run spent a class's rate-limit budget, from its RateLimit-Remaining series: the basis on which a
 * threshold that asks for refusals (`read.429 > 0`) is judged. A run that never brought Remaining to 0 and
 * saw no 429 did not reach the budget (four closed-loop connections against a budget of thousands, or a
 * `caps.maxRps` below the budget's rate): no limiter refuses there, so the absence of 429s says nothing.
 * A class that carried no Remaining at all is unknown (its headers are the analyzer's business). Pure.
 */
import type { ProfileResult, RouteClass } from '../results/schema.js';
import { ROUTE_CLASSES } from '../spec/routes.js';

export interface BudgetSpent {
  /** true: a 429 came or Remaining reached 0; false: neither; null: no Remaining was seen. */
  spent: boolean | null;
  /** The lowest Remaining seen (null: none). */
  lowest: number | null;
}

/** Whether the run spent the budget of `cls` (of any class when none is named), from its Remaining series. */
export function budgetSpent(series: ProfileResult['rateLimitSeries'], cls?: RouteClass): BudgetSpent {
  let lowest: number | null = null;
  let refused = false;
  for (const c of cls ? [cls] : ROUTE_CLASSES) {
    for (const [, low, , n429] of series?.[c] ?? []) {
      if (n429 > 0) refused = true;
      if (low !== null && (lowest === null || low < lowest)) lowest = low;
    }
  }
  const spent = refused || lowest === 0 ? true : lowest === null ? null : false;
  return { spent, lowest };
}
