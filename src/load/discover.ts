/**
 * Budgets discovered from the headers, before a load run. A profile whose rates or duration depend on a
 * class budget needs L and W; the spec does not show them (part 8), so when the target file does not state
 * them a short probe learns them from the RateLimit-* headers (budget-probe.ts, budget-estimate.ts). A
 * stated budget is checked with one request: when every response contradicts it, that is a finding (basis
 * `assumed`: the file's assumption is wrong, not the server) and the observed budget drives the run unless
 * the file is strict. The probe's requests count against caps.maxRequests; writes are probed only through
 * the profile's own write route, and only when the plan has one (allowWrites). Within one `spgate run`,
 * what a probe learned is remembered (BudgetMemo) and later phases against the same base URL use it
 * instead of spending the target's budget on the same probe again.
 */
import type { FindingRecord, ProfileResult, RouteClass } from '../results/schema.js';
import { clause, isClauseId } from '../spec/clauses.js';
import type { Target } from '../target/schema.js';
import { estimateBudget, type BudgetEstimate, type ProbeSample } from './budget-estimate.js';
import { PROBE_DEFAULTS, PROBE_MAX_REQUESTS, runProbe } from './budget-probe.js';
import { needsBudget, type BudgetEntry, type ClassBudget, type PlanBudgets } from './budgets.js';
import { planProfile, type Plan, type PlannedRoute } from './plan.js';
import { createProbeSender, ProbePacer, type ProbeSender } from './probe-sender.js';
import { sleepUnlessAborted } from '../sleep.js';
import type { Profile } from './profile.js';

/** The clause of a stated budget contradicted by the headers (the analyzer reports the same id after a run). */
export const STATED_BUDGET_CLAUSE = '8.ratelimit.stated-budget';

export interface DiscoverOptions {
  durationOverride?: number;
  signal?: AbortSignal;
  /** Longest wait for an announced refill per class (default 65 s). */
  maxWaitMs?: number;
  /** Replaces the real sender (tests). */
  sender?: (cls: RouteClass, route: PlannedRoute) => ProbeSender;
  /** What earlier probes of this run learned; reused, and filled with what this one learns. */
  memo?: BudgetMemo;
}

/** What a probe learned of one class, for later phases of the same run (never a failed probe: that is retried). */
interface Learned {
  budget?: ClassBudget;
  entry?: Partial<BudgetEntry>;
  overrode: boolean;
  /** The profile whose probe learned it. */
  by: string;
}

/** Budgets learned by the probes of one run, by base URL and class. */
export class BudgetMemo {
  private readonly learned = new Map<string, Learned>();

  /** What an earlier probe learned of this class of this target, if anything. */
  get(target: Target, cls: RouteClass): Learned | undefined {
    return this.learned.get(`${target.baseUrl}\u0000${cls}`);
  }

  /** Remembers a probe's outcome when it learned (or confirmed) a budget. */
  remember(target: Target, out: ClassOutcome, by: string): void {
    // A stated budget the probe's responses did not contradict is confirmed; a contradicted one was reported.
    const confirmed = out.sent > 0 && target.assumptions.rateLimit[out.cls] !== undefined;
    if (out.budget || out.finding || confirmed)
      this.learned.set(`${target.baseUrl}\u0000${out.cls}`, { budget: out.budget, entry: out.entry, overrode: out.overrode, by });
  }
}

export interface Discovery {
  /** The plan to run: rates and duration sized from the budgets in force. */
  plan: Plan;
  /** Plan-time findings (a stated budget the headers contradict). */
  findings: FindingRecord[];
  /** The target for the after-run analysis: a stated budget the run overrode is not judged against. */
  analysisTarget: Target;
  /** Requests the probes sent. */
  requests: number;
}

interface ClassOutcome {
  cls: RouteClass;
  budget?: ClassBudget;
  entry?: Partial<BudgetEntry>;
  finding?: FindingRecord;
  notes: string[];
  sent: number;
  overrode: boolean;
}

