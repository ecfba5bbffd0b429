/**
 * Which budget drives the analysis of one (key, class): the one the target file states, or the one the
 * responses announce (RateLimit-Limit, and the window Reset implies). The spec does not show the budgets,
 * so a stated budget is an assumption; when the headers contradict it, the contradiction is a finding
 * (rules/stated-budget.ts) and, unless the caller is strict, the observed budget drives every other rule.
 */
import { announcedWindowLowerBound } from './bounds.js';
import type { Group } from './group.js';
import { maxReset, observedLimit, resetCountsMs, roundingSlack } from './model.js';
import type { ParsedSample } from './parsed.js';

export interface ExpectedBudget {
  limit: number;
  windowSeconds: number;
}

export interface Contradiction {
  what: 'limit' | 'window';
  stated: number;
  observed: number;
  /** The response that shows the observed value. */
  sample: ParsedSample;
}

export interface Budget {
  /** Budget per window used to count admissions. */
  limit: number | null;
  /** Most frequent announced Limit, and whether it never changed. */
  announcedLimit: number | null;
  limitConstant: boolean;
  /** Window length (ms) for model classification and window rows; null when unknown. */
  windowMs: number | null;
  /** A window no longer than the true one (ms), for the model-free bounds; null when unknown. */
  boundWindowMs: number | null;
  roundingSlackMs: number;
  source: 'stated' | 'observed';
  stated: ExpectedBudget | undefined;
  /** The window the headers imply (largest Reset, s), if any. */
  observedWindowSeconds: number | null;
  contradictions: Contradiction[];
}

/** Resolves the budget of one group from the stated one (if any) and the headers. */
export function resolveBudget(g: Group, stated: ExpectedBudget | undefined, strict: boolean): Budget {
  const { limit: announced, constant } = observedLimit(g);
  const slack = roundingSlack(g, announced ?? stated?.limit ?? null);
  const mr = maxReset(g);
  // A dialect that announces its window (RateLimit-Policy w=…) says it outright; Reset only bounds it.
  const policyW = policyWindow(g);
  const observedWindowSeconds = policyW ?? (mr !== null && mr > 0 ? mr : null);
  const contradictions: Contradiction[] = [];
  if (stated && announced !== null && announced !== stated.limit) {
    const sample = g.bySent.find((s) => s.limit === announced)!;
    contradictions.push({ what: 'limit', stated: stated.limit, observed: announced, sample });
  }
  // Reset never exceeds the window (rounded up; one more second when the limiter rounds down).
  if (stated && mr !== null && mr > Math.ceil(stated.windowSeconds) + (slack > 0 ? 1 : 0)) {
    const sample = g.bySent.find((s) => s.reset === mr)!;
    contradictions.push({ what: 'window', stated: stated.windowSeconds, observed: mr, sample });
  } else if (stated && policyW !== null && policyW !== stated.windowSeconds) {
    const sample = g.bySent.find((s) => s.raw.policyWindow !== undefined)!;
    contradictions.push({ what: 'window', stated: stated.windowSeconds, observed: policyW, sample });
  }
  const useStated = stated !== undefined && (strict || contradictions.length === 0);
  const base = {
    announcedLimit: announced,
    limitConstant: constant,
    roundingSlackMs: slack,
    stated,
    observedWindowSeconds,
    contradictions,
  };
  if (useStated) {
    const w = stated.windowSeconds * 1000;
    return { ...base, limit: stated.limit, windowMs: w, boundWindowMs: w, source: 'stated' };
  }
  return {
    ...base,
    limit: announced ?? stated?.limit ?? null,
    windowMs: observedWindowSeconds === null ? null : observedWindowSeconds * 1000,
    // Reset in milliseconds announces a window a thousand times too long (reset-plausible reports it).
    boundWindowMs: policyW !== null ? policyW * 1000 : resetCountsMs(g) ? null : announcedWindowLowerBound(mr, slack),
    source: 'observed',
  };
}

/** The most frequent positive policy window (s) the responses announce, or null. */
function policyWindow(g: Group): number | null {
  const counts = new Map<number, number>();
  for (const s of g.bySent) {
    const w = s.raw.policyWindow === undefined ? NaN : Number(s.raw.policyWindow.trim());
    if (Number.isFinite(w) && w > 0) counts.set(w, (counts.get(w) ?? 0) + 1);
  }
  let best: number | null = null;
  for (const [w, c] of counts) if (best === null || c > counts.get(best)!) best = w;
  return best;
}
