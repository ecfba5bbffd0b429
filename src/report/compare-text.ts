/** Plain-text (terminal) and Markdown renderings of a Comparison. */
import type { Comparison } from '../results/compare.js';
import { clauseLabel } from './clauses.js';
import { fmtPct } from './format.js';

/** The terminal rendering: regressions first, then new/fixed findings and per-profile deltas. */
export function comparisonText(c: Comparison): string {
  const out: string[] = [];
  out.push(`base: ${c.base.startedAt} ${c.base.verdict} · ${c.base.target}`);
  out.push(`head: ${c.head.startedAt} ${c.head.verdict} · ${c.head.target}`);
  out.push(`gate: p99 +${c.options.p99RegressionPct} % · throughput −${c.options.throughputRegressionPct} %`);
  out.push('');
  out.push(`findings: ${c.newFindings.length} new, ${c.fixedFindings.length} fixed`);
  for (const { finding: f } of c.newFindings) out.push(`  + [${f.severity}] ${clauseLabel(f.clause)} ${f.checkId} (${f.source}): ${oneLine(f.title)}`);
  for (const { finding: f } of c.fixedFindings) out.push(`  - [fixed] ${clauseLabel(f.clause)} ${f.checkId} (${f.source}): ${oneLine(f.title)}`);
  for (const u of c.unjudged) out.push(`  ? [${u.base} → inconclusive] ${u.checkId} (${u.suite}): ${oneLine(u.reason)}`);
  for (const p of c.profiles) {
    if (p.status !== 'compared') {
      out.push(`profile ${p.name}: ${p.status === 'only-in-base' ? 'only in base' : 'only in head'}`);
      continue;
    }
    const t = p.throughput!;
    out.push(`profile ${p.name}: throughput ${t.baseMeanRps.toFixed(1)} → ${t.headMeanRps.toFixed(1)} req/s (${fmtPct(t.changePct)})${t.regression ? '  REGRESSION' : ''}`);
    for (const l of p.latency) out.push(`  p99 ${l.series}: ${l.baseP99.toFixed(1)} → ${l.headP99.toFixed(1)} ms (${fmtPct(l.changePct)})${l.regression ? '  REGRESSION' : ''}`);
    for (const r of p.rateLimit) out.push(`  rate limit ${r.class} ${r.field}: ${String(r.base)} → ${String(r.head)}`);
    if (p.violations && (p.violations.base || p.violations.head)) out.push(`  rate-limit violations: ${p.violations.base} → ${p.violations.head}${p.violations.regression ? '  REGRESSION' : ''}`);
    for (const e of p.thresholds?.fixed ?? []) out.push(`  threshold ${e}: holds again`);
  }
  out.push('');
  if (c.regressions.length === 0) out.push('no regressions');
  else {
    out.push(`${c.regressions.length} regression(s):`);
    for (const r of c.regressions) out.push(`  ✗ ${oneLine(r)}`);
  }
  return out.join('\n') + '\n';
}

function oneLine(s: string): string {
  return s.replace(/[\u0000-\u001F\u007F]+/g, ' ').slice(0, 300);
}
