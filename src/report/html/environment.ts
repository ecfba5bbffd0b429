/** The run environment: tool, command, seed, machine. */
import type { Results } from '../../results/schema.js';
import { html, type SafeHtml } from '../escape.js';

/** The environment section. */
export function environmentSection(r: Results): SafeHtml {
  const m = r.meta;
  const rows: Array<[string, string | number | undefined]> = [
    ['spgate', m.tool.version],
    ['command', m.command],
    ['target', `${m.target.name} — ${m.target.baseUrl}${m.target.embedded ? ' (embedded reference server)' : ''}`],
    ['seed', m.seed],
    ['runs per property', m.runs],
    ['started', m.startedAt],
    ['finished', m.finishedAt],
    ['aborted', m.aborted ? `yes — ${m.abortReason ?? 'interrupted'}` : 'no'],
    ['node', m.environment.node],
    ['platform', `${m.environment.platform} (${m.environment.arch})`],
    ['CPUs', m.environment.cpus],
    ['host', m.environment.hostname],
    ['results schema', `version ${r.schemaVersion}`],
  ];
  return html`<section class="card" id="environment"><h2>Run environment</h2><dl class="kv">
  ${rows.filter(([, v]) => v !== undefined && v !== '').map(([k, v]) => html`<dt>${k}</dt><dd>${k === 'command' ? html`<code>${v}</code>` : v}</dd>`)}
  </dl></section>`;
}
