/**
 * Thresholds in k6's spirit: `p95 < 250ms`, `errors < 1%`, `5xx == 0`, `ratelimit.violations == 0`,
 * `dropped == 0`, optionally narrowed by class and status family (`read.2xx.p99 <= 1s`, `write.429 > 0`).
 * Parsing and evaluation are pure; the load engine supplies a ThresholdContext built from its run.
 */
import { STATUS_FAMILIES, type RouteClass, type StatusFamily } from '../results/schema.js';
import type { BudgetSpent } from './budget-spent.js';

export type ThresholdOp = '<' | '<=' | '>' | '>=' | '==' | '!=';
export type LatencyMetric = 'p50' | 'p90' | 'p95' | 'p99' | 'p999' | 'max' | 'mean' | 'min';
export type CountMetric = 'sent' | 'completed' | 'dropped' | 'transport' | '2xx' | '4xx' | '5xx' | '429' | 'ratelimit.violations';
export type RateMetric = 'errors' | 'rps';
/** The generator's own lag (generator-verdict.ts): `generator.saturated == false`, `generator.slip_p99 < 5ms`. */
export type GeneratorMetric = 'saturated' | 'slip_p50' | 'slip_p99' | 'slip_max' | 'cpu' | 'eld_p99' | 'eld_max';

export type Threshold =
  | {
      kind: 'latency';
      expression: string;
      class?: RouteClass;
      family?: StatusFamily;
      metric: LatencyMetric;
      op: ThresholdOp;
      value: number;
    }
  | { kind: 'count'; expression: string; class?: RouteClass; metric: CountMetric; op: ThresholdOp; value: number }
  | { kind: 'rate'; expression: string; class?: RouteClass; metric: RateMetric; op: ThresholdOp; value: number }
  | { kind: 'generator'; expression: string; metric: GeneratorMetric; op: ThresholdOp; value: number };

export type ParseResult = { ok: true; threshold: Threshold } | { ok: false; error: string };

const LATENCY = new Set<string>(['p50', 'p90', 'p95', 'p99', 'p999', 'max', 'mean', 'min']);
const COUNTS = new Set<string>(['sent', 'completed', 'dropped', 'transport', '2xx', '4xx', '5xx', '429', 'ratelimit.violations']);
const CLASS_LESS = new Set<string>(['ratelimit.violations']);
const FAMILY_NAMES = new Set<string>(STATUS_FAMILIES);
const GENERATOR = new Set<string>(['saturated', 'slip_p50', 'slip_p99', 'slip_max', 'cpu', 'eld_p99', 'eld_max']);
const RE = /^\s*([a-z0-9._]+)\s*(<=|>=|==|!=|<|>)\s*(-?\d+(?:\.\d+)?|true|false)\s*(ms|s|%)?\s*$/i;