/** Probes the budgets `first` (the plan from the file alone) depends on, then plans again with them. */
export async function discoverAndPlan(first: Plan, profile: Profile, target: Target, o: DiscoverOptions = {}): Promise<Discovery> {
  const classes = first.classes.filter((c) => needsBudget(profile, c.class));
  if (classes.length === 0) return { plan: first, findings: [], analysisTarget: target, requests: 0 };
  // The probe takes a small share of caps.maxRequests, never the run's whole allowance.
  const share =
    first.maxRequests === undefined
      ? PROBE_MAX_REQUESTS
      : Math.min(PROBE_MAX_REQUESTS, Math.floor(first.maxRequests / (4 * classes.length)));
  const pacer = new ProbePacer(target.caps.maxRps);
  const outcomes = await Promise.all(
    classes.map(async (pc): Promise<ClassOutcome> => {
      const known = o.memo?.get(target, pc.class);
      if (known) return recalled(pc.class, known);
      const route = pc.routes[0]!;
      const sender = o.sender
        ? o.sender(pc.class, route)
        : createProbeSender(target, route, { timeoutMs: first.timeoutMs, pacer, signal: o.signal });
      try {
        const out = await discoverClass(pc.class, route, target, profile.name, share, sender, o);
        o.memo?.remember(target, out, profile.name);
        return out;
      } finally {
        await sender.close();
      }
    }),
  );

  const requests = outcomes.reduce((s, x) => s + x.sent, 0);
  // The run's own rate gate starts empty: one second apart, probe and run together stay within caps.maxRps.
  if (requests > 0 && target.caps.maxRps !== undefined && !o.sender) await sleepUnlessAborted(1000, o.signal);
  const budgets: PlanBudgets = {};
  for (const out of outcomes) if (out.budget) budgets[out.cls] = out.budget;
  const plan = planProfile(profile, target, o.durationOverride, budgets);
  const notes = outcomes.flatMap((x) => x.notes);
  if (requests > 0) notes.push(`budget probe: ${requests} request(s) before the run`);
  if (plan.maxRequests !== undefined && requests > 0) {
    plan.maxRequests = Math.max(0, plan.maxRequests - requests);
    plan.config.maxRequests = plan.maxRequests;
    notes.push(`request count lowered to ${plan.maxRequests}: the probe's requests count against caps.maxRequests`);
  }
  plan.config.notes.unshift(...notes);
  const entries = plan.config.budgets as Record<string, BudgetEntry>;
  for (const out of outcomes) if (out.entry && entries[out.cls]) entries[out.cls] = { ...entries[out.cls]!, ...out.entry } as BudgetEntry;

  const overridden = new Set(outcomes.filter((x) => x.overrode).map((x) => x.cls));
  const analysisTarget: Target =
    overridden.size === 0
      ? target
      : {
          ...target,
          assumptions: {
            ...target.assumptions,
            rateLimit: Object.fromEntries(Object.entries(target.assumptions.rateLimit).filter(([c]) => !overridden.has(c as RouteClass))),
          },
        };
  return { plan, findings: outcomes.flatMap((x) => (x.finding ? [x.finding] : [])), analysisTarget, requests };
}

/**
 * Adds the plan-time findings to a run's outcome: an analyzer finding on the same clause is the same news
 * and is dropped; an error-severity one (strict) fails a run that otherwise passed.
 */
export function withBudgetFindings<T extends { result: ProfileResult; findings: FindingRecord[] }>(out: T, budget: FindingRecord[]): T {
  if (budget.length === 0) return out;
  const own = new Set(budget.map((f) => f.clause));
  if (out.result.status === 'passed' && budget.some((f) => f.severity === 'error')) out.result.status = 'failed';
  return { ...out, findings: [...budget, ...out.findings.filter((f) => !own.has(f.clause))] };
}

