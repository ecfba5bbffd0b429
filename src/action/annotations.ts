/**
 * The annotations of a results document, most important first, within what GitHub shows: at most 10 errors
 * and 10 warnings per step (the rest are dropped silently), so the 10th of a level aggregates what did not
 * fit. Findings are one annotation per check (grouped with a count), and every text is CI text
 * (report/failures.ts): no response body, no personal data. Pure.
 */
import type { Results } from '../results/schema.js';
import { ciText, groupFindings, occurrenceLines, thresholdLine, windowText } from '../report/failures.js';

/** GitHub shows this many annotations of one level per step. */
export const ANNOTATIONS_PER_LEVEL = 10;

export type Level = 'error' | 'warning' | 'notice';

/** One annotation: its level, title and message. */
export interface Annotation {
  level: Level;
  title: string;
  message: string;
}

/** Every annotation of a run, in order of importance within each level (run errors, thresholds, checks, violations). */
export function allAnnotations(r: Results): Annotation[] {
  const out: Annotation[] = r.errors.map((e) => ({ level: 'error', title: 'spgate run error', message: ciText(e) }));
  for (const p of r.load) {
    for (const t of p.thresholds)
      if (!t.ok) out.push({ level: 'error', title: `threshold ${t.expression} (${p.name})`, message: `breached: ${thresholdLine(t)}` });
      else if (t.notJudged !== undefined)
        out.push({ level: 'notice', title: `threshold ${t.expression} (${p.name})`, message: thresholdLine(t) });
  }
  for (const g of groupFindings(r.findings)) {
    out.push({
      level: g.severity === 'error' ? 'error' : 'warning',
      title: `${g.checkId} (${g.clause})${g.count > 1 ? ` ×${g.count}` : ''}`,
      message: [`${g.title}`, ...occurrenceLines(g), ...(g.rerun ? [`re-run: ${g.rerun}`] : [])].join('\n'),
    });
  }
  for (const p of r.load) {
    // Analyzer violations of a rule the findings above do not already cover, one annotation per rule and class.
    const covered = new Set(r.findings.filter((f) => f.source === p.name).map((f) => f.clause));
    const byRule = new Map<string, typeof p.rateLimit.violations>();
    for (const v of p.rateLimit.violations) {
      if (covered.has(v.rule)) continue;
      const k = `${v.rule} ${v.class ?? ''}`;
      byRule.set(k, [...(byRule.get(k) ?? []), v]);
    }
    for (const vs of byRule.values()) {
      const v = vs[0]!;
      out.push({
        level: 'error',
        title: `${v.rule} (${p.name}${v.class ? `, ${v.class}` : ''})${vs.length > 1 ? ` ×${vs.length}` : ''}`,
        message: `${ciText(v.message)}${v.window ? ` · window ${windowText(v.window)}` : ''}`,
      });
    }
  }
  for (const c of r.checks) {
    if (c.status === 'inconclusive')
      out.push({
        level: r.meta.failOnInconclusive ? 'error' : 'notice',
        title: `${c.checkId} (${c.clause}) inconclusive`,
        message: `${ciText(c.reason ?? '')}${c.remedy ? ` — to judge it: ${c.remedy}` : ''}`,
      });
  }
  return out;
}

/**
 * At most `max` annotations per level: the first max − 1 as they are, and one that names the rest (GitHub
 * would drop them without a word). Order within a level is kept.
 */
export function capAnnotations(list: readonly Annotation[], max = ANNOTATIONS_PER_LEVEL): Annotation[] {
  const out: Annotation[] = [];
  for (const level of ['error', 'warning', 'notice'] as const) {
    const mine = list.filter((a) => a.level === level);
    if (mine.length <= max) {
      out.push(...mine);
      continue;
    }
    const rest = mine.slice(max - 1);
    out.push(...mine.slice(0, max - 1), {
      level,
      title: `${rest.length} more ${level}s`,
      message: `${rest.map((a) => a.title).join('\n')}\n(every one is in the step summary and the report)`,
    });
  }
  return out;
}
