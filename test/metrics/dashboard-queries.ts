/**
 * The PromQL of examples/grafana-dashboard.json, read the way the tests need it: every query (panel
 * targets and template variables), and the metric and label names each one uses. A small reader of the
 * PromQL subset the dashboard is written in: selectors `name{matchers}`, range `[…]`, aggregations with
 * `by (…)`, functions and label_values().
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';

export const DASHBOARD = join(import.meta.dirname, '../../examples/grafana-dashboard.json');

interface Target {
  expr?: string;
}
interface Panel {
  title?: string;
  targets?: Target[];
  panels?: Panel[];
}
interface Variable {
  type: string;
  query?: string | { query?: string };
}
export interface Dashboard {
  panels: Panel[];
  templating: { list: Variable[] };
}

/** The dashboard, parsed. */
export function readDashboard(): Dashboard {
  return JSON.parse(readFileSync(DASHBOARD, 'utf8')) as Dashboard;
}

/** Every panel query, with its panel's title. */
export function panelQueries(d: Dashboard): { title: string; expr: string }[] {
  const walk = (ps: Panel[]): { title: string; expr: string }[] =>
    ps.flatMap((p) => [
      ...(p.targets ?? []).filter((t) => t.expr).map((t) => ({ title: p.title ?? '', expr: t.expr! })),
      ...walk(p.panels ?? []),
    ]);
  return walk(d.panels);
}

/** The queries of the query variables (label_values(…) forms). */
export function variableQueries(d: Dashboard): string[] {
  return d.templating.list.filter((v) => v.type === 'query').map((v) => (typeof v.query === 'string' ? v.query : (v.query?.query ?? '')));
}

const FUNCTIONS = new Set([
  'rate',
  'irate',
  'increase',
  'histogram_quantile',
  'sum',
  'min',
  'max',
  'avg',
  'count',
  'label_values',
  'topk',
  'bottomk',
  'abs',
  'clamp_min',
  'delta',
]);
const KEYWORDS = new Set(['by', 'without', 'on', 'ignoring', 'group_left', 'group_right', 'and', 'or', 'unless', 'offset', 'bool']);

/** The metric names and label names a query uses. */
export function namesIn(expr: string): { metrics: string[]; labels: string[]; functions: string[] } {
  const metrics = new Set<string>();
  const labels = new Set<string>();
  const functions = new Set<string>();
  // Strings and Grafana's variables never name anything.
  let rest = expr.replace(/"(?:[^"\\]|\\.)*"/g, '""').replace(/\$\{?\w+\}?/g, '');
  // Label matchers: the names left of the operators.
  rest = rest.replace(/\{([^}]*)\}/g, (_m, inner: string) => {
    for (const m of inner.matchAll(/([A-Za-z_][A-Za-z0-9_]*)\s*(=~|!~|!=|=)/g)) labels.add(m[1]!);
    return ' ';
  });
  // Grouping clauses: label lists.
  rest = rest.replace(/\b(by|without|on|ignoring)\s*\(([^)]*)\)/g, (_m, _kw: string, inner: string) => {
    for (const l of inner
      .split(',')
      .map((x) => x.trim())
      .filter(Boolean))
      labels.add(l);
    return ' ';
  });
  rest = rest.replace(/\[[^\]]*\]/g, ' ');
  // label_values(metric, label): the second argument is a label.
  rest = rest.replace(
    /label_values\s*\(\s*([A-Za-z_:][A-Za-z0-9_:]*)?\s*(?:,\s*([A-Za-z_][A-Za-z0-9_]*))?\s*\)/g,
    (_m, metric?: string, label?: string) => {
      functions.add('label_values');
      if (metric) metrics.add(metric);
      if (label) labels.add(label);
      return ' ';
    },
  );
  for (const m of rest.matchAll(/([A-Za-z_:][A-Za-z0-9_:]*)(\s*\()?/g)) {
    const name = m[1]!;
    if (m[2]) functions.add(name);
    else if (!KEYWORDS.has(name) && !/^\d/.test(name)) metrics.add(name);
  }
  for (const f of functions) if (!FUNCTIONS.has(f)) throw new Error(`query uses ${f}(), which this reader does not know: ${expr}`);
  return { metrics: [...metrics], labels: [...labels], functions: [...functions] };
}
