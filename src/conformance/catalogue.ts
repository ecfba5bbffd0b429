/**
 * The check catalogue as documentation rows: id, clause, basis, what the check needs from the target
 * (key roles, allowWrites, fixture fields) and what it checks. docs/conformance.md holds one table row per
 * check in exactly this form, and test/conformance/docs.test.ts keeps the two in step. Pure.
 */
import { clause } from '../spec/clauses.js';
import { NEEDS, type NeedKind } from './fixtures/needs.js';
import type { CheckDef, SuiteDef } from './suite.js';

/** "keys readOnly · allowWrites · fixtures.ids.conversationId" — what a check needs, or "—". */
export function needsText(check: CheckDef): string {
  const n = check.needs ?? {};
  const parts: string[] = [];
  if (n.roles?.length) parts.push(`key ${n.roles.join(', ')}`);
  if (n.writes) parts.push('allowWrites');
  if (n.fixtures) parts.push('fixtures.api');
  for (const [kind, count] of Object.entries(n.data ?? {}) as Array<[NeedKind, number]>) {
    const info = NEEDS[kind];
    parts.push(info.pooled ? `${info.field} ×${count}` : info.field);
  }
  return parts.length ? parts.join(' · ') : '—';
}

/** The docs table row of a check. */
export function checkRow(check: CheckDef): string {
  return `| ${check.id} | ${check.clause} | ${clause(check.clause).basis} | ${needsText(check)} | ${check.title.replaceAll('|', '\\|')} |`;
}

/** The docs section listing every check of `suites`, one table per suite. */
export function catalogueMarkdown(suites: readonly SuiteDef[]): string {
  const out: string[] = [];
  for (const s of suites) {
    out.push(
      `### ${s.name}`,
      '',
      s.description,
      '',
      '| id | clause | basis | needs | checks |',
      '|-|-|-|-|-|',
      ...s.checks.map(checkRow),
      '',
    );
  }
  return out.join('\n');
}
