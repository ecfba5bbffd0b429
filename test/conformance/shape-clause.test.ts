/** Shape violations are reported under the most precise clause: 2.datetime, 2.conversation.key-pattern, 4.1.turn.get. */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { Exchange } from '../../src/client/exchange.js';
import { checkDataEnvelope, checkShape } from '../../src/checks/shape.js';
import { Conversation, CustomerPage, TurnEnvelope } from '../../src/spec/resources.js';
import * as arb from '../spec/arbitraries.js';

const noOffset = arb.dateTime.map((d) => d.slice(0, 19));
/** Not ISO 8601 at all: a date with slashes, or epoch seconds. */
const notIso = arb.dateTime.map((d) => d.slice(0, 10).replaceAll('-', '/'));
/** Keys off the pattern: display names, upper case, leading separators, too long. */
const badKey = fc.oneof(
  fc.constantFrom('Resolved', 'Waiting on customer', '-open', '_x', 'a'.repeat(64), ''),
  fc.stringMatching(/^[A-Z][a-z]{1,8}$/),
);

const clauseOf = (schema: Parameters<typeof checkShape>[0], value: unknown, clause: Parameters<typeof checkShape>[2]) =>
  checkShape(schema, value, clause, 'x')?.clause;

describe('refined shape clauses', () => {
  it('a valid resource gives no violation', () => {
    fc.assert(
      fc.property(arb.conversation, (c) => {
        expect(checkShape(Conversation, c, '2.conversation.shape', 'x')).toBeUndefined();
      }),
    );
  });

  it('only timestamps that are not ISO 8601 → 2.datetime; ISO 8601 without a zone offset → 2.datetime.rfc3339, a warning', () => {
    fc.assert(
      fc.property(arb.conversation, notIso, fc.subarray(['createdAt', 'updatedAt'], { minLength: 1 }), (c, d, fields) => {
        const v = { ...c, ...Object.fromEntries(fields.map((f) => [f, d])) };
        expect(clauseOf(Conversation, v, '2.conversation.shape')).toBe('2.datetime');
      }),
    );
    fc.assert(
      fc.property(fc.array(arb.customer, { minLength: 1, maxLength: 3 }), noOffset, (items, d) => {
        const page = { data: items.map((c) => ({ ...c, createdAt: d })), hasMore: false, nextCursor: null };
        const v = checkShape(CustomerPage, page, '2.customer.shape', 'x');
        expect([v?.clause, v?.severity]).toEqual(['2.datetime.rfc3339', 'warning']);
      }),
    );
  });

  it('only status/priority keys off the pattern → 2.conversation.key-pattern', () => {
    fc.assert(
      fc.property(arb.conversation, badKey, fc.subarray(['status', 'priority'], { minLength: 1 }), (c, key, fields) => {
        const v = { ...c, ...Object.fromEntries(fields.map((f) => [f, key])) };
        expect(clauseOf(Conversation, v, '2.conversation.shape')).toBe('2.conversation.key-pattern');
      }),
    );
  });

  it("a mix of issues, or a key issue of another kind, stays under the check's clause", () => {
    fc.assert(
      fc.property(arb.conversation, notIso, badKey, (c, d, key) => {
        expect(clauseOf(Conversation, { ...c, createdAt: d, status: key }, '2.conversation.shape')).toBe('2.conversation.shape');
        expect(clauseOf(Conversation, { ...c, status: 7 }, '2.conversation.shape')).toBe('2.conversation.shape');
        const { subject: _omitted, ...rest } = c;
        expect(clauseOf(Conversation, { ...rest, status: key }, '2.conversation.shape')).toBe('2.conversation.shape');
      }),
    );
    fc.assert(
      fc.property(arb.customer, notIso, (c, d) => {
        const page = { data: [{ ...c, createdAt: d, conversationCount: '3' }], hasMore: false, nextCursor: null };
        expect(clauseOf(CustomerPage, page, '2.customer.shape')).toBe('2.customer.shape');
      }),
    );
  });

  it('key-pattern refinement applies to conversation checks only', () => {
    expect(clauseOf(Conversation.pick({ status: true }), { status: 'Open' }, '2.conversation.shape')).toBe('2.conversation.key-pattern');
    expect(clauseOf(Conversation.pick({ status: true }), { status: 'Open' }, '2.session.shape')).toBe('2.session.shape');
  });
});

function ex(status: number, json: unknown): Exchange {
  const body = json === undefined ? 'not json' : JSON.stringify(json);
  return {
    id: 'x1',
    request: { method: 'GET', url: 'http://h/v1/ai/assistant/sessions/s/turns/t', headers: {}, bodyBytes: 0 },
    response: { status, headers: {}, body, bodyBytes: body.length, ...(json !== undefined ? { json } : {}) },
    timings: { start: 0, headers: 1, total: 2 },
  };
}

describe('checkDataEnvelope', () => {
  const check = (x: Exchange) => checkDataEnvelope(x, TurnEnvelope, '4.1.turn.get', '2.turn.shape', 'a turn');

  it('accepts { data: <turn> } with 200', () => {
    fc.assert(
      fc.property(arb.chatTurn, (t) => {
        expect(check(ex(200, { data: t }))).toBeUndefined();
      }),
    );
  });

  it('the answer itself (status, JSON, envelope) → the envelope clause', () => {
    fc.assert(
      fc.property(arb.chatTurn, (t) => {
        expect(check(ex(200, t))?.clause).toBe('4.1.turn.get');
        expect(check(ex(201, { data: t }))?.clause).toBe('4.1.turn.get');
        expect(check(ex(200, [t]))?.clause).toBe('4.1.turn.get');
      }),
    );
    expect(check(ex(404, { error: { code: 'route.not_found', message: 'm', requestId: 'req_1' } }))?.clause).toBe('4.1.turn.get');
    expect(check(ex(200, undefined))?.clause).toBe('4.1.turn.get');
    expect(check(ex(200, null))?.actual).toBe('a null');
  });

  // Regression: { data } had to be the only key, though the spec closes no shape.
  it('other top-level keys beside data are accepted', () => {
    fc.assert(
      fc.property(arb.chatTurn, fc.jsonValue({ maxDepth: 1 }), (t, meta) => {
        expect(check(ex(200, { data: t, meta }))).toBeUndefined();
      }),
    );
  });

  it('a turn off the model inside the envelope → the item clause, refined', () => {
    fc.assert(
      fc.property(arb.chatTurn, (t) => {
        const { expiresAt: _dropped, ...rest } = t;
        const v = check(ex(200, { data: rest }));
        expect(v?.clause).toBe('2.turn.shape');
        expect(v?.actual).toContain('data.expiresAt');
      }),
    );
    fc.assert(
      fc.property(arb.chatTurn, notIso, (t, d) => {
        expect(check(ex(200, { data: { ...t, expiresAt: d } }))?.clause).toBe('2.datetime');
      }),
    );
    fc.assert(
      fc.property(arb.chatTurn, noOffset, (t, d) => {
        expect(check(ex(200, { data: { ...t, expiresAt: d } }))?.clause).toBe('2.datetime.rfc3339');
      }),
    );
  });
});
