/** Plain-text (terminal) and Markdown renderings of a Comparison. */
import type { Comparison } from '../results/compare.js';
import type { FigureVerdict, Interval } from '../results/compare-stats.js';
import { clauseLabel } from './clauses.js';
import { fmtPct } from './format.js';

/** The terminal rendering: regressions first, then new/fixed findings and per-profile deltas. */
export function comparisonText(c: Comparison): string {
  const out: string[] = [];
  out.push(`base: ${c.base.startedAt} ${c.base.verdict} · ${c.base.target}`);
  out.push(`head: ${c.head.startedAt} ${c.head.verdict} · ${c.head.target}`);
  const o = c.options;
  out.push(
    `gate: 95 % intervals apart by p50 +${o.p50RegressionPct} % · p99 +${o.p99RegressionPct} % (and ${o.minDeltaMs} ms) · throughput −${o.throughputRegressionPct} % (and ${o.minDeltaRps} req/s) · at least ${o.minSamples} samples`,
  );
  if (c.warning) out.push(`warning: ${oneLine(c.warning)}`);
  out.push('');
  out.push(`findings: ${c.newFindings.length} new, ${c.fixedFindings.length} fixed`);
  for (const { finding: f } of c.newFindings)
    out.push(`  + [${f.severity}] ${clauseLabel(f.clause)} ${f.checkId} (${f.source}): ${oneLine(f.title)}`);
  for (const { finding: f } of c.fixedFindings)
    out.push(`  - [fixed] ${clauseLabel(f.clause)} ${f.checkId} (${f.source}): ${oneLine(f.title)}`);
  for (const u of c.unjudged) out.push(`  ? [${u.base} → inconclusive] ${u.checkId} (${u.suite}): ${oneLine(u.reason)}`);
  for (const p of c.profiles) {
    if (p.status !== 'compared') {
      out.push(`profile ${p.name}: ${p.status === 'only-in-base' ? 'only in base' : 'only in head'}`);
      continue;
    }
    const t = p.throughput!;
    out.push(
      `profile ${p.name}: answered throughput ${interval(t.base)} → ${interval(t.head)} req/s (${fmtPct(t.changePct)})${mark(t.verdict)}`,
    );
    for (const l of p.latency)
      out.push(`  ${l.percentile} ${l.series}: ${interval(l.base)} → ${interval(l.head)} ms (${fmtPct(l.changePct)})${mark(l.verdict)}`);
    for (const r of p.rateLimit) out.push(`  rate limit ${r.class} ${r.field}: ${String(r.base)} → ${String(r.head)}`);
    if (p.violations && (p.violations.base || p.violations.head))
      out.push(`  rate-limit violations: ${p.violations.base} → ${p.violations.head}${p.violations.regression ? '  REGRESSION' : ''}`);
    for (const e of p.thresholds?.fixed ?? []) out.push(`  threshold ${e}: holds again`);
  }
  out.push('');
  if (c.notEnoughData.length) {
    out.push(`${c.notEnoughData.length} figure(s) not judged (not enough data; neither a pass nor a regression):`);
    for (const n of c.notEnoughData) out.push(`  ? ${oneLine(n)}`);
  }
  if (c.regressions.length === 0) out.push('no regressions');
  else {
    out.push(`${c.regressions.length} regression(s):`);
    for (const r of c.regressions) out.push(`  ✗ ${oneLine(r)}`);
  }
  return out.join('\n') + '\n';
}

/** A value with its 95 % interval, "12.3 [11.0–14.1]"; an unbounded side shows as "?". */
function interval(i: Interval): string {
  const b = (x: number | null): string => (x === null ? '?' : x.toFixed(1));
  return `${i.value.toFixed(1)} [${b(i.lower)}–${b(i.upper)}]`;
}

function mark(v: FigureVerdict | 'not-gated'): string {
  if (v === 'not-gated') return '  (closed model: gated through latency)';
  return v === 'regression' ? '  REGRESSION' : v === 'not-enough-data' ? '  not enough data' : v === 'improvement' ? '  improved' : '';
}

function oneLine(s: string): string {
  return s.replace(/[\u0000-\u001F\u007F]+/g, ' ').slice(0, 300);
}
