/**
 * The Markdown summary for $GITHUB_STEP_SUMMARY and PR comments: verdict, counts, failing checks grouped with
 * a count, key load figures, every threshold with ✓/✗, the first rate-limit violations, and a link to the
 * workflow run whose artifacts hold the full report. It must render where it is shown: GitHub resolves no
 * relative link or image in a step summary, so there are none (the charts and index.html are in the
 * artifact), and everything from a response is CI text (failures.ts: no body text, no personal data).
 */
import { writeFile, mkdir } from 'node:fs/promises';
import { join } from 'node:path';
import type { ProfileResult, Results } from '../results/schema.js';
import { countResults } from '../results/verdict.js';
import { mdText } from './escape.js';
import { count429, fmtDuration, fmtInt, fmtMs, fmtRps } from './format.js';
import { clauseLabel } from './clauses.js';
import { ciText, groupFindings, occurrenceLines, ruleViolations, thresholdLine, windowText, VIOLATIONS_SHOWN } from './failures.js';
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
  /** The workflow run's page (its artifacts hold the full report), when the run knows it. */
  runUrl?: string;
  /** Maximum rows listed per table before "and N more". */
  maxRows?: number;
}

/** The page of the GitHub Actions run (where its artifacts are listed), from the runner's variables. */
export function runPageUrl(env: NodeJS.ProcessEnv): string | undefined {
  const { GITHUB_SERVER_URL: server, GITHUB_REPOSITORY: repo, GITHUB_RUN_ID: id } = env;
  if (!server || !repo || !id || !/^https?:\/\//.test(server) || !/^[\w.-]+\/[\w.-]+$/.test(repo) || !/^\d+$/.test(id)) return undefined;
  return `${server.replace(/\/+$/, '')}/${repo}/actions/runs/${id}`;
}

/** A code span (GitHub autolinks a bare URL, and a loopback base URL would be a link that cannot resolve). */
function codeSpan(s: string, maxLength: number): string {
  const t = s.replace(/[`\r\n]/g, '');
  return `\`${t.length > maxLength ? `${t.slice(0, maxLength - 1)}…` : t}\``;
}

/** Window times of the violations of one rule in one profile: "0.0–2.0 s, 4.0–6.0 s". */
function windowsOf(r: Results, source: string, clause: string): string {
  const p = r.load.find((x) => x.name === source);
  const ws = (p?.rateLimit.violations ?? []).filter((v) => v.rule === clause && v.window).map((v) => windowText(v.window));
  if (ws.length === 0) return '—';
  return ws.length > 3 ? `${ws.slice(0, 3).join(', ')} and ${ws.length - 3} more` : ws.join(', ');
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
    `Target **${mdText(r.meta.target.name, 80)}** (${codeSpan(r.meta.target.baseUrl, 120)}${r.meta.target.embedded ? ', embedded reference server' : ''}) · ` +
      `${fmtDuration(finished - started)} · spgate ${mdText(r.meta.tool.version)}${r.meta.seed !== undefined ? ` · seed ${r.meta.seed}` : ''}`,
    '',
  );
  if (r.meta.aborted) out.push(`> Run aborted: ${mdText(r.meta.abortReason ?? 'interrupted')}. Results are partial.`, '');
  for (const e of r.errors) out.push(`> Error: ${mdText(ciText(e))}`, '');
  for (const n of r.meta.notes ?? []) out.push(`> Note: ${mdText(n)}`, '');

  const rules = r.load.reduce((s, p) => s + ruleViolations(r.findings, p.name), 0);
  out.push(
    '| Checks | Passed | Failed | Warned | Inconclusive | Skipped | Errored | Findings | Thresholds breached | Rate-limit rules broken |',
  );
  out.push('|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|');
  out.push(
    `| ${n.checks.total} | ${n.checks.passed} | ${n.checks.failed} | ${n.checks.warned} | ${n.checks.inconclusive} | ${n.checks.skipped} | ${n.checks.error} | ${n.findings.error} errors, ${n.findings.warning} warnings | ${n.thresholds.failed} of ${n.thresholds.total}${n.thresholds.notJudged ? ` (${n.thresholds.notJudged} not judged)` : ''} | ${rules}${n.violations ? ` (in ${n.violations} windows)` : ''} |`,
    '',
  );

  const failing = groupFindings(r.findings.filter((f) => f.severity === 'error'));
  if (failing.length > 0) {
    out.push('### Failing checks', '', '| Clause | Check | Count | Expected → actual | Windows | Source |', '|---|---|---:|---|---|---|');
    for (const g of failing.slice(0, maxRows)) {
      const what = occurrenceLines(g)
        .map((l) => mdText(l, 240))
        .join('<br>');
      out.push(
        `| ${mdText(clauseLabel(g.clause), 80)} | ${mdText(g.title, 120)} | ${g.count} | ${what} | ${windowsOf(r, g.source, g.clause)} | ${mdText(g.source, 40)} |`,
      );
    }
    if (failing.length > maxRows) out.push('', `…and ${failing.length - maxRows} more checks in the full report.`);
    out.push('');
  }
  const warned = groupFindings(r.findings.filter((f) => f.severity === 'warning'));
  if (warned.length > 0) {
    out.push('### Warnings (assumed basis)', '');
    for (const g of warned.slice(0, maxRows))
      out.push(
        `- ${mdText(clauseLabel(g.clause), 80)} ${mdText(g.title, 120)}${g.count > 1 ? ` (×${g.count})` : ''}: ${mdText(occurrenceLines(g, 1)[0] ?? '', 240)}`,
      );
    if (warned.length > maxRows) out.push(`- …and ${warned.length - maxRows} more in the full report.`);
    out.push('');
  }
  const unjudged = r.checks.filter((c) => c.status === 'inconclusive');
  if (unjudged.length > 0) {
    out.push(`### Checks that could not judge${r.meta.failOnInconclusive ? ' (the gate requires a verdict)' : ''}`, '');
    for (const c of unjudged.slice(0, maxRows))
      out.push(
        `- ${mdText(c.checkId, 80)}: ${mdText(ciText(c.reason ?? ''), 200)}${c.remedy ? ` — to judge it: ${mdText(c.remedy, 160)}` : ''}`,
      );
    if (unjudged.length > maxRows) out.push(`- …and ${unjudged.length - maxRows} more in the full report.`);
    out.push('');
  }
  const errored = r.checks.filter((c) => c.status === 'error');
  if (errored.length > 0) {
    out.push('### Checks that errored', '');
    for (const c of errored.slice(0, maxRows))
      out.push(`- ${mdText(clauseLabel(c.clause), 80)} ${mdText(c.checkId, 80)}: ${mdText(ciText(c.reason ?? 'error'), 200)}`);
    out.push('');
  }

  if (r.load.length > 0) {
    out.push(
      '### Load',
      '',
      '| Profile | Status | Requests | Mean | Peak | p50 | p99 | 429s | Errors | Thresholds | Rate-limit rules broken |',
      '|---|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|',
    );
    for (const p of r.load) {
      const breached = p.thresholds.filter((t) => !t.ok).length;
      const unjudged = p.thresholds.filter((t) => t.notJudged !== undefined).length;
      const broken = ruleViolations(r.findings, p.name);
      out.push(
        `| ${mdText(p.name, 60)} | ${p.status} | ${fmtInt(p.totals.completed)} | ${fmtRps(p.throughput.meanRps)} | ${fmtRps(p.throughput.peakRps)} | ${fmtMs(profileP50(p))} | ${fmtMs(profileP99(p))} | ${fmtInt(count429(p.totals.byStatus))} | ${fmtInt(p.totals.errors)} | ${p.thresholds.length - breached - unjudged}/${p.thresholds.length} held${unjudged ? `, ${unjudged} not judged` : ''} | ${broken}${p.rateLimit.violations.length ? ` (${p.rateLimit.violations.length} windows)` : ''} |`,
      );
    }
    out.push('');
    for (const p of r.load) {
      if (p.thresholds.length === 0 && p.rateLimit.violations.length === 0) continue;
      out.push(`#### ${mdText(p.name, 60)}`, '');
      for (const t of p.thresholds) out.push(`- ${mdText(thresholdLine(t), 200)}`);
      const vs = p.rateLimit.violations;
      if (vs.length) {
        out.push('', '| Violation | Class | Window | Requests |', '|---|---|---|---|');
        for (const v of vs.slice(0, VIOLATIONS_SHOWN)) {
          const ids = v.samples.map((s) => s.requestId ?? `${Math.round(s.t)} ms`).slice(0, 3);
          out.push(
            `| ${mdText(clauseLabel(v.rule), 60)}: ${mdText(ciText(v.message), 200)} | ${v.class ?? 'all'}${v.key ? `, key ${mdText(v.key, 30)}` : ''} | ${windowText(v.window) || '—'} | ${mdText(ids.join(', '), 120)} |`,
          );
        }
        if (vs.length > VIOLATIONS_SHOWN) out.push('', `…and ${vs.length - VIOLATIONS_SHOWN} more violating windows in the full report.`);
      }
      out.push('');
    }
    // The generator was the bottleneck: its figures are partly its own, and a capacity is a lower bound.
    const saturated = r.load
      .filter((p) => p.generator?.saturated)
      .map(
        (p) =>
          `- **${mdText(p.name, 60)}**: generator saturated (${mdText(p.generator!.reason ?? '', 200)}) — ${mdText(p.generator!.remedy ?? '', 120)}${p.capacity?.lowerBound ? '; its capacity figure is a lower bound' : ''}`,
      );
    if (saturated.length) out.push('#### Generator', '', ...saturated.slice(0, maxRows), '');
  }
  out.push(
    opts.runUrl
      ? `The full report (index.html with charts, results.json, JUnit, CTRF) is in the artifacts of [this workflow run](${encodeURI(opts.runUrl)}).`
      : 'The full report (index.html with charts, results.json, JUnit, CTRF) is beside this file.',
    '',
  );
  return out.join('\n');
}

export const markdownReporter: Reporter = {
  name: 'markdown',
  async render(results, outDir) {
    await mkdir(outDir, { recursive: true });
    const path = join(outDir, 'summary.md');
    const runUrl = runPageUrl(process.env);
    await writeFile(path, buildMarkdown(results, runUrl ? { runUrl } : {}), 'utf8');
    return [path];
  },
};
