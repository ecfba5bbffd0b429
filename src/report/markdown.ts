/**
 * The Markdown summary for $GITHUB_STEP_SUMMARY and PR comments: verdict, counts, failing clauses, key load
 * figures, chart PNGs when they were rendered, and a link to the HTML report.
 */
import { writeFile, mkdir } from 'node:fs/promises';
import { join } from 'node:path';
import type { ProfileResult, Results } from '../results/schema.js';
import { countResults } from '../results/verdict.js';
import { mdText } from './escape.js';
import { count429, fmtDuration, fmtInt, fmtMs, fmtRps } from './format.js';
import { clauseLabel } from './clauses.js';
import { chartsForResults } from './charts/index.js';
import type { Reporter } from './reporter.js';

const VERDICT_LINE: Record<Results['verdict'], string> = {
  passed: '✅ **passed**',
  failed: '❌ **failed**',
  aborted: '⚠️ **aborted** (partial results)',
  error: '⚠️ **error** (the run did not complete)',
};

/** Overall p99 of a profile: the largest p99 among its 2xx latency series (corrected where present). */
export function profileP99(p: ProfileResult): number | null {
  const ok = p.latency.filter((s) => s.family === '2xx' && s.count > 0);
  const pick = ok.some((s) => s.corrected) ? ok.filter((s) => s.corrected) : ok;
  return pick.length ? Math.max(...pick.map((s) => s.p99)) : null;
}

/** Overall p50 of a profile, chosen like profileP99. */
export function profileP50(p: ProfileResult): number | null {
  const ok = p.latency.filter((s) => s.family === '2xx' && s.count > 0);
  const pick = ok.some((s) => s.corrected) ? ok.filter((s) => s.corrected) : ok;
  return pick.length ? Math.max(...pick.map((s) => s.p50)) : null;
}

export interface MarkdownOptions {
  /** Relative link to the HTML report, when one is written. */
  htmlHref?: string;
  /** Chart id → PNG file name (relative). */
  pngs?: Map<string, string>;
  /** Maximum failing rows listed before "and N more". */
  maxRows?: number;
}

