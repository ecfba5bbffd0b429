/**
 * The page `spgate shrink` writes: the minimal schedule drawn as the rate-limit timeline (Remaining,
 * 429s, the analyzer's windows) beside the original, the reproduction rates, the analyzer's explanation
 * of the minimal schedule and the steps the search took. Self-contained like the run report (same CSS,
 * Chart.js inlined, the same chart code); every text from the server is escaped.
 */
import type { RateLimitAnalysis } from '../results/schema.js';
import { formatAnalysis } from '../ratelimit/format.js';
import { rateLimitChart, type RateLimitChartInput } from './charts/ratelimit.js';
import type { ChartSpec } from './charts/spec.js';
import { html, jsonForScript, raw, scriptSource } from './escape.js';
import { CLIENT_JS } from './html/client.js';
import { chartJsBundle } from './html/page.js';
import { REPORT_CSS } from './html/style.js';

export interface ShrinkPageInput {
  title: string;
  original: RateLimitChartInput;
  minimal: RateLimitChartInput;
  minimalAnalysis: RateLimitAnalysis;
  originalRequests: number;
  minimalRequests: number;
  originalRate: { reproduced: number; attempts: number };
  rate: { reproduced: number; attempts: number };
  steps: Array<{ step: string; sends: number; accepted: boolean; rate: { reproduced: number; attempts: number } }>;
}

function figure(spec: ChartSpec, heading: string) {
  return html`<figure class="chart"><div class="title">${heading}</div><div class="chart-box"><canvas id="chart-${spec.id}" role="img" aria-label="${spec.title}"></canvas></div><figcaption>${spec.caption}</figcaption></figure>`;
}

const sec = (ms: number): string => `${(ms / 1000).toFixed(2)} s`;

/** Renders the page. */
export function renderShrinkPage(p: ShrinkPageInput): string {
  const charts = [rateLimitChart(p.original, 'shrink-original'), rateLimitChart(p.minimal, 'shrink-minimal')];
  const page = html`<!doctype html>
<html lang="en"><head><meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta http-equiv="Content-Security-Policy" content="default-src 'none'; script-src 'unsafe-inline'; style-src 'unsafe-inline'; img-src data:">
<title>spgate shrink — ${p.title}</title>
<style>${raw(REPORT_CSS)}</style></head>
<body>
<header class="banner failed"><h1>Minimal reproduction: ${p.title}</h1>
<div class="sub"><span>${p.originalRequests} → ${p.minimalRequests} requests</span><span>reproduced ${p.rate.reproduced}/${p.rate.attempts}</span></div></header>
<main>
<section class="card"><h2>Summary</h2>
<table><tr><th></th><th class="num">requests</th><th class="num">span</th><th class="num">reproduced</th></tr>
<tr><td>original</td><td class="num">${p.originalRequests}</td><td class="num">${sec(p.original.durationMs)}</td><td class="num">${p.originalRate.reproduced}/${p.originalRate.attempts}</td></tr>
<tr><td>minimal</td><td class="num">${p.minimalRequests}</td><td class="num">${sec(p.minimal.durationMs)}</td><td class="num">${p.rate.reproduced}/${p.rate.attempts}</td></tr></table></section>
<section class="card"><h2>Rate-limit timeline</h2><div class="charts">${figure(charts[0]!, 'Original')}${figure(charts[1]!, 'Minimal')}</div></section>
<section class="card"><h2>What the analyzer says about the minimal schedule</h2><pre>${formatAnalysis(p.minimalAnalysis)}</pre></section>
<section class="card"><h2>Search steps</h2>
<table><tr><th>step</th><th class="num">requests</th><th class="num">reproduced</th><th>kept</th></tr>
${p.steps.map((s) => html`<tr><td>${s.step}</td><td class="num">${s.sends}</td><td class="num">${s.rate.reproduced}/${s.rate.attempts}</td><td><span class="badge ${s.accepted ? 'passed' : 'skipped'}">${s.accepted ? 'kept' : 'rejected'}</span></td></tr>`)}
</table></section>
</main>
<script id="spgate-charts" type="application/json">${raw(jsonForScript(charts))}</script>
<script>${raw(scriptSource(chartJsBundle()))}</script>
<script>${raw(scriptSource(CLIENT_JS))}</script>
</body></html>
`;
  return page.value;
}
