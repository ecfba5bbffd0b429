/** The conformance matrix: every check by spec clause, grouped by spec part, with status and basis. */
import type { CheckResult, Results } from '../../results/schema.js';
import { html, type SafeHtml } from '../escape.js';
import { PART_TITLES, clausePart, findClause } from '../clauses.js';

const ORDER: Record<CheckResult['status'], number> = { failed: 0, error: 1, warned: 2, inconclusive: 3, passed: 4, skipped: 5 };

const REASON_LABEL: Record<CheckResult['status'], string> = {
  failed: 'reason: ',
  error: 'error: ',
  warned: 'reason: ',
  inconclusive: 'could not judge: ',
  passed: 'not seen: ',
  skipped: 'skipped: ',
};

function statusBadge(s: CheckResult['status']): SafeHtml {
  return html`<span class="badge ${s}">${s}</span>`;
}

function row(c: CheckResult): SafeHtml {
  const cl = findClause(c.clause);
  return html`<tr class="check ${c.status}" data-clause="${c.clause}">
  <td>${statusBadge(c.status)}</td>
  <td><span class="mono">${c.clause}</span><br><span class="muted">${cl?.section ?? ''}</span></td>
  <td>${c.title}${cl && cl.summary !== c.title ? html`<br><span class="muted">${cl.summary}</span>` : ''}${c.reason ? html`<br><span class="muted">${REASON_LABEL[c.status]}${c.reason}</span>` : ''}${c.remedy ? html`<br><span class="muted">to judge it: ${c.remedy}</span>` : ''}</td>
  <td><span class="basis">${c.basis}</span></td>
  <td class="mono">${c.suite}<br><span class="muted">${c.checkId}</span></td>
  <td class="num">${c.cases}</td>
  <td class="num">${c.findings > 0 ? html`<a href="#findings">${c.findings}</a>` : '0'}</td>
</tr>`;
}

/** The matrix section (or a note that no conformance checks ran). */
export function matrixSection(r: Results): SafeHtml {
  if (r.checks.length === 0)
    return html`<section class="card" id="conformance"><h2>Conformance</h2><p class="muted">No conformance checks ran.</p></section>`;
  const parts = new Map<number, CheckResult[]>();
  for (const c of r.checks) {
    const p = clausePart(c.clause);
    parts.set(p, [...(parts.get(p) ?? []), c]);
  }
  const groups = [...parts.entries()].sort((a, b) => (a[0] || 99) - (b[0] || 99));
  return html`<section class="card" id="conformance"><h2>Conformance by spec clause</h2>
  <p class="muted">Basis: <span class="basis">spec</span> the API document states it · <span class="basis">standard</span> an RFC states it · <span class="basis">assumed</span> the spec says “not shown” and the target file supplies the value (a failure is a warning unless the target is strict).</p>
  <table class="matrix"><thead><tr><th>Status</th><th>Clause</th><th>Check</th><th>Basis</th><th>Suite / check id</th><th class="num">Cases</th><th class="num">Findings</th></tr></thead>
  <tbody>${groups.map(([part, checks]) => {
    const counts = new Map<string, number>();
    for (const c of checks) counts.set(c.status, (counts.get(c.status) ?? 0) + 1);
    const sorted = [...checks].sort(
      (a, b) => ORDER[a.status] - ORDER[b.status] || a.clause.localeCompare(b.clause, 'en', { numeric: true }),
    );
    return html`<tr class="part-row"><td colspan="7">${part ? `Part ${part} — ${PART_TITLES[part] ?? ''}` : 'Other'}
      <span class="part-summary" style="display:inline-flex;margin-left:10px">${[...counts.entries()].sort((a, b) => ORDER[a[0] as CheckResult['status']] - ORDER[b[0] as CheckResult['status']]).map(([s, k]) => html`<span class="badge ${s}">${k} ${s}</span>`)}</span></td></tr>
    ${sorted.map(row)}`;
  })}</tbody></table></section>`;
}
