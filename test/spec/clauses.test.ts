import { describe, expect, it } from 'vitest';
import { CLAUSES, clause, isClauseId, type ClauseId } from '../../src/spec/clauses.js';
import { FAULTS } from '../../src/reference/faults.js';

describe('clause registry', () => {
  it('ids are unique', () => {
    const ids = CLAUSES.map((c) => c.id);
    expect(new Set(ids).size).toBe(ids.length);
  });

  it('every clause has a section, a summary and a basis', () => {
    for (const c of CLAUSES) {
      expect(c.section, c.id).toMatch(/^§\d+(\.\d+)?/);
      expect(c.summary.trim().length, c.id).toBeGreaterThan(10);
      expect(['spec', 'standard', 'assumed'], c.id).toContain(c.basis);
    }
  });

  it('lookup returns the clause; unknown ids are refused', () => {
    expect(clause('4.4.cursor.tampered').section).toBe('§4.4');
    expect(isClauseId('4.4.cursor.tampered')).toBe(true);
    expect(isClauseId('no.such.clause')).toBe(false);
    expect(() => clause('no.such.clause' as ClauseId)).toThrow(/unknown clause id/);
  });

  it('every fault of the reference server names a registered clause', () => {
    for (const [name, f] of Object.entries(FAULTS)) expect(isClauseId(f.catches), `${name} → ${f.catches}`).toBe(true);
  });
});
