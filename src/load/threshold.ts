/**
 * Thresholds in k6's spirit: `p95 < 250ms`, `errors < 1%`, `5xx == 0`, `ratelimit.violations == 0`,
 * `dropped == 0`, optionally narrowed by class and status family (`read.2xx.p99 <= 1s`, `write.429 > 0`).
 * Parsing and evaluation are pure; the load engine supplies a ThresholdContext built from its run.
 */
import type { RouteClass } from '../results/schema.js';

export type ThresholdOp = '<' | '<=' | '>' | '>=' | '==' | '!=';
export type LatencyMetric = 'p50' | 'p90' | 'p95' | 'p99' | 'p999' | 'max' | 'mean' | 'min';
export type CountMetric = 'sent' | 'completed' | 'dropped' | 'transport' | '2xx' | '4xx' | '5xx' | '429' | 'ratelimit.violations';
export type RateMetric = 'errors' | 'rps';
export type Family = '2xx' | '429' | 'other';

export type Threshold =
  | { kind: 'latency'; expression: string; class?: RouteClass; family?: Family; metric: LatencyMetric; op: ThresholdOp; value: number }
  | { kind: 'count'; expression: string; class?: RouteClass; metric: CountMetric; op: ThresholdOp; value: number }
  | { kind: 'rate'; expression: string; class?: RouteClass; metric: RateMetric; op: ThresholdOp; value: number };

export type ParseResult = { ok: true; threshold: Threshold } | { ok: false; error: string };

const LATENCY = new Set<string>(['p50', 'p90', 'p95', 'p99', 'p999', 'max', 'mean', 'min']);
const COUNTS = new Set<string>(['sent', 'completed', 'dropped', 'transport', '2xx', '4xx', '5xx', '429', 'ratelimit.violations']);
const CLASS_LESS = new Set<string>(['ratelimit.violations']);
const FAMILIES = new Set<string>(['2xx', '429', 'other']);
const RE = /^\s*([a-z0-9.]+)\s*(<=|>=|==|!=|<|>)\s*(-?\d+(?:\.\d+)?)\s*(ms|s|%)?\s*$/i;

/** Parses one threshold expression; errors are one line naming what is wrong. */
export function parseThreshold(expression: string): ParseResult {
  const m = RE.exec(expression);
  if (!m) return { ok: false, error: `"${expression}" is not "<metric> <op> <number>[ms|s|%]"` };
  const [, selector, op, num, unit] = m as unknown as [string, string, ThresholdOp, string, string | undefined];
  let parts = selector.toLowerCase().split('.');
  let cls: RouteClass | undefined;
  if (parts[0] === 'read' || parts[0] === 'write') {
    cls = parts[0];
    parts = parts.slice(1);
  }
  let family: Family | undefined;
  if (parts.length === 2 && FAMILIES.has(parts[0]!) && LATENCY.has(parts[1]!)) {
    family = parts[0] as Family;
    parts = parts.slice(1);
  }
  const metric = parts.join('.');
  const raw = Number(num);
  const bad = (why: string): ParseResult => ({ ok: false, error: `"${expression}": ${why}` });
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
  return bad(`unknown metric "${selector}" (latency: p50 p90 p95 p99 p999 min mean max; counts: ${[...COUNTS].join(' ')}; rates: errors rps)`);
}

/** What the evaluator needs from a run; every function returns null when there is no data (e.g. no responses). */
export interface ThresholdContext {
  latency(metric: LatencyMetric, cls?: RouteClass, family?: Family): number | null;
  count(metric: CountMetric, cls?: RouteClass): number;
  /** Requests sent (the denominator of `errors`). */
  errorRate(cls?: RouteClass): number | null;
  rps(cls?: RouteClass): number;
}

/** Compares with the operator; exported for the property tests. */
export function compare(actual: number, op: ThresholdOp, expected: number): boolean {
  switch (op) {
    case '<': return actual < expected;
    case '<=': return actual <= expected;
    case '>': return actual > expected;
    case '>=': return actual >= expected;
    case '==': return actual === expected;
    case '!=': return actual !== expected;
  }
}

export interface ThresholdOutcome {
  expression: string;
  ok: boolean;
  actual: string;
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
      return { expression: t.expression, ok: compare(v, t.op, t.value), actual: String(v) };
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
  }
}

function round(v: number): number {
  return Math.round(v * 100) / 100;
}
