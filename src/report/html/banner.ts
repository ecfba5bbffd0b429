/** The verdict banner and the run's headline counts. */
import type { Results } from '../../results/schema.js';
import { countResults } from '../../results/verdict.js';
import { html, type SafeHtml } from '../escape.js';
import { fmtDuration } from '../format.js';
import { ruleViolations } from '../failures.js';

const VERDICT_TEXT: Record<Results['verdict'], string> = {
  passed: 'Passed — every check passed and every threshold held',
  failed: 'Failed — findings or breached thresholds',
  aborted: 'Aborted — the run was interrupted; results are partial',
  error: 'Error — the run did not complete',
};

/** The coloured header with verdict, target and timing. */
export function bannerSection(r: Results): SafeHtml {
  const ms = Date.parse(r.meta.finishedAt) - Date.parse(r.meta.startedAt);
  return html`<header class="banner ${r.verdict}" id="verdict">
  <h1>spgate: ${VERDICT_TEXT[r.verdict]}</h1>
  <div class="sub"><span>target <strong>${r.meta.target.name}</strong> (${r.meta.target.baseUrl}${r.meta.target.embedded ? ', embedded reference server' : ''})</span><span>${r.meta.startedAt.replace('T', ' ').replace(/\.\d+Z$/, 'Z')}</span><span>${fmtDuration(Math.max(0, ms))}</span>${r.meta.seed !== undefined ? html`<span>seed ${r.meta.seed}</span>` : ''}</div>
</header>`;
}

/** Headline tiles: checks by status, findings, thresholds, violations. */
export function summaryTiles(r: Results): SafeHtml {
  const n = countResults(r);
  // What the ratelimit.violations threshold counts; the analyzer's violations are per window.
  const rules = r.load.reduce((sum, p) => sum + ruleViolations(r.findings, p.name), 0);
  const tile = (k: string, v: number | string, bad = false): SafeHtml =>
    html`<div class="tile${bad ? ' bad' : ''}"><div class="v">${v}</div><div class="k">${k}</div></div>`;
  return html`<section class="card" id="summary"><h2>Summary</h2>
  ${r.meta.aborted ? html`<p><span class="badge aborted">aborted</span> ${r.meta.abortReason ?? 'interrupted'} — the figures below cover only what ran.</p>` : ''}
  ${r.errors.map((e) => html`<p><span class="badge error">error</span> ${e}</p>`)}
  ${(r.meta.notes ?? []).map((n) => html`<p><span class="badge skipped">note</span> ${n}</p>`)}
  <div class="tiles">
    ${tile('checks', n.checks.total)}${tile('passed', n.checks.passed)}${tile('failed', n.checks.failed, n.checks.failed > 0)}${tile('warned', n.checks.warned)}${tile('inconclusive', n.checks.inconclusive, n.checks.inconclusive > 0 && r.meta.failOnInconclusive === true)}${tile('skipped', n.checks.skipped)}${tile('errored', n.checks.error, n.checks.error > 0)}
    ${tile('findings (errors)', n.findings.error, n.findings.error > 0)}${tile('findings (warnings)', n.findings.warning)}
    ${tile(`thresholds breached${n.thresholds.notJudged ? ` (${n.thresholds.notJudged} not judged)` : ''}`, `${n.thresholds.failed}/${n.thresholds.total}`, n.thresholds.failed > 0)}${tile(`rate-limit rules broken${n.violations ? ` (in ${n.violations} windows)` : ''}`, rules, n.violations > 0)}
  </div></section>`;
}
