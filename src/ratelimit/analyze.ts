/**
 * The rate-limit analyzer: samples in, per-budget summaries and violations out. Pure and deterministic;
 * O(n log n) in the number of samples. Budgets are per key and route class.
 */
import type { RateLimitAnalysis, RouteClass } from '../results/schema.js';
import { resolveBudget, type Budget, type ExpectedBudget } from './budget.js';
import { claimedFullAt, type BudgetContext } from './context.js';
import { explain, windowRows } from './explain.js';
import { groupSamples, type Group } from './group.js';
import { classifyModel } from './model.js';
import { parseSamples, type ParsedSample } from './parsed.js';
import type { RateLimitSample } from './sample.js';
import { segmentByRefills, segmentSpan, tileAnchor, type Segment } from './segments.js';
import { ViolationSink, type ViolationInput } from './sink.js';
import { checkAdmissionBound } from './rules/admission-bound.js';
import { checkRefusalClaims } from './rules/claims.js';
import { checkHeaders } from './rules/headers.js';
import { checkClassIsolation } from './rules/isolation.js';
import { checkLimitConstant } from './rules/limit-constant.js';
import { checkRefusalShape } from './rules/refusal-shape.js';
import { checkRemainingBounds } from './rules/remaining-bounds.js';
import { checkRemainingRises } from './rules/remaining-rises.js';
import { checkRemainingStuck } from './rules/remaining-stuck.js';
import { checkResetPlausible } from './rules/reset-plausible.js';
import { checkResetRestores } from './rules/reset-restores.js';
import { checkRetryAfterHonoured } from './rules/retry-after-honoured.js';
import { checkStatedBudget } from './rules/stated-budget.js';
import { checkWindowAdmission } from './rules/window-admission.js';
import { unexplainedFalls } from './unexplained-falls.js';

export type { ExpectedBudget } from './budget.js';

export interface AnalyzeOptions {
  /** Budgets the target file states (the spec does not show them); inferred from headers otherwise. */
  expected?: Partial<Record<RouteClass, ExpectedBudget>>;
  /**
   * When a stated budget contradicts the announced one, judge against the stated budget anyway. By
   * default the contradiction is reported (8.ratelimit.stated-budget) and the announced budget drives.
   */
  strict?: boolean;
  /**
   * The time span (ms, [fromMs, toMs]) in which no sample is missing (default: all time). A Remaining
   * fall shows the two classes sharing one budget only when every request that could account for it is
   * present: the online analyzer's chunk lacks requests answered before its first sample or still in
   * flight at its cut, and a fall they would explain must not blame the other class for the whole chunk.
   */
  complete?: { fromMs: number; toMs: number };
  /**
   * The (rule, key, class) triples earlier analyses of the same run found (the online analyzer's earlier
   * chunks); this analysis reads and adds to it. A rule that names its verdict by another's finding (a refusal
   * the other class explains, once the classes were seen sharing one budget) then judges a chunk as the
   * whole run: a flood's chunk that held no fall of Remaining called such a refusal a stuck counter.
   */
  seen?: Set<string>;
}

/** What the reset-plausibility rule finds with no window known: the Reset claims broken by visible refills. */
function resetContradictions(ctx: BudgetContext): ViolationInput[] {
  const found: ViolationInput[] = [];
  checkResetPlausible(ctx, { add: (v) => found.push(v) }, null);
  return found;
}

/** Analyzes the samples of a run or trace: budgets, windows, model and every rate-limit violation. */
export function analyzeRateLimits(samples: RateLimitSample[], opts: AnalyzeOptions = {}): RateLimitAnalysis {
  return analyzeParsed(parseSamples(samples), opts);
}

/**
 * analyzeRateLimits on samples parsed already (the online analyzer parses each sample once as it arrives,
 * not again for every chunk that holds it); `index` must be each sample's position, as parseSamples sets.
 */
