/**
 * The rate-limit analyzer: samples in, per-budget summaries and violations out. Pure and deterministic;
 * O(n log n) in the number of samples. Budgets are per key and route class.
 */
import type { RateLimitAnalysis, RouteClass } from '../results/schema.js';
import { claimedFullAt, type BudgetContext } from './context.js';
import { explain, windowRows } from './explain.js';
import { groupSamples, type Group } from './group.js';
import { classifyModel, maxReset, observedLimit, roundingSlack } from './model.js';
import { parseSamples, type ParsedSample } from './parsed.js';
import type { RateLimitSample } from './sample.js';
import { segmentByRefills, segmentSpan, type Segment } from './segments.js';
import { ViolationSink } from './sink.js';
import { checkRefusalClaims } from './rules/claims.js';
import { checkHeaders } from './rules/headers.js';
import { checkClassIsolation } from './rules/isolation.js';
import { checkLimitConstant } from './rules/limit-constant.js';
import { checkRefusalShape } from './rules/refusal-shape.js';
import { checkRemainingBounds } from './rules/remaining-bounds.js';
import { checkResetPlausible } from './rules/reset-plausible.js';
import { checkResetRestores } from './rules/reset-restores.js';
import { checkRetryAfterHonoured } from './rules/retry-after-honoured.js';
import { checkWindowAdmission } from './rules/window-admission.js';

export interface ExpectedBudget {
  limit: number;
  windowSeconds: number;
}

export interface AnalyzeOptions {
  /** Budgets the target file states (the spec does not show them); inferred from headers otherwise. */
  expected?: Partial<Record<RouteClass, ExpectedBudget>>;
}

/** Analyzes the samples of a run or trace: budgets, windows, model and every rate-limit violation. */
export function analyzeRateLimits(samples: RateLimitSample[], opts: AnalyzeOptions = {}): RateLimitAnalysis {
  const parsed = parseSamples(samples);
  const groups = groupSamples(parsed);
  const sink = new ViolationSink();
  const classes: RateLimitAnalysis['classes'] = [];
  const byId = new Map(groups.map((g) => [`${g.key}\u0000${g.class}`, g]));
  for (const g of groups) {
    const other = byId.get(`${g.key}\u0000${g.class === 'read' ? 'write' : 'read'}`);
    const expected = opts.expected?.[g.class];
    const { ctx, usualLimit, limitConstant } = buildContext(g, other, expected);

    // Isolation first: the refusal rules only blame the other class once Remaining showed it sharing.
    checkClassIsolation(ctx, sink);
    checkHeaders(ctx, sink);
    checkRemainingBounds(ctx, sink);
    checkRefusalShape(ctx, sink);
    checkLimitConstant(ctx, sink, usualLimit);
    checkResetPlausible(ctx, sink, expected ? expected.windowSeconds * 1000 : null);
    checkRefusalClaims(ctx, sink);
    checkWindowAdmission(ctx, sink);
    checkResetRestores(ctx, sink);
    checkRetryAfterHonoured(ctx, sink);

    let admitted = 0;
    for (const s of g.bySent) if (s.admitted) admitted += 1;
    const summary = {
      class: g.class,
      ...(g.key !== '' ? { key: g.key } : {}),
      samples: g.bySent.length,
      admitted,
      refused: g.bySent.length - admitted,
      observedLimit: usualLimit,
      limitConstant,
      windowSeconds: ctx.windowMs === null ? null : ctx.windowMs / 1000,
      model: ctx.model,
      windows: windowRows(ctx),
    };
    classes.push({ ...summary, explanation: explain(summary, expected?.limit ?? null) });
  }
  return { classes, violations: sink.list() };
}

function buildContext(g: Group, other: Group | undefined, expected: ExpectedBudget | undefined) {
  const { limit: usualLimit, constant: limitConstant } = observedLimit(g);
  const limit = expected?.limit ?? usualLimit;
  const slack = roundingSlack(g, usualLimit ?? limit);
  const mr = maxReset(g);
  const windowMs = expected ? expected.windowSeconds * 1000 : mr !== null && mr > 0 ? mr * 1000 : null;
  const ctx: BudgetContext = {
    group: g,
    other,
    limit,
    announcedLimit: usualLimit,
    windowMs,
    roundingSlackMs: slack,
    model: 'unknown',
    segments: [],
    windowOf: () => undefined,
  };
  ctx.segments = segmentByRefills(g, (s) => (s.reset === null ? null : claimedFullAt(ctx, s.receivedAt, s.reset)));
  ctx.model = classifyModel(g, ctx.segments, usualLimit ?? limit, windowMs);
  ctx.windowOf = windowLookup(ctx);
  return { ctx, usualLimit, limitConstant };
}

function windowLookup(ctx: BudgetContext): (s: ParsedSample) => { start: number; end: number } | undefined {
  const first = ctx.group.bySent[0]?.sentAt ?? 0;
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
  return (s) => {
    const k = Math.floor((s.sentAt - first) / W);
    return { start: first + k * W, end: first + (k + 1) * W };
  };
}
