/** One load profile: headline figures, thresholds, charts, latency table, rate-limit analysis, config. */
import type { ProfileResult } from '../../results/schema.js';
import { html, type SafeHtml } from '../escape.js';
import { count429, fmtDuration, fmtInt, fmtMs, fmtOffset, fmtRps } from '../format.js';
import { clauseLabel } from '../clauses.js';
import { seriesLabel } from '../charts/distribution.js';
import type { ChartSpec } from '../charts/spec.js';
import { profileP50, profileP99 } from '../markdown.js';

function chartFigure(c: ChartSpec): SafeHtml {
  return html`<figure class="chart" id="fig-${c.id}"><div class="title">${c.title}</div>
  <div class="chart-box"><canvas id="chart-${c.id}" role="img" aria-label="${c.title}"></canvas></div>
  <noscript><p class="noscript">Charts need JavaScript; the tables below carry the same figures.</p></noscript>
  <figcaption>${c.caption}</figcaption></figure>`;
}

function thresholdsTable(p: ProfileResult): SafeHtml {
  if (p.thresholds.length === 0) return html`<p class="muted">No thresholds were set for this profile.</p>`;
  return html`<table><thead><tr><th>Result</th><th>Threshold</th><th>Actual</th></tr></thead><tbody>
  ${p.thresholds.map((t) => {
    const [badge, word] = t.notJudged !== undefined ? ['inconclusive', 'not judged'] : t.ok ? ['ok', 'held'] : ['breached', 'breached'];
    return html`<tr><td><span class="badge ${badge}">${word}</span></td><td class="mono">${t.expression}</td><td>${t.actual}${t.notJudged !== undefined ? html`<br><span class="muted">${t.notJudged}</span>` : ''}</td></tr>`;
  })}
  </tbody></table>`;
}

function latencyTable(p: ProfileResult): SafeHtml {
  const rows = p.latency.filter((s) => s.count > 0);
  if (rows.length === 0) return html``;
  return html`<h4>Latency</h4><table><thead><tr><th>Series</th><th class="num">Count</th><th class="num">min</th><th class="num">mean</th><th class="num">p50</th><th class="num">p90</th><th class="num">p95</th><th class="num">p99</th><th class="num">p99.9</th><th class="num">max</th></tr></thead><tbody>
  ${rows.map((s) => html`<tr><td>${seriesLabel(s)}</td><td class="num">${fmtInt(s.count)}</td><td class="num">${fmtMs(s.min)}</td><td class="num">${fmtMs(s.mean)}</td><td class="num">${fmtMs(s.p50)}</td><td class="num">${fmtMs(s.p90)}</td><td class="num">${fmtMs(s.p95)}</td><td class="num">${fmtMs(s.p99)}</td><td class="num">${fmtMs(s.p999)}</td><td class="num">${fmtMs(s.max)}</td></tr>`)}
  </tbody></table>`;
}

function rateLimitTables(p: ProfileResult): SafeHtml {
  const a = p.rateLimit;
  if (a.classes.length === 0 && a.violations.length === 0)
    return html`<h4>Rate limit</h4><p class="muted">No rate-limit samples were analysed.</p>`;
  return html`<h4>Rate-limit analysis</h4>
  <table><thead><tr><th>Class</th><th class="num">Samples</th><th class="num">Admitted</th><th class="num">429s</th><th class="num">Observed limit</th><th>Limit constant</th><th class="num">Window</th><th>Model</th><th class="num">Windows</th><th>Explanation</th></tr></thead><tbody>
  ${a.classes.map((c) => html`<tr><td>${c.class}${c.key ? html`<br><span class="muted">key ${c.key}</span>` : ''}</td><td class="num">${fmtInt(c.samples)}</td><td class="num">${fmtInt(c.admitted)}</td><td class="num">${fmtInt(c.refused)}</td><td class="num">${c.observedLimit ?? '—'}</td><td>${c.limitConstant ? 'yes' : html`<span class="badge failed">no</span>`}</td><td class="num">${c.windowSeconds !== null ? `${c.windowSeconds} s` : '—'}</td><td>${c.model}</td><td class="num">${c.windows.length}</td><td>${c.explanation}</td></tr>`)}
  </tbody></table>
  ${
    a.violations.length === 0
      ? html`<p><span class="badge ok">no violations</span></p>`
      : html`<table class="violations"><thead><tr><th>Violation</th><th>Class</th><th>What happened</th><th>Window</th><th>Samples</th></tr></thead><tbody>
  ${a.violations.map(
    (v) =>
      html`<tr><td><span class="badge failed">violation</span> <span class="mono">${clauseLabel(v.rule)}</span></td><td>${v.class ?? 'all'}${v.key ? html`<br><span class="muted">key ${v.key}</span>` : ''}</td><td>${v.message}</td><td>${v.window ? `${fmtOffset(v.window.start)} – ${fmtOffset(v.window.end)}` : '—'}</td><td class="mono">${v.samples
        .slice(0, 6)
        .map((s) => `${fmtOffset(s.t)} ${s.status}${s.requestId ? ` ${s.requestId}` : ''}`)
        .join('; ')}${v.samples.length > 6 ? ` … ${v.samples.length - 6} more` : ''}</td></tr>`,
  )}
  </tbody></table>`
  }`;
}

