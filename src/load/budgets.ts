/**
 * The class budgets a plan is sized from: stated in the target file, observed in the RateLimit headers
 * (discover.ts), or unknown (the profile's fallback rate; "pending" in a dry run, before discovery).
 */
import type { RouteClass } from '../results/schema.js';
import type { Target } from '../target/schema.js';
import type { Profile } from './profile.js';

/** A class budget the plan sizes rates from: stated in the target file or observed in the headers. */
export interface ClassBudget {
  limit: number;
  windowSeconds: number;
  source: 'stated' | 'observed';
}

/** Budgets handed to planProfile; a class without one uses the target's stated budget or the fallback. */
export interface PlanBudgets {
  read?: ClassBudget;
  write?: ClassBudget;
  /** Dry run: unstated budgets will be discovered before the run, so say that instead of the fallback. */
  pending?: boolean;
}

/** The structured `config.budgets` entry of one class (discovery adds its confidence and evidence). */
export type BudgetEntry =
  | {
      limit: number;
      windowSeconds: number;
      source: 'stated' | 'observed';
      confidence?: string;
      evidence?: string[];
      stated?: { limit: number; windowSeconds: number };
    }
  | { limit: null; windowSeconds: null; source: 'fallback' | 'pending'; reason?: string };

/** Whether a class's plan depends on its budget: a rate relative to it, or a duration in windows. */
export function needsBudget(profile: Profile, cls: RouteClass): boolean {
  const mix = profile.classes[cls];
  if (!mix) return false;
  return profile.minWindows !== undefined || (mix.rate !== undefined && typeof mix.rate !== 'number');
}

/** The budget that sizes a class: handed in (observed, or stated and confirmed), else the target's stated one. */
export function budgetOf(target: Target, cls: RouteClass, budgets?: PlanBudgets): ClassBudget | undefined {
  const given = budgets?.[cls];
  if (given) return given;
  const b = target.assumptions.rateLimit[cls];
  return b ? { limit: b.limit, windowSeconds: b.windowSeconds, source: 'stated' } : undefined;
}

/** The `config.budgets` entry of a class. */
export function budgetEntry(b: ClassBudget | undefined, pending: boolean): BudgetEntry {
  if (!b) return { limit: null, windowSeconds: null, source: pending ? 'pending' : 'fallback' };
  return { limit: b.limit, windowSeconds: b.windowSeconds, source: b.source };
}