async function discoverClass(
  cls: RouteClass,
  route: PlannedRoute,
  target: Target,
  source: string,
  share: number,
  sender: ProbeSender,
  o: DiscoverOptions,
): Promise<ClassOutcome> {
  const stated = target.assumptions.rateLimit[cls];
  const strict = target.assumptions.strict;
  const out: ClassOutcome = { cls, notes: [], sent: 0, overrode: false };
  if (share < (stated ? 1 : 3)) {
    out.notes.push(`${cls}: caps.maxRequests leaves no room for a budget probe`);
    return out;
  }
  const limitOf = (s: ProbeSample): number | undefined =>
    s.limit !== undefined && /^\d{1,9}$/.test(s.limit.trim()) ? Number(s.limit.trim()) : undefined;
  const contradicts = (s: ProbeSample): boolean => stated !== undefined && limitOf(s) !== undefined && limitOf(s) !== stated.limit;
  const probe = await runProbe(sender.io, {
    burst: PROBE_DEFAULTS.burst,
    burstMax: PROBE_DEFAULTS.burstMax,
    maxWaitMs: o.maxWaitMs ?? PROBE_DEFAULTS.maxWaitMs,
    maxRequests: share,
    signal: o.signal,
    ...(stated ? { checkOnly: { more: (s: ProbeSample) => contradicts(s) && !strict } } : {}),
  });
  out.sent = probe.samples.length;
  const firstSample = probe.samples[0];
  const estimate = stated && !(firstSample && contradicts(firstSample) && !strict) ? undefined : estimateBudget(probe.samples);

  if (stated && firstSample && contradicts(firstSample)) {
    const observed = limitOf(firstSample)!;
    const used = !strict && estimate?.ok ? estimate : undefined;
    out.finding = statedBudgetFinding(cls, route, stated, observed, used, strict, source);
    out.entry = { stated };
    if (strict) {
      out.notes.push(
        `${cls}: the stated budget ${stated.limit} per ${stated.windowSeconds} s drives the run (assumptions.strict) though RateLimit-Limit says ${observed}`,
      );
      return out;
    }
    out.overrode = true;
    // The limit is certain (every response says it); the window falls back to the stated one if not learned.
    out.budget = used
      ? { limit: used.limit, windowSeconds: used.windowSeconds, source: 'observed' }
      : { limit: observed, windowSeconds: stated.windowSeconds, source: 'observed' };
    out.notes.push(
      `${cls}: the target file states ${stated.limit} per ${stated.windowSeconds} s but RateLimit-Limit says ${observed}; the observed budget ${out.budget.limit} per ${out.budget.windowSeconds} s drives the run`,
    );
    if (used) out.entry = { stated, confidence: used.confidence, evidence: used.evidence };
    else out.notes.push(`${cls}: window not learned (${failure(estimate, probe.note)}); the stated ${stated.windowSeconds} s is kept`);
    return out;
  }
  if (stated) return out;

  if (estimate?.ok) {
    out.budget = { limit: estimate.limit, windowSeconds: estimate.windowSeconds, source: 'observed' };
    out.entry = { confidence: estimate.confidence, evidence: estimate.evidence };
    out.notes.push(
      `${cls}: budget observed from the RateLimit headers: ${estimate.limit} per ${estimate.windowSeconds} s (${estimate.model}, confidence ${estimate.confidence}: ${estimate.evidence.join('; ')})`,
    );
    if (probe.note) out.notes.push(`${cls}: probe: ${probe.note}`);
  } else {
    const why = failure(estimate, probe.note);
    out.entry = { reason: why };
    out.notes.push(`${cls}: budget not discovered from the headers (${why}); falling back`);
  }
  return out;
}

/** A class's outcome from what an earlier phase's probe learned: no request, and its finding already reported. */
function recalled(cls: RouteClass, known: Learned): ClassOutcome {
  const what = known.budget ? `${known.budget.limit} per ${known.budget.windowSeconds} s` : 'the stated budget confirmed';
  return {
    cls,
    budget: known.budget,
    entry: known.entry,
    overrode: known.overrode,
    sent: 0,
    notes: [`${cls}: budget from the probe of ${known.by} earlier in this run: ${what}`],
  };
}

function failure(estimate: BudgetEstimate | undefined, note: string | undefined): string {
  const reason = estimate && !estimate.ok ? estimate.reason : undefined;
  return [reason, note].filter(Boolean).join('; ') || 'probe stopped';
}

function statedBudgetFinding(
  cls: RouteClass,
  route: PlannedRoute,
  stated: { limit: number; windowSeconds: number },
  observed: number,
  used: Extract<BudgetEstimate, { ok: true }> | undefined,
  strict: boolean,
  source: string,
): FindingRecord {
  const known = isClauseId(STATED_BUDGET_CLAUSE) ? clause(STATED_BUDGET_CLAUSE) : undefined;
  const ran = strict
    ? 'the stated budget drove the run (assumptions.strict)'
    : `the run used the observed budget ${used ? `${used.limit} per ${used.windowSeconds} s` : `${observed} per ${stated.windowSeconds} s`}`;
  return {
    checkId: `load.${STATED_BUDGET_CLAUSE}`,
    clause: STATED_BUDGET_CLAUSE,
    basis: 'assumed',
    severity: strict ? 'error' : 'warning',
    title: known?.summary ?? 'The budget the target file states agrees with the RateLimit headers',
    expected: `${cls} budget ${stated.limit} per ${stated.windowSeconds} s (assumptions.rateLimit.${cls} in the target file)`,
    actual: `RateLimit-Limit: ${observed} on ${route.method} ${route.template} (${cls} class); ${ran}`,
    exchangeIds: [],
    reproduction: {
      curl: [`curl -i -X ${route.method} -H "Authorization: Bearer $SPGATE_API_KEY" "$SPGATE_BASE_URL${route.path}"`],
      command: `spgate load --profile ${source}`,
    },
    source,
  };
}
