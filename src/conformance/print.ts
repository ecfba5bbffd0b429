/**
 * Text output of `spgate conformance`: a line per suite, then a summary with every finding grouped by check.
 * Never keys, never response data (report/failures.ts redacts what a CI log shows).
 */
import type { CheckResult, FindingRecord } from '../results/schema.js';
import type { ProgressEvent } from './progress.js';
import { findingGroupLines } from '../report/failures.js';

/** Counts of check results by status. */
export function countStatuses(results: readonly CheckResult[]): Record<CheckResult['status'], number> {
  const n = { passed: 0, failed: 0, warned: 0, inconclusive: 0, skipped: 0, error: 0 };
  for (const r of results) n[r.status]++;
  return n;
}

function counts(results: readonly CheckResult[]): string {
  const n = countStatuses(results);
  return `${n.passed} passed, ${n.failed} failed, ${n.warned} warned, ${n.inconclusive} inconclusive, ${n.skipped} skipped${n.error ? `, ${n.error} error` : ''}`;
}

/** The line printed when a suite finishes (or undefined for events that print nothing). */
export function progressLine(e: ProgressEvent): string | undefined {
  switch (e.type) {
    case 'run-started':
      return `conformance: ${e.suites.join(', ')} — ${e.checks} checks, seed ${e.seed}, runs ${e.runs}`;
    case 'suite-finished': {
      const ms = e.results.reduce((s, r) => s + r.durationMs, 0);
      return `  ${e.suite.padEnd(12)} ${counts(e.results)} (${(ms / 1000).toFixed(1)} s)`;
    }
    case 'check-finished':
      return e.result.status === 'error' ? `    error in ${e.result.checkId}: ${e.result.reason ?? ''}` : undefined;
    default:
      return undefined;
  }
}

/** The closing summary. */
export function summaryLines(input: {
  checks: readonly CheckResult[];
  findings: readonly FindingRecord[];
  aborted: boolean;
  seed: number;
}): string[] {
  const lines = [
    '',
    `checks: ${counts(input.checks)}`,
    `findings: ${input.findings.filter((f) => f.severity === 'error').length} errors, ${input.findings.filter((f) => f.severity === 'warning').length} warnings`,
  ];
  for (const c of input.checks) {
    if (c.status === 'skipped' || c.status === 'error') lines.push(`  ${c.status} ${c.checkId}: ${c.reason ?? ''}`);
    if (c.status === 'inconclusive')
      lines.push(`  inconclusive ${c.checkId}: ${c.reason ?? ''}${c.remedy ? ` — to judge it: ${c.remedy}` : ''}`);
  }
  if (input.findings.length) {
    // Grouped by check, response data redacted: this is what a CI log shows of a failed run.
    lines.push('', 'findings by check (export SPGATE_BASE_URL and SPGATE_API_KEY to run the curl lines):');
    lines.push(...findingGroupLines(input.findings));
  }
  if (input.aborted) lines.push('', 'aborted: results are partial');
  lines.push('', `seed ${input.seed} (repeat with --seed ${input.seed})`);
  return lines;
}
