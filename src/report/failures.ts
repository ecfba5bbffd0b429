/**
 * What failed, as CI-facing text (the console of a failed run, the step summary, annotations): findings
 * grouped by check with a count and what differs between occurrences, every threshold with ✓/✗ and its
 * actual value, and the first rate-limit violations with their window and request ids. Everything that came
 * from a response goes through `ciText`, so no body text or personal data reaches a CI log. Pure.
 */
import { redactPersonal } from '../client/personal.js';
import type { FindingRecord, ProfileResult, Results, ThresholdResult } from '../results/schema.js';
import { clauseLabel } from './clauses.js';

/** Occurrences listed per finding group before "and N more". */
export const OCCURRENCES_SHOWN = 3;
/** Rate-limit violations listed per profile before "and N more". */
export const VIOLATIONS_SHOWN = 5;

/**
 * A finding's text for CI-facing output: response data redacted (client/personal.ts), and exchange ids
 * (`x1231`), which only the HTML report resolves, said for what they are.
 */
export function ciText(s: string): string {
  return redactPersonal(s)
    .replace(/ ?\((?:x\d+(?:, )?)+\)/g, '')
    .replace(/\bx(\d+)\b/g, 'response x$1 of the HTML report');
}

/** One check's findings: how often it broke, and each distinct expected/actual pair (CI text). */
export interface FindingGroup {
  checkId: string;
  clause: string;
  title: string;
  severity: FindingRecord['severity'];
  source: string;
  count: number;
  /** Distinct (expected, actual) pairs in the order they occurred. */
  occurrences: Array<{ expected: string; actual: string }>;
  /** The first finding's re-run command and curl lines (the key is never in them). */
  rerun?: string;
  curl: string[];
}

/** Findings grouped by check (id, clause, source), in the order each check first failed. */
export function groupFindings(findings: readonly FindingRecord[]): FindingGroup[] {
  const groups = new Map<string, FindingGroup>();
  for (const f of findings) {
    const k = `${f.source}\u0000${f.checkId}\u0000${f.clause}\u0000${f.severity}`;
    let g = groups.get(k);
    if (!g) {
      g = {
        checkId: f.checkId,
        clause: f.clause,
        title: f.title,
        severity: f.severity,
        source: f.source,
        count: 0,
        occurrences: [],
        curl: f.reproduction?.curl ?? [],
        ...(f.reproduction?.command ? { rerun: f.reproduction.command } : {}),
      };
      groups.set(k, g);
    }
    g.count++;
    const o = { expected: ciText(f.expected), actual: ciText(f.actual) };
    if (!g.occurrences.some((x) => x.expected === o.expected && x.actual === o.actual)) g.occurrences.push(o);
  }
  return [...groups.values()];
}

/** "expected E; actual A" for each shown occurrence; one "expected" line when they all share it. */
export function occurrenceLines(g: FindingGroup, max = OCCURRENCES_SHOWN): string[] {
  const shown = g.occurrences.slice(0, max);
  const sameExpected = shown.every((o) => o.expected === shown[0]!.expected);
  const lines =
    sameExpected && shown.length > 1
      ? [`expected ${shown[0]!.expected}; actual:`, ...shown.map((o) => `  ${o.actual}`)]
      : shown.map((o) => `expected ${o.expected}; actual ${o.actual}`);
  const rest = g.occurrences.length - shown.length;
  if (rest > 0) lines.push(`…and ${rest} more different occurrence(s) in the HTML report`);
  return lines;
}

/** The heading of a group: mark, clause, check id, count, title and where it came from. */
export function groupHeading(g: FindingGroup): string {
  const mark = g.severity === 'error' ? '✗' : '!';
  return `${mark} ${clauseLabel(g.clause)} ${g.checkId}${g.count > 1 ? ` ×${g.count}` : ''} — ${g.title} (${g.source})`;
}

