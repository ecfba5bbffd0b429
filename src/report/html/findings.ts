/** Findings: expected vs actual, the redacted exchanges and the reproduction, each in an expandable block. */
import type { FindingRecord, Results } from '../../results/schema.js';
import { html, type SafeHtml } from '../escape.js';
import { clauseLabel } from '../clauses.js';

type ExchangeRecord = Results['exchanges'][number];

function headersText(h: Record<string, string | string[]>): string {
  return Object.entries(h).map(([k, v]) => `${k}: ${Array.isArray(v) ? v.join(', ') : v}`).join('\n');
}

function exchangeBlock(x: ExchangeRecord): SafeHtml {
  const req = `${x.request.method} ${x.request.url}\n${headersText(x.request.headers)}${x.request.body ? `\n\n${x.request.body}` : ''}`;
  const res = x.response
    ? `HTTP ${x.response.status}\n${headersText(x.response.headers)}\n\n${x.response.body}${x.response.bodyBytes > x.response.body.length ? `\n… (${x.response.bodyBytes} bytes in all)` : ''}`
    : `no response: ${x.error?.kind ?? 'error'}: ${x.error?.message ?? ''}`;
  return html`<details class="exchange"><summary><span class="mono">${x.id}</span> ${x.request.method} <span class="mono">${x.request.url}</span> → ${x.response ? `HTTP ${x.response.status}` : x.error?.kind ?? 'error'} <span class="muted">(${x.timings.total.toFixed(1)} ms${x.request.keyRole ? `, key role ${x.request.keyRole}` : ''})</span></summary>
  <div class="label muted">Request</div><pre>${req}</pre>
  <div class="label muted">Response</div><pre>${res}</pre></details>`;
}

function findingBlock(f: FindingRecord, i: number, exchanges: Map<string, ExchangeRecord>): SafeHtml {
  const xs = f.exchangeIds.map((id) => exchanges.get(id)).filter((x): x is ExchangeRecord => x !== undefined);
  const rep = f.reproduction;
  return html`<details class="finding ${f.severity}" id="finding-${i + 1}">
  <summary><span class="badge ${f.severity === 'error' ? 'error-sev' : 'warning'}">${f.severity}</span>
    <span class="mono">${clauseLabel(f.clause)}</span> <strong>${f.title}</strong> <span class="muted">${f.source} · ${f.checkId} · basis ${f.basis}</span></summary>
  <div class="body">
    <div class="ev"><div><div class="label">Expected</div><pre class="expected">${f.expected}</pre></div><div><div class="label">Actual</div><pre class="actual">${f.actual}</pre></div></div>
    ${rep ? html`<h4>Reproduction</h4>
      ${rep.seed !== undefined || rep.path ? html`<p class="muted">${rep.seed !== undefined ? `seed ${rep.seed}` : ''}${rep.path ? ` · shrink path ${rep.path}` : ''}</p>` : ''}
      ${rep.curl.length ? html`<pre># export SPGATE_API_KEY=&lt;the key of the role shown on the exchange&gt;\n${rep.curl.join('\n')}</pre>` : ''}
      ${rep.command ? html`<pre>${rep.command}</pre>` : ''}` : ''}
    ${xs.length ? html`<h4>Exchanges (redacted)</h4>${xs.map(exchangeBlock)}` : f.exchangeIds.length ? html`<p class="muted">Exchanges ${f.exchangeIds.join(', ')} were not recorded.</p>` : ''}
  </div></details>`;
}

/** The findings section, errors first. */
export function findingsSection(r: Results): SafeHtml {
  const exchanges = new Map(r.exchanges.map((x) => [x.id, x]));
  const sorted = [...r.findings].sort((a, b) => (a.severity === b.severity ? a.clause.localeCompare(b.clause, 'en', { numeric: true }) : a.severity === 'error' ? -1 : 1));
  return html`<section class="card" id="findings"><h2>Findings (${r.findings.length})
    ${r.findings.length ? html`<button type="button" id="toggle-findings" style="float:right;font-size:12px">Expand all</button>` : ''}</h2>
  ${r.findings.length === 0 ? html`<p class="muted">No findings.</p>` : sorted.map((f, i) => findingBlock(f, i, exchanges))}
  </section>`;
}