/** Builds the Markdown summary. */
export function buildMarkdown(r: Results, opts: MarkdownOptions = {}): string {
  const n = countResults(r);
  const maxRows = opts.maxRows ?? 25;
  const started = Date.parse(r.meta.startedAt);
  const finished = Date.parse(r.meta.finishedAt);
  const out: string[] = [];
  out.push(`## spgate: ${VERDICT_LINE[r.verdict]}`, '');
  out.push(
    `Target **${mdText(r.meta.target.name, 80)}** (${mdText(r.meta.target.baseUrl, 120)}${r.meta.target.embedded ? ', embedded reference server' : ''}) · ` +
      `${fmtDuration(finished - started)} · spgate ${mdText(r.meta.tool.version)}${r.meta.seed !== undefined ? ` · seed ${r.meta.seed}` : ''}`,
    '',
  );
  if (r.meta.aborted) out.push(`> Run aborted: ${mdText(r.meta.abortReason ?? 'interrupted')}. Results are partial.`, '');
  for (const e of r.errors) out.push(`> Error: ${mdText(e)}`, '');
  for (const n of r.meta.notes ?? []) out.push(`> Note: ${mdText(n)}`, '');

  out.push('| Checks | Passed | Failed | Warned | Inconclusive | Skipped | Errored | Findings | Thresholds breached | Rate-limit violations |');
  out.push('|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|');
  out.push(`| ${n.checks.total} | ${n.checks.passed} | ${n.checks.failed} | ${n.checks.warned} | ${n.checks.inconclusive} | ${n.checks.skipped} | ${n.checks.error} | ${n.findings.error} errors, ${n.findings.warning} warnings | ${n.thresholds.failed} of ${n.thresholds.total} | ${n.violations} |`, '');

  const failing = r.findings.filter((f) => f.severity === 'error');
  if (failing.length > 0) {
    out.push('### Failing clauses', '', '| Clause | Check | Expected | Actual | Source |', '|---|---|---|---|---|');
    for (const f of failing.slice(0, maxRows)) {
      out.push(`| ${mdText(clauseLabel(f.clause), 80)} | ${mdText(f.title, 120)} | ${mdText(f.expected, 160)} | ${mdText(f.actual, 160)} | ${mdText(f.source, 40)} |`);
    }
    if (failing.length > maxRows) out.push('', `…and ${failing.length - maxRows} more in the full report.`);
    out.push('');
  }
  const unjudged = r.checks.filter((c) => c.status === 'inconclusive');
  if (unjudged.length > 0) {
    out.push(`### Checks that could not judge${r.meta.failOnInconclusive ? ' (the gate requires a verdict)' : ''}`, '');
    for (const c of unjudged.slice(0, maxRows)) out.push(`- ${mdText(c.checkId, 80)}: ${mdText(c.reason ?? '', 200)}${c.remedy ? ` — to judge it: ${mdText(c.remedy, 160)}` : ''}`);
    if (unjudged.length > maxRows) out.push(`- …and ${unjudged.length - maxRows} more in the full report.`);
    out.push('');
  }
  const errored = r.checks.filter((c) => c.status === 'error');
  if (errored.length > 0) {
    out.push('### Checks that errored', '');
    for (const c of errored.slice(0, maxRows)) out.push(`- ${mdText(clauseLabel(c.clause), 80)} ${mdText(c.checkId, 80)}: ${mdText(c.reason ?? 'error', 200)}`);
    out.push('');
  }

  if (r.load.length > 0) {
    out.push('### Load', '', '| Profile | Status | Requests | Mean | Peak | p50 | p99 | 429s | Errors | Thresholds | Violations |', '|---|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|');
    for (const p of r.load) {
      const breached = p.thresholds.filter((t) => !t.ok).length;
      out.push(
        `| ${mdText(p.name, 60)} | ${p.status} | ${fmtInt(p.totals.completed)} | ${fmtRps(p.throughput.meanRps)} | ${fmtRps(p.throughput.peakRps)} | ${fmtMs(profileP50(p))} | ${fmtMs(profileP99(p))} | ${fmtInt(count429(p.totals.byStatus))} | ${fmtInt(p.totals.errors)} | ${p.thresholds.length - breached}/${p.thresholds.length} held | ${p.rateLimit.violations.length} |`,
      );
    }
    out.push('');
    const breachedRows = r.load.flatMap((p) => p.thresholds.filter((t) => !t.ok).map((t) => `- **${mdText(p.name, 60)}**: \`${mdText(t.expression, 100)}\` breached (actual ${mdText(t.actual, 100)})`));
    const violationRows = r.load.flatMap((p) => p.rateLimit.violations.map((v) => `- **${mdText(p.name, 60)}** ${mdText(clauseLabel(v.rule), 80)}${v.class ? ` (${v.class})` : ''}: ${mdText(v.message, 200)}`));
    if (breachedRows.length || violationRows.length) out.push(...breachedRows.slice(0, maxRows), ...violationRows.slice(0, maxRows), '');
    // The generator was the bottleneck: its figures are partly its own, and a capacity is a lower bound.
    const saturated = r.load.filter((p) => p.generator?.saturated).map((p) => `- **${mdText(p.name, 60)}**: generator saturated (${mdText(p.generator!.reason ?? '', 200)}) — ${mdText(p.generator!.remedy ?? '', 120)}${p.capacity?.lowerBound ? '; its capacity figure is a lower bound' : ''}`);
    if (saturated.length) out.push('#### Generator', '', ...saturated.slice(0, maxRows), '');
    const pngs = opts.pngs;
    if (pngs && pngs.size > 0) {
      chartsForResults(r).forEach((charts) => {
        for (const c of charts) {
          const file = pngs.get(c.id);
          if (file) out.push(`![${mdText(c.title, 100)}](${encodeURI(file)})`);
        }
      });
      out.push('');
    }
  }
  if (opts.htmlHref) out.push(`[Full HTML report](${encodeURI(opts.htmlHref)})`, '');
  return out.join('\n');
}

export const markdownReporter: Reporter = {
  name: 'markdown',
  async render(results, outDir, ctx) {
    await mkdir(outDir, { recursive: true });
    const path = join(outDir, 'summary.md');
    await writeFile(path, buildMarkdown(results, { htmlHref: 'index.html', pngs: ctx.pngs }), 'utf8');
    return [path];
  },
};
