/** assumptions.rules: each rule governs one assumed clause; a rule switched off skips its checks. */
import { describe, expect, it } from 'vitest';
import { RULES, ruleOffReason } from '../../src/target/rules.js';
import { clause, isClauseId } from '../../src/spec/clauses.js';
import { Assumptions } from '../../src/target/schema.js';

describe('assumptions.rules', () => {
  it('defaults every rule on, and rejects unknown rule names', () => {
    expect(Assumptions.parse({}).rules).toEqual({ foreignCursorRejected: true, idempotencyPerConnection: true });
    expect(Assumptions.safeParse({ rules: { foreignCursorRejectd: false } }).success).toBe(false);
  });

  it('every rule governs a registered clause whose basis is assumed (the spec does not state it)', () => {
    for (const r of Object.values(RULES)) {
      expect(isClauseId(r.clause), r.clause).toBe(true);
      expect(clause(r.clause as never).basis, r.clause).toBe('assumed');
    }
  });

  it('names the switch when a rule is off, and nothing otherwise', () => {
    const a = Assumptions.parse({ rules: { idempotencyPerConnection: false } });
    expect(ruleOffReason('idempotency.per-connection', a)).toMatch(/^assumptions\.rules\.idempotencyPerConnection is false/);
    expect(ruleOffReason('4.4.cursor.filter-bound', a)).toBeUndefined();
    expect(ruleOffReason('4.4.cursor.tampered', a)).toBeUndefined();
  });

  it('rateLimitWaitSeconds defaults to 60 and is bounded', () => {
    expect(Assumptions.parse({}).rateLimitWaitSeconds).toBe(60);
    expect(Assumptions.safeParse({ rateLimitWaitSeconds: -1 }).success).toBe(false);
    expect(Assumptions.safeParse({ rateLimitWaitSeconds: 86_400 }).success).toBe(false);
    expect(Assumptions.parse({ statuses: {} }).statuses.notFound).toBe(404);
  });
});