/** Parses one threshold expression; errors are one line naming what is wrong. */
export function parseThreshold(expression: string): ParseResult {
  const m = RE.exec(expression);
  if (!m) return { ok: false, error: `"${expression}" is not "<metric> <op> <number>[ms|s|%]"` };
  const [, selector, op, num, unit] = m as unknown as [string, string, ThresholdOp, string, string | undefined];
  const bad = (why: string): ParseResult => ({ ok: false, error: `"${expression}": ${why}` });
  const lowerSel = selector.toLowerCase();
  if (lowerSel.startsWith('generator.'))
    return parseGenerator(expression, lowerSel.slice('generator.'.length), op, num.toLowerCase(), unit, bad);
  if (/^(true|false)$/i.test(num)) return bad('true and false compare generator.saturated only');
  let parts = lowerSel.split('.');
  let cls: RouteClass | undefined;
  if (parts[0] === 'read' || parts[0] === 'write') {
    cls = parts[0];
    parts = parts.slice(1);
  }
  let family: StatusFamily | undefined;
  if (parts.length === 2 && FAMILY_NAMES.has(parts[0]!) && LATENCY.has(parts[1]!)) {
    family = parts[0] as StatusFamily;
    parts = parts.slice(1);
  }
  const metric = parts.join('.');
  const raw = Number(num);
  if (LATENCY.has(metric)) {
    if (unit === '%') return bad('latency takes ms or s, not %');
    const value = unit === 's' ? raw * 1000 : raw;
    return { ok: true, threshold: { kind: 'latency', expression, class: cls, family, metric: metric as LatencyMetric, op, value } };
  }
  if (family) return bad('a status family narrows latency metrics only');
  if (COUNTS.has(metric)) {
    if (unit) return bad(`${metric} is a count and takes no unit`);
    if (cls && CLASS_LESS.has(metric)) return bad(`${metric} cannot be narrowed by class`);
    return { ok: true, threshold: { kind: 'count', expression, class: cls, metric: metric as CountMetric, op, value: raw } };
  }
  if (metric === 'errors') {
    if (unit === 'ms' || unit === 's') return bad('errors is a rate: use % or a fraction');
    const value = unit === '%' ? raw / 100 : raw;
    return { ok: true, threshold: { kind: 'rate', expression, class: cls, metric: 'errors', op, value } };
  }
  if (metric === 'rps') {
    if (unit) return bad('rps takes no unit');
    return { ok: true, threshold: { kind: 'rate', expression, class: cls, metric: 'rps', op, value: raw } };
  }
  return bad(
    `unknown metric "${selector}" (latency: p50 p90 p95 p99 p999 min mean max; counts: ${[...COUNTS].join(' ')}; rates: errors rps; generator.${[...GENERATOR].join(' generator.')})`,
  );
}

/** `generator.<metric>`: saturated (true/false or 1/0), slip and event-loop delay in ms/s, cpu as a share of a core. */
function parseGenerator(
  expression: string,
  metric: string,
  op: ThresholdOp,
  num: string,
  unit: string | undefined,
  bad: (why: string) => ParseResult,
): ParseResult {
  if (!GENERATOR.has(metric)) return bad(`unknown generator metric "${metric}" (generator.${[...GENERATOR].join(' generator.')})`);
  const bool = num === 'true' || num === 'false';
  if (metric === 'saturated') {
    if (unit) return bad('generator.saturated takes true or false');
    if (op !== '==' && op !== '!=') return bad('generator.saturated compares with == or !=');
    if (!bool && num !== '0' && num !== '1') return bad('generator.saturated takes true or false');
    return { ok: true, threshold: { kind: 'generator', expression, metric, op, value: num === 'true' || num === '1' ? 1 : 0 } };
  }
  if (bool) return bad(`generator.${metric} is a number`);
  const raw = Number(num);
  if (metric === 'cpu') {
    if (unit === 'ms' || unit === 's') return bad('generator.cpu is a share of one core: use % or a fraction');
    return { ok: true, threshold: { kind: 'generator', expression, metric, op, value: unit === '%' ? raw / 100 : raw } };
  }
  if (unit === '%') return bad(`generator.${metric} takes ms or s, not %`);
  return {
    ok: true,
    threshold: { kind: 'generator', expression, metric: metric as GeneratorMetric, op, value: unit === 's' ? raw * 1000 : raw },
  };
}

/** A generator metric of a run's verdict, or null when the run has none (or, for slip, no measured send). */
export function generatorMetric(g: GeneratorLike | undefined, metric: GeneratorMetric): number | null {
  if (!g) return null;
  switch (metric) {
    case 'saturated':
      return g.saturated ? 1 : 0;
    case 'slip_p50':
      return g.slipP50Ms;
    case 'slip_p99':
      return g.slipP99Ms;
    case 'slip_max':
      return g.slipMaxMs;
    case 'cpu':
      return g.cpuShare;
    case 'eld_p99':
      return g.eventLoopDelayP99Ms;
    case 'eld_max':
      return g.eventLoopDelayMaxMs;
  }
}

/** The fields of a generator verdict the thresholds read. */
export interface GeneratorLike {
  saturated: boolean;
  slipP50Ms: number | null;
  slipP99Ms: number | null;
  slipMaxMs: number | null;
  cpuShare: number;
  eventLoopDelayP99Ms: number;
  eventLoopDelayMaxMs: number;
}