/** Console lines of every finding group: heading, expected/actual, the re-run line and the last curl line. */
export function findingGroupLines(findings: readonly FindingRecord[], indent = '  '): string[] {
  const out: string[] = [];
  for (const g of groupFindings(findings)) {
    out.push(`${indent}${groupHeading(g)}`);
    for (const l of occurrenceLines(g)) out.push(`${indent}    ${l}`);
    if (g.rerun) out.push(`${indent}    re-run: ${g.rerun}`);
    const curl = g.curl.filter((c) => !c.startsWith('#') || /trace|replay|shrink|violat/.test(c));
    for (const c of curl.slice(-4)) out.push(`${indent}    ${redactPersonal(c)}`);
  }
  return out;
}

/** "✓ read.p95 < 250 (actual 12.3)" — one line per threshold. */
export function thresholdLine(t: ThresholdResult): string {
  if (t.notJudged !== undefined) return `? ${t.expression} (actual ${ciText(t.actual)}; ${ciText(t.notJudged)})`;
  return `${t.ok ? '✓' : '✗'} ${t.expression} (actual ${ciText(t.actual)})`;
}

/** Seconds since the profile started, for window times: "12.0 s". */
function at(ms: number): string {
  return `${(ms / 1000).toFixed(1)} s`;
}

/** The window of a violation as "12.0–13.0 s", or "" when the analyzer gave none. */
export function windowText(w: { start: number; end: number } | undefined): string {
  return w ? `${(w.start / 1000).toFixed(1)}–${at(w.end)}` : '';
}

/** The first violations of a profile: rule, class, message, window and cited request ids. */
export function violationLines(p: ProfileResult, max = VIOLATIONS_SHOWN): string[] {
  const vs = p.rateLimit.violations;
  const out = vs.slice(0, max).map((v) => {
    const ids = v.samples.map((s) => s.requestId ?? `${Math.round(s.t)} ms`).slice(0, 5);
    return `✗ ${clauseLabel(v.rule)}${v.class ? ` (${v.class}${v.key ? `, key ${v.key}` : ''})` : ''}: ${ciText(v.message)}${v.window ? ` · window ${windowText(v.window)}` : ''}${ids.length ? ` · requests ${ids.join(', ')}` : ''}`;
  });
  if (vs.length > max) out.push(`…and ${vs.length - max} more violating window(s) in the HTML report`);
  return out;
}

/**
 * Rate-limit findings of a profile: the rules broken (per class), which is what the `ratelimit.violations`
 * threshold counts; the analyzer's violations are per window, so one broken rule can span many.
 */
export function ruleViolations(findings: readonly FindingRecord[], profile: string): number {
  return findings.filter((f) => f.source === profile && f.clause.startsWith('8.ratelimit')).length;
}

/** The console block of what failed in a run (empty when nothing did and nothing warned). */
export function failureLines(r: Results): string[] {
  const out: string[] = [];
  const errors = r.findings.filter((f) => f.severity === 'error');
  const warnings = r.findings.filter((f) => f.severity === 'warning');
  if (errors.length)
    out.push(
      '',
      `failed (${groupFindings(errors).length} checks, ${errors.length} findings; export SPGATE_BASE_URL and SPGATE_API_KEY to run the curl lines):`,
      ...findingGroupLines(errors),
    );
  if (warnings.length) out.push('', `warnings (${warnings.length}):`, ...groupFindings(warnings).map((g) => `  ${groupHeading(g)}`));
  const errored = r.checks.filter((c) => c.status === 'error');
  if (errored.length)
    out.push('', 'errored checks:', ...errored.map((c) => `  ✗ ${clauseLabel(c.clause)} ${c.checkId}: ${ciText(c.reason ?? 'error')}`));
  for (const p of r.load) {
    if (p.thresholds.length) out.push('', `thresholds of ${p.name}:`, ...p.thresholds.map((t) => `  ${thresholdLine(t)}`));
    const v = violationLines(p);
    if (v.length)
      out.push(
        '',
        `rate-limit violations of ${p.name} (${ruleViolations(r.findings, p.name)} rule(s) broken, in ${p.rateLimit.violations.length} window(s)):`,
        ...v.map((l) => `  ${l}`),
      );
  }
  return out;
}
