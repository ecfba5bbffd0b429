/**
 * Plain-text rendering of a load run for the terminal: the per-second progress line and the final
 * summary (throughput, latency per class × family, rate-limit analysis, thresholds, findings). Pure.
 */
import type { FindingRecord, ProfileResult } from '../results/schema.js';
import type { LoadProgress } from './load-recorder.js';
import { generatorLine } from '../fold/generator-verdict.js';
import { findingGroupLines, ruleViolations, thresholdLine, violationLines } from '../report/failures.js';

const f1 = (n: number): string => (Math.round(n * 10) / 10).toString();

/** One progress line: elapsed, sent, completed, rps, 429s, dropped, errors. */
export function progressLine(p: LoadProgress): string {
  return `[${f1(p.elapsed)}s/${p.durationSeconds}s] sent ${p.sent} · done ${p.completed} · ${p.lastSecondRps} rps · 429 ${p.refused} · dropped ${p.dropped} · errors ${p.errors}`;
}

/** The end-of-run summary as lines. */
export function summaryLines(r: ProfileResult, findings: FindingRecord[]): string[] {
  const out: string[] = [];
  out.push(`profile ${r.name} (${r.model} model) — ${r.status}${r.error ? `: ${r.error}` : ''}`);
  const notes = (r.config.notes as string[] | undefined) ?? [];
  for (const n of notes) out.push(`  note: ${n}`);
  const t = r.totals;
  out.push(
    `  ${f1(r.durationMs / 1000)}s · sent ${t.sent} · completed ${t.completed} · dropped ${t.dropped} · transport errors ${t.errors}`,
  );
  if (r.connections)
    out.push(
      `  connections: ${r.connections.opened} opened (${r.connections.perSecond}/s) · ${r.connections.resent} re-sent after a silent close`,
    );
  out.push(
    `  throughput: mean ${r.throughput.meanRps} rps · peak ${r.throughput.peakRps} rps · by status ${Object.entries(t.byStatus)
      .map(([k, v]) => `${k}:${v}`)
      .join(' ')}`,
  );
  if (r.latency.length) {
    out.push('  latency (ms)         count      p50      p95      p99      max');
    for (const l of r.latency) {
      const label = `${l.class} ${l.family}${l.corrected ? '' : r.model === 'open' ? ' (uncorr.)' : ''}`;
      out.push(
        `    ${label.padEnd(18)} ${String(l.count).padStart(7)} ${[l.p50, l.p95, l.p99, l.max].map((v) => v.toFixed(2).padStart(8)).join(' ')}`,
      );
    }
  }
  for (const c of r.rateLimit.classes) {
    out.push(
      `  rate limit ${c.class}: observed limit ${c.observedLimit ?? '?'} · window ${c.windowSeconds ?? '?'}s · ${c.model} · admitted ${c.admitted} · refused ${c.refused}` +
        (c.spentByOthers
          ? ` · others spend this budget (Remaining fell ${c.spentByOthers} times by more than this run's requests): 429s and a low Remaining not judged`
          : ''),
    );
  }
  const vs = r.rateLimit.violations;
  out.push(`  rate-limit violations: ${ruleViolations(findings, r.name)} rule(s) broken${vs.length ? `, in ${vs.length} window(s):` : ''}`);
  for (const l of violationLines(r)) out.push(`    ${l}`);
  if (r.capacity) {
    out.push(
      `  capacity: ${r.capacity.lowerBound ? 'at least ' : ''}${r.capacity.rps ?? 'none'} rps${r.capacity.admissionBudget ? ' (admission budget, not capacity)' : ''} — ${r.capacity.explanation}`,
    );
    if (r.capacity.remedy) out.push(`    to measure the server: ${r.capacity.remedy}`);
  }
  if (r.generator?.saturated) out.push(`  ${generatorLine(r.generator)}`);
  if (r.thresholds.length) out.push('  thresholds:', ...r.thresholds.map((th) => `    ${thresholdLine(th)}`));
  if (findings.length)
    out.push(
      '  findings by check (export SPGATE_BASE_URL and SPGATE_API_KEY to run the curl lines):',
      ...findingGroupLines(findings, '    '),
    );
  return out;
}
