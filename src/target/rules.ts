/**
 * Rules the spec does not state, switchable in the target file (`assumptions.rules`). Each rule governs the
 * clause its `assumed` check judges; a rule switched off skips every check of that clause, with a reason
 * naming the switch, because a target that does not follow an unstated rule is not wrong.
 */
import type { Assumptions } from './schema.js';

export type RuleName = keyof Assumptions['rules'];

/** The clause each rule governs, and what following the rule means. */
export const RULES: Readonly<Record<RuleName, { clause: string; meaning: string }>> = {
  foreignCursorRejected: { clause: '4.4.cursor.filter-bound', meaning: 'cursors bound to their filters and list (4.4 does not say so)' },
  idempotencyPerConnection: {
    clause: 'idempotency.per-connection',
    meaning: 'Idempotency-Keys scoped to one connection (4.7–4.9 do not say so)',
  },
};

/** Why a check of `clause` is skipped under these assumptions, or undefined when every rule governing it is on. */
export function ruleOffReason(clause: string, assumptions: Pick<Assumptions, 'rules'>): string | undefined {
  for (const [name, rule] of Object.entries(RULES) as Array<[RuleName, (typeof RULES)[RuleName]]>) {
    if (rule.clause === clause && !assumptions.rules[name]) {
      return `assumptions.rules.${name} is false: the target does not follow ${rule.meaning}`;
    }
  }
  return undefined;
}
