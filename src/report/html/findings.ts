/**
 * Findings: one expandable block per check with a count, and inside it each occurrence's expected vs actual,
 * reproduction and redacted exchanges (the full exchange stays here; CI-facing outputs get CI text).
 */
import type { FindingRecord, Results } from '../../results/schema.js';
import { html, type SafeHtml } from '../escape.js';
import { clauseLabel } from '../clauses.js';

type ExchangeRecord = Results['exchanges'][number];

function headersText(h: Record<string, string | string[]>): string {
  return Object.entries(h)
    .map(([k, v]) => `${k}: ${Array.isArray(v) ? v.join(', ') : v}`)
    .join('\n');
}

function exchangeBlock(x: ExchangeRecord): SafeHtml {
  const req = `${x.request.method} ${x.request.url}\n${headersText(x.request.headers)}${x.request.body ? `\n\n${x.request.body}` : ''}`;
  const res = x.response
    ? `HTTP ${x.response.status}\n${headersText(x.response.headers)}\n\n${x.response.body}${x.response.bodyBytes > x.response.body.length ? `\n… (${x.response.bodyBytes} bytes in all)` : ''}`
    : `no response: ${x.error?.kind ?? 'error'}: ${x.error?.message ?? ''}`;
  return html`<details class="exchange"><summary><span class="mono">${x.id}</span> ${x.request.method} <span class="mono">${x.request.url}</span> → ${x.response ? `HTTP ${x.response.status}` : (x.error?.kind ?? 'error')} <span class="muted">(${x.timings.total.toFixed(1)} ms${x.request.keyRole ? `, key role ${x.request.keyRole}` : ''})</span></summary>
  <div class="label muted">Request</div><pre>${req}</pre>
  <div class="label muted">Response</div><pre>${res}</pre></details>`;
}

/** Findings of one check (id, clause, source and severity), in the order they occurred. */
function groupsOf(findings: readonly FindingRecord[]): FindingRecord[][] {
  const groups = new Map<string, FindingRecord[]>();
  for (const f of findings) {
    const k = `${f.source}\u0000${f.checkId}\u0000${f.clause}\u0000${f.severity}`;
    groups.set(k, [...(groups.get(k) ?? []), f]);
  }
  return [...groups.values()];
}

/** One occurrence: expected vs actual (shown once when every occurrence expects the same), reproduction, exchanges. */
function occurrence(f: FindingRecord, n: number, of: number, sameExpected: boolean, exchanges: Map<string, ExchangeRecord>): SafeHtml {
  const xs = f.exchangeIds.map((id) => exchanges.get(id)).filter((x): x is ExchangeRecord => x !== undefined);
  const rep = f.reproduction;
  return html`${of > 1 ? html`<h4>Occurrence ${n} of ${of}</h4>` : ''}
    <div class="ev">${sameExpected && n > 1 ? '' : html`<div><div class="label">Expected</div><pre class="expected">${f.expected}</pre></div>`}<div><div class="label">Actual</div><pre class="actual">${f.actual}</pre></div></div>
    ${
      rep
        ? html`<h4>Reproduction</h4>
      ${rep.seed !== undefined || rep.path ? html`<p class="muted">${rep.seed !== undefined ? `seed ${rep.seed}` : ''}${rep.path ? ` · shrink path ${rep.path}` : ''}</p>` : ''}
      ${rep.curl.length ? html`<pre># export SPGATE_API_KEY=&lt;the key of the role shown on the exchange&gt;\n${rep.curl.join('\n')}</pre>` : ''}
      ${rep.command ? html`<pre>${rep.command}</pre>` : ''}`
        : ''
    }
    ${xs.length ? html`<h4>Exchanges (redacted)</h4>${xs.map(exchangeBlock)}` : f.exchangeIds.length ? html`<p class="muted">Exchanges ${f.exchangeIds.join(', ')} were not recorded.</p>` : ''}`;
}

/** One check's findings in one block: a count in its summary and each occurrence inside (not N identical blocks). */
function findingBlock(fs: FindingRecord[], i: number, exchanges: Map<string, ExchangeRecord>): SafeHtml {
  const f = fs[0]!;
  const sameExpected = fs.every((x) => x.expected === f.expected);
  return html`<details class="finding ${f.severity}" id="finding-${i + 1}">
  <summary><span class="badge ${f.severity === 'error' ? 'error-sev' : 'warning'}">${f.severity}</span>
    <span class="mono">${clauseLabel(f.clause)}</span> <strong>${f.title}</strong>${fs.length > 1 ? html` <span class="badge">×${fs.length}</span>` : ''} <span class="muted">${f.source} · ${f.checkId} · basis ${f.basis}</span></summary>
  <div class="body">
    ${fs.map((x, n) => occurrence(x, n + 1, fs.length, sameExpected, exchanges))}
  </div></details>`;
}

/** The findings section, errors first, one block per check. */
export function findingsSection(r: Results): SafeHtml {
  const exchanges = new Map(r.exchanges.map((x) => [x.id, x]));
  const sorted = [...r.findings].sort((a, b) =>
    a.severity === b.severity ? a.clause.localeCompare(b.clause, 'en', { numeric: true }) : a.severity === 'error' ? -1 : 1,
  );
  const groups = groupsOf(sorted);
  return html`<section class="card" id="findings"><h2>Findings (${r.findings.length}${groups.length < r.findings.length ? ` in ${groups.length} checks` : ''})
    ${r.findings.length ? html`<button type="button" id="toggle-findings" style="float:right;font-size:12px">Expand all</button>` : ''}</h2>
  ${r.findings.length === 0 ? html`<p class="muted">No findings.</p>` : groups.map((g, i) => findingBlock(g, i, exchanges))}
  </section>`;
}