export function analyzeParsed(parsed: readonly ParsedSample[], opts: AnalyzeOptions = {}): RateLimitAnalysis {
  const groups = groupSamples(parsed);
  const sink = new ViolationSink(opts.seen);
  const classes: RateLimitAnalysis['classes'] = [];
  const byId = new Map(groups.map((g) => [`${g.key}\u0000${g.class}`, g]));
  for (const g of groups) {
    const other = byId.get(`${g.key}\u0000${g.class === 'read' ? 'write' : 'read'}`);
    const budget = resolveBudget(g, opts.expected?.[g.class], opts.strict === true);
    const ctx = buildContext(g, other, budget);
    const seen = new Set<string>();
    // One dialect for a whole run, nearly always: the set is touched only when it changes.
    let lastDialect: string | undefined;
    for (const s of g.bySent) {
      const d = s.raw.dialect ?? 'spec';
      if (d !== lastDialect) seen.add((lastDialect = d));
    }
    const dialects = [...seen].sort();

    checkStatedBudget(budget, sink);
    // Isolation first: the refusal rules only blame the other class once Remaining showed it sharing.
    checkClassIsolation(ctx, sink, opts.complete);
    checkHeaders(ctx, sink);
    checkRemainingBounds(ctx, sink);
    // Retry-After and the 429 body code are the spec's; another API's trace is not judged on them.
    if (dialects.length === 0 || dialects.includes('spec')) checkRefusalShape(ctx, sink);
    checkLimitConstant(ctx, sink, budget.announcedLimit);
    // Model-free bounds, whatever the model: over-admission, Remaining rising faster than any refill,
    // Remaining stuck while admissions go on. Then the fixed-window rules, which sharpen the verdict.
    // A window read from Reset is only as good as Reset: when the budget visibly came back long before the
    // Reset claims said (Reset in ms, a wrong unit or clock), the bounds would blame the admissions for the
    // header's error. Then the header is the finding, and no bound is drawn from it.
    // Without a stated window this is the rule's whole verdict (run once: recorded, then added here).
    const contradictions = budget.source !== 'stated' ? resetContradictions(ctx) : [];
    const resetWrong = contradictions.length > 0;
    if (resetWrong) {
      for (const v of contradictions) sink.add(v);
      ctx.boundWindowMs = null;
    }
    const overAdmitted = checkAdmissionBound(ctx, sink);
    const falls = unexplainedFalls(ctx);
    const rising = checkRemainingRises(ctx, sink, falls);
    const stuck = checkRemainingStuck(ctx, sink);
    // Remaining fell by more than the run's own requests (and no several counters, over-admission or stuck
    // Remaining were shown): requests the run never saw spent the budget, other clients on a shared staging
    // key or budget. A 429 or a low Remaining is then no evidence against the limiter: the rules that read them so (a
    // refusal before the budget was used, a budget not back when Reset said, a 429 after Retry-After) are
    // not judged, and the summary says so (spentByOthers). Two loads on one key of the reference server
    // failed reset-restores three times before this. Only falls inside the span where no sample is missing
    // count (a chunk of the online analyzer lacks the other class's requests answered before it).
    const c = opts.complete;
    const beyond = c ? falls.falls.filter((f) => f.a.sentAt >= c.fromMs && f.b.receivedAt <= c.toMs).length : falls.falls.length;
    const spentByOthers = !overAdmitted && !rising && !stuck ? beyond : 0;
    checkWindowAdmission(ctx, sink, spentByOthers === 0);
    // The rules below read every response as the word of one counter that honours its budget. Once the
    // bounds showed more admitted than any such counter allows, or Remaining moving in ways one counter
    // cannot (several counters for one budget), their findings would be false leads (a 429 from one store
    // after another store's Remaining 5 is no under-admission): the rows above name the bug.
    if (!overAdmitted && !rising && !stuck) {
      // Without a stated window the rule ran above and found nothing; with one, Reset is also held to it.
      if (budget.source === 'stated') checkResetPlausible(ctx, sink, ctx.windowMs);
      if (spentByOthers === 0) {
        checkRefusalClaims(ctx, sink, opts.complete);
        checkResetRestores(ctx, sink);
        checkRetryAfterHonoured(ctx, sink);
      }
    }

    let admitted = 0;
    for (const s of g.bySent) if (s.admitted) admitted += 1;
    const summary = {
      class: g.class,
      ...(g.key !== '' ? { key: g.key } : {}),
      samples: g.bySent.length,
      admitted,
      refused: g.bySent.length - admitted,
      observedLimit: budget.announcedLimit,
      limitConstant: budget.limitConstant,
      windowSeconds: ctx.windowMs === null ? null : ctx.windowMs / 1000,
      model: ctx.model,
      windows: windowRows(ctx),
      ...budgetFields(budget),
      ...(dialects.some((d) => d !== 'spec') ? { dialects } : {}),
      ...(spentByOthers > 0 ? { spentByOthers } : {}),
    };
    classes.push({ ...summary, explanation: explain(summary, ctx) });
  }
  return { classes, violations: sink.list() };
}

function budgetFields(b: Budget) {
  return {
    budgetSource: b.source,
    ...(b.stated ? { statedLimit: b.stated.limit, statedWindowSeconds: b.stated.windowSeconds } : {}),
    ...(b.observedWindowSeconds !== null ? { observedWindowSeconds: b.observedWindowSeconds } : {}),
  };
}

function buildContext(g: Group, other: Group | undefined, budget: Budget): BudgetContext {
  const ctx: BudgetContext = {
    group: g,
    other,
    limit: budget.limit,
    announcedLimit: budget.announcedLimit,
    windowMs: budget.windowMs,
    boundWindowMs: budget.boundWindowMs,
    roundingSlackMs: budget.roundingSlackMs,
    model: 'unknown',
    segments: [],
    windowOf: () => undefined,
  };
  ctx.segments = segmentByRefills(g, (s) => (s.reset === null ? null : claimedFullAt(ctx, s.receivedAt, s.reset)));
  ctx.model = classifyModel(g, ctx.segments, budget.announcedLimit ?? budget.limit, budget.windowMs);
  ctx.windowOf = windowLookup(ctx);
  return ctx;
}

function windowLookup(ctx: BudgetContext): (s: ParsedSample) => { start: number; end: number } | undefined {
  if (ctx.model === 'fixed-window') {
    const of = new Map<number, Segment>();
    for (const seg of ctx.segments) for (const s of seg.samples) of.set(s.index, seg);
    const spans = new Map<Segment, { start: number; end: number }>();
    return (s) => {
      const seg = of.get(s.index);
      if (!seg) return undefined;
      let span = spans.get(seg);
      if (!span) spans.set(seg, (span = segmentSpan(seg)));
      return span;
    };
  }
  const W = ctx.windowMs;
  if (W === null || W <= 0) return () => undefined;
  const anchor = tileAnchor(ctx.segments, ctx.group.bySent);
  return (s) => {
    const k = Math.floor((s.sentAt - anchor) / W);
    return { start: anchor + k * W, end: anchor + (k + 1) * W };
  };
}
