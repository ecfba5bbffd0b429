/**
 * 8.ratelimit.stated-budget (assumed): the budget the target file states agrees with the one the responses
 * announce. The spec does not show the budgets, so this is a finding about the target file's assumption as
 * much as about the server; it names both values so the user can tell which one is wrong.
 */
import type { Budget } from '../budget.js';
import type { ViolationSink } from '../sink.js';

/** Reports each contradiction between the stated budget and the announced one. */
export function checkStatedBudget(budget: Budget, sink: ViolationSink): void {
  const drives = budget.source === 'stated' ? 'the stated budget drives the analysis (strict)' : 'the announced budget drives the analysis';
  for (const c of budget.contradictions) {
    const message =
      c.what === 'limit'
        ? `stated budget ${c.stated} per ${budget.stated!.windowSeconds} s, but the responses announce RateLimit-Limit ${c.observed}; ${drives}`
        : budget.observedWindowSeconds === c.observed && c.sample.raw.policyWindow !== undefined
          ? `stated window ${c.stated} s, but RateLimit-Policy announces w=${c.observed}; ${drives}`
          : `stated window ${c.stated} s, but RateLimit-Reset reached ${c.observed} s (Reset never exceeds the window); ${drives}`;
    sink.add({ rule: '8.ratelimit.stated-budget', sample: c.sample, bucket: c.what, message });
  }
}
