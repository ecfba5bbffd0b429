/**
 * The closed engine's header-name match (no lowercased copy per header) agrees with lowercasing: every
 * casing of the five captured names is found, and names that differ by one character, or only share the
 * length, are not.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { headerSlot } from '../../src/load/header-slot.js';

const NAMES = ['ratelimit-limit', 'ratelimit-remaining', 'ratelimit-reset', 'retry-after', 'x-request-id'];
/** The match by lowercasing, as the engine used to do it. */
const byLowercase = (name: string): number => NAMES.indexOf(name.toLowerCase());

describe('closed engine header names', () => {
  it('finds every casing of the captured names', () => {
    for (const n of NAMES) {
      expect(headerSlot(n)).not.toBe(0);
      expect(headerSlot(n.toUpperCase())).toBe(headerSlot(n));
      expect(headerSlot(n.replace(/(^|-)([a-z])/g, (m) => m.toUpperCase()))).toBe(headerSlot(n));
    }
    expect(new Set(NAMES.map(headerSlot)).size).toBe(NAMES.length);
  });

  it('agrees with lowercasing on arbitrary names', () => {
    const mutated = fc
      .tuple(
        fc.constantFrom(...NAMES, 'content-type', 'x-request-ix', 'ratelimit-resex', 'retry_after'),
        fc.nat(),
        fc.string({ minLength: 1, maxLength: 1 }),
      )
      .map(([n, i, c]) => (i % 3 === 0 ? n.slice(0, i % n.length) + c + n.slice((i % n.length) + 1) : i % 3 === 1 ? n.toUpperCase() : n));
    fc.assert(
      fc.property(fc.oneof(mutated, fc.string({ maxLength: 20 })), (name) => {
        const want = byLowercase(name);
        const got = headerSlot(name);
        if (want < 0) expect(got).toBe(0);
        else expect(got).toBe(headerSlot(NAMES[want]!));
      }),
      { numRuns: 3000, seed: 5 },
    );
  });
});