/** What the evaluator needs from a run; every function returns null when there is no data (e.g. no responses). */
export interface ThresholdContext {
  latency(metric: LatencyMetric, cls?: RouteClass, family?: StatusFamily): number | null;
  count(metric: CountMetric, cls?: RouteClass): number;
  /** Requests sent (the denominator of `errors`). */
  errorRate(cls?: RouteClass): number | null;
  rps(cls?: RouteClass): number;
  /** A generator metric (generatorMetric); absent or null when the run measured none. */
  generator?(metric: GeneratorMetric): number | null;
  /** Whether the run spent a class's budget (of any class when none is named); absent when not known. */
  budgetSpent?(cls?: RouteClass): BudgetSpent;
}

/** Compares with the operator; exported for the property tests. */
export function compare(actual: number, op: ThresholdOp, expected: number): boolean {
  switch (op) {
    case '<':
      return actual < expected;
    case '<=':
      return actual <= expected;
    case '>':
      return actual > expected;
    case '>=':
      return actual >= expected;
    case '==':
      return actual === expected;
    case '!=':
      return actual !== expected;
  }
}

export interface ThresholdOutcome {
  expression: string;
  ok: boolean;
  actual: string;
  /** Why the run could not judge it and what would let it (then `ok` is true: it does not fail the run). */
  notJudged?: string;
}

/** Evaluates one parsed threshold against a run. A latency threshold with no data holds vacuously. */
export function evaluateThreshold(t: Threshold, ctx: ThresholdContext): ThresholdOutcome {
  switch (t.kind) {
    case 'latency': {
      const v = ctx.latency(t.metric, t.class, t.family);
      if (v === null) return { expression: t.expression, ok: true, actual: 'no responses' };
      return { expression: t.expression, ok: compare(v, t.op, t.value), actual: `${round(v)}ms` };
    }
    case 'count': {
      const v = ctx.count(t.metric, t.class);
      const ok = compare(v, t.op, t.value);
      const unspent = !ok && t.metric === '429' && v === 0 ? unspentBudget(t.class, ctx) : undefined;
      return { expression: t.expression, ok: ok || unspent !== undefined, actual: String(v), ...(unspent ? { notJudged: unspent } : {}) };
    }
    case 'rate': {
      if (t.metric === 'rps') {
        const v = ctx.rps(t.class);
        return { expression: t.expression, ok: compare(v, t.op, t.value), actual: `${round(v)} rps` };
      }
      const v = ctx.errorRate(t.class);
      if (v === null) return { expression: t.expression, ok: true, actual: 'no requests' };
      return { expression: t.expression, ok: compare(v, t.op, t.value), actual: `${round(v * 100)}%` };
    }
    case 'generator': {
      const v = ctx.generator?.(t.metric) ?? null;
      // Not measured is not a pass: the threshold exists to say the generator kept up.
      if (v === null) return { expression: t.expression, ok: false, actual: 'not measured' };
      const actual = t.metric === 'saturated' ? String(v === 1) : t.metric === 'cpu' ? `${round(v * 100)}% of a core` : `${round(v)}ms`;
      return { expression: t.expression, ok: compare(v, t.op, t.value), actual };
    }
  }
}

/**
 * A threshold that asks for refusals (`read.429 > 0`) and saw none is judged only when the run spent the
 * budget: a 429 came or RateLimit-Remaining reached 0 (fold/budget-spent.ts). Otherwise no limiter would
 * have refused, and the reason it could not be judged; undefined when it is judged (or nothing is known).
 */
function unspentBudget(cls: RouteClass | undefined, ctx: ThresholdContext): string | undefined {
  const b = ctx.budgetSpent?.(cls);
  if (!b || b.spent !== false) return undefined;
  const which = cls ? `the ${cls} budget` : 'any budget';
  const judge = 'more connections or a higher rate, a higher caps.maxRps, or a key with a smaller budget would let it judge';
  const seen = `lowest RateLimit-Remaining ${b.lowest}, no 429`;
  return `not judged: the run never spent ${which} (${seen}), so no limiter had cause to refuse; ${judge}`;
}

function round(v: number): number {
  return Math.round(v * 100) / 100;
}
