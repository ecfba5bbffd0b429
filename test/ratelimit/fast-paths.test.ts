/**
 * The analyzer's fast paths give what the general code gives: the integer parse's character loop against
 * the regular-expression definition, and the group's insertion sort (with its fallback) against a plain
 * comparison sort, on nearly sorted and on shuffled inputs with ties.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { buildGroup } from '../../src/ratelimit/group.js';
import { intOrNull, parseIntValue, parseSignedInt, plainInt, type ParsedSample } from '../../src/ratelimit/parsed.js';

/** The definitions the fast paths must agree with (spec: a non-negative integer, spaces allowed). */
function reference(raw: string | undefined): { int: number | null; signed: number | null } {
  if (raw === undefined) return { int: null, signed: null };
  const t = raw.trim();
  const int = /^\d+$/.test(t) && Number.isSafeInteger(Number(t)) ? Number(t) : null;
  const signed = /^-?\d+$/.test(t) && Number.isSafeInteger(Number(t)) ? Number(t) : null;
  return { int, signed };
}

const headerValue = fc.oneof(
  fc.stringMatching(/^\d{1,20}$/),
  fc.stringMatching(/^[ \t]?-?\d{0,17}[ \t]?$/),
  fc.constantFrom('', ' ', '1.5', '1e3', '0x10', '٣', '12a', '+5', '007', '999999999999999', '9007199254740993'),
  fc.string({ maxLength: 6 }),
);

describe('integer fast path', () => {
  it('plainInt, parseIntValue, intOrNull and parseSignedInt agree with the definitions', () => {
    fc.assert(
      fc.property(fc.option(headerValue, { nil: undefined }), (raw) => {
        const want = reference(raw);
        const p = parseIntValue(raw);
        expect(p.ok ? p.value : null).toBe(want.int);
        expect(intOrNull(raw)).toBe(want.int);
        expect(parseSignedInt(raw)).toBe(want.signed);
        if (raw !== undefined) expect(plainInt(raw)).toBe(/^\d{1,15}$/.test(raw) ? Number(raw) : -1);
      }),
      { numRuns: 3000, seed: 7 },
    );
  });
});

function sample(index: number, sentAt: number, receivedAt: number, admitted: boolean): ParsedSample {
  return {
    index,
    sentAt,
    receivedAt,
    class: 'read',
    key: '',
    status: admitted ? 200 : 429,
    admitted,
    refused: !admitted,
    limit: null,
    remaining: null,
    reset: null,
    retryAfter: null,
    raw: { sentAt, receivedAt, class: 'read', status: admitted ? 200 : 429 },
  };
}

describe('group sort', () => {
  it('equals a comparison sort by time then input order, nearly sorted or not', () => {
    const times = fc.array(fc.record({ t: fc.integer({ min: 0, max: 400 }), lat: fc.integer({ min: 0, max: 30 }), ok: fc.boolean() }), {
      maxLength: 300,
    });
    fc.assert(
      fc.property(times, fc.boolean(), (rows, nearly) => {
        // Nearly sorted: completion order with small latencies (the engines' case); else arbitrary order.
        const list = rows.map((r, i) => (nearly ? sample(i, i * 10 - r.lat, i * 10 + (r.t % 3), r.ok) : sample(i, r.t, r.t + r.lat, r.ok)));
        const g = buildGroup('', 'read', list);
        const bySent = [...list].sort((a, b) => a.sentAt - b.sentAt || a.index - b.index);
        const byReceived = [...list].sort((a, b) => a.receivedAt - b.receivedAt || a.index - b.index);
        expect(g.bySent).toEqual(bySent);
        expect(g.byReceived).toEqual(byReceived);
        expect(g.receivedTimes).toEqual(byReceived.map((s) => s.receivedAt));
        expect(g.admittedSent).toEqual(
          list
            .filter((s) => s.admitted)
            .map((s) => s.sentAt)
            .sort((a, b) => a - b),
        );
        expect(g.admittedReceived).toEqual(
          list
            .filter((s) => s.admitted)
            .map((s) => s.receivedAt)
            .sort((a, b) => a - b),
        );
      }),
      { numRuns: 500, seed: 3 },
    );
  });
});
