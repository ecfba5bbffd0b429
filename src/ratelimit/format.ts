/** Plain-text rendering of a rate-limit analysis, precise enough to paste into a bug report. Pure. */
import type { RateLimitAnalysis } from '../results/schema.js';
import { clause, isClauseId } from '../spec/clauses.js';

const ms = (t: number): string => `${(t / 1000).toFixed(3)} s`;

/** Renders every budget's summary and every violation with its rule, window and cited responses. */
export function formatAnalysis(a: RateLimitAnalysis): string {
  const lines: string[] = [];
  if (a.classes.length === 0) lines.push('No responses to analyze.');
  for (const c of a.classes) {
    lines.push(c.explanation);
    const shown = c.windows.slice(0, 12);
    for (const w of shown) lines.push(`  window ${ms(w.start)} – ${ms(w.end)}: ${w.admitted} admitted, ${w.refused} refused`);
    if (c.windows.length > shown.length) lines.push(`  … ${c.windows.length - shown.length} more windows`);
  }
  lines.push('');
  if (a.violations.length === 0) {
    lines.push('No rate-limit violations.');
    return lines.join('\n') + '\n';
  }
  lines.push(`${a.violations.length} rate-limit violation${a.violations.length === 1 ? '' : 's'}:`);
  for (const v of a.violations) {
    const cl = isClauseId(v.rule) ? clause(v.rule) : undefined;
    const who = [v.class, v.key ? `key ${v.key}` : undefined].filter(Boolean).join(', ');
    const basis = cl ? (v.dialect ? `standard: ${v.dialect} dialect, not the spec's headers` : cl.basis) : '';
    lines.push(`✗ ${v.rule}${cl ? ` (${cl.section}, ${basis})` : ''}${who ? ` [${who}]` : ''}: ${v.message}`);
    if (cl) lines.push(`    rule: ${cl.summary}`);
    if (v.window) lines.push(`    window: ${ms(v.window.start)} – ${ms(v.window.end)}`);
    for (const s of v.samples) lines.push(`    at ${ms(s.t)}  ${s.status}  ${s.class ?? ''}  ${s.requestId ?? '(no request id)'}`);
  }
  return lines.join('\n') + '\n';
}

/** Violations per rule before and after (replay), one line per rule that appears in either. */
export function formatComparison(before: RateLimitAnalysis, after: RateLimitAnalysis): string {
  const count = (a: RateLimitAnalysis) => {
    const m = new Map<string, number>();
    for (const v of a.violations) m.set(v.rule, (m.get(v.rule) ?? 0) + 1);
    return m;
  };
  const b = count(before);
  const a = count(after);
  const rules = [...new Set([...b.keys(), ...a.keys()])].sort();
  const lines = ['Violations before → after replay:'];
  if (rules.length === 0) lines.push('  none before, none after');
  for (const r of rules) {
    const x = b.get(r) ?? 0;
    const y = a.get(r) ?? 0;
    const tag = x === 0 ? 'new' : y === 0 ? 'gone' : 'still';
    lines.push(`  ${r}: ${x} → ${y} (${tag})`);
  }
  return lines.join('\n') + '\n';
}
