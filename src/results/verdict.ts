/**
 * The verdict of a run and the counts every reporter prints. One place decides what "failed" means, so the
 * exit code, the HTML banner, the JUnit totals and the Markdown summary cannot disagree.
 */
import type { CheckStatus, Results } from './schema.js';

export type Verdict = Results['verdict'];

export interface ResultCounts {
  checks: Record<CheckStatus, number> & { total: number };
  findings: { error: number; warning: number; total: number };
  /** `ok` held; `notJudged`: the run could not judge them (they fail it only when every check must judge). */
  thresholds: { ok: number; failed: number; notJudged: number; total: number };
  violations: number;
  profiles: { total: number; failed: number };
}

/** Counts checks by status, findings by severity, thresholds and rate-limit violations. */
export function countResults(r: Pick<Results, 'checks' | 'findings' | 'load'>): ResultCounts {
  const checks = { passed: 0, failed: 0, warned: 0, inconclusive: 0, skipped: 0, error: 0, total: r.checks.length };
  for (const c of r.checks) checks[c.status]++;
  const findings = { error: 0, warning: 0, total: r.findings.length };
  for (const f of r.findings) findings[f.severity]++;
  const thresholds = { ok: 0, failed: 0, notJudged: 0, total: 0 };
  let violations = 0;
  let failedProfiles = 0;
  for (const p of r.load) {
    for (const t of p.thresholds) {
      thresholds.total++;
      if (t.notJudged !== undefined) thresholds.notJudged++;
      else if (t.ok) thresholds.ok++;
      else thresholds.failed++;
    }
    violations += p.rateLimit.violations.length;
    if (p.status === 'failed' || p.status === 'error') failedProfiles++;
  }
  return { checks, findings, thresholds, violations, profiles: { total: r.load.length, failed: failedProfiles } };
}

/**
 * aborted beats everything (the data is partial); run-level errors (target unreachable, a phase that
 * crashed) make it `error`; any failed/errored check, error-severity finding (a rate-limit violation is one,
 * with its basis' severity), breached threshold or failed profile makes it `failed`, and so does an
 * inconclusive check or a threshold not judged when the gate asks for every check to judge
 * (meta.failOnInconclusive). Warnings (failing `assumed` checks) do not fail a run.
 */
export function computeVerdict(
  r: Pick<Results, 'checks' | 'findings' | 'load' | 'errors'> & { meta: { aborted: boolean; failOnInconclusive?: boolean | undefined } },
): Verdict {
  if (r.meta.aborted) return 'aborted';
  if (r.errors.length > 0 || r.load.some((p) => p.status === 'error' || p.status === 'aborted')) return 'error';
  const n = countResults(r);
  const failing =
    n.checks.failed +
    n.checks.error +
    n.findings.error +
    n.thresholds.failed +
    n.profiles.failed +
    (r.meta.failOnInconclusive ? n.checks.inconclusive + n.thresholds.notJudged : 0);
  return failing > 0 ? 'failed' : 'passed';
}