/** The generator's own lag in one line; a saturated generator as a warning naming the remedy. */
function generatorLine(g: NonNullable<ProfileResult['generator']>): SafeHtml {
  const figures = `CPU ${Math.round(g.cpuShare * 100)} % of a core${g.processes > 1 ? ` (busiest of ${g.processes} processes)` : ''} · event-loop delay p99 ${g.eventLoopDelayP99Ms} ms${g.slipP99Ms !== null ? ` · send-time slip p99 ${g.slipP99Ms} ms` : ''}`;
  return g.saturated
    ? html`<p class="generator"><span class="badge failed">generator saturated</span> ${g.reason ?? ''} — the schedule was not kept; latency and drops are partly the generator's. ${g.remedy ?? ''}</p>`
    : html`<p class="muted generator">Generator kept up: ${figures}.</p>`;
}

/** The section of one profile with its chart canvases (drawn by the page script). */
export function profileSection(p: ProfileResult, index: number, charts: ChartSpec[]): SafeHtml {
  const t = p.totals;
  const refused = count429(t.byStatus);
  const tile = (k: string, v: string, bad = false): SafeHtml =>
    html`<div class="tile${bad ? ' bad' : ''}"><div class="v">${v}</div><div class="k">${k}</div></div>`;
  const statuses = Object.entries(t.byStatus).sort((a, b) => a[0].localeCompare(b[0]));
  return html`<section class="card profile" id="profile-${index + 1}">
  <h2>Load: ${p.name} <span class="badge ${p.status === 'passed' ? 'passed' : p.status}">${p.status}</span></h2>
  <p class="muted">${p.description} · ${p.model} model · ${fmtDuration(p.durationMs)} · started ${p.startedAt}</p>
  ${p.error ? html`<p><span class="badge error">error</span> ${p.error}</p>` : ''}
  <div class="tiles">
    ${tile('requests sent', fmtInt(t.sent))}${tile('completed', fmtInt(t.completed))}${tile('mean rate', fmtRps(p.throughput.meanRps))}${tile('peak rate', fmtRps(p.throughput.peakRps))}
    ${tile('p50', fmtMs(profileP50(p)))}${tile('p99', fmtMs(profileP99(p)))}${tile('429s', fmtInt(refused))}${tile('transport errors', fmtInt(t.errors), t.errors > 0)}${tile('dropped', fmtInt(t.dropped), t.dropped > 0)}
  </div>
  <p class="muted">Status codes: ${statuses.length ? statuses.map(([code, k]) => `${code} × ${fmtInt(k)}`).join(' · ') : 'none'} · read ${fmtInt(t.byClass.read)}, write ${fmtInt(t.byClass.write)}</p>
  ${p.capacity ? html`<p><strong>Capacity:</strong> ${p.capacity.rps !== null ? `${p.capacity.lowerBound ? 'at least ' : ''}${fmtRps(p.capacity.rps)}` : 'the SLO was never met'} (SLO p95 &lt; ${p.capacity.sloP95Ms} ms, errors ≤ ${p.capacity.maxErrorPct} %) — ${p.capacity.explanation}</p>` : ''}
  ${p.generator ? generatorLine(p.generator) : ''}
  ${((p.config.notes as unknown[] | undefined) ?? []).filter((n): n is string => typeof n === 'string').map((n) => html`<p class="muted">note: ${n}</p>`)}
  <h4>Thresholds</h4>${thresholdsTable(p)}
  ${charts.length ? html`<div class="charts">${charts.map(chartFigure)}</div>` : html`<p class="muted">No timeline was recorded, so there are no charts.</p>`}
  ${latencyTable(p)}
  ${rateLimitTables(p)}
  <details><summary>Configuration as run</summary><pre>${JSON.stringify(p.config, null, 2)}</pre>${p.trace ? html`<p class="muted">Trace: <span class="mono">${p.trace}</span></p>` : ''}</details>
</section>`;
}
