/** The pure id-prefix check: which ids it finds in an exchange and which it reports. */
import { describe, expect, it } from 'vitest';
import type { Exchange } from '../../src/client/exchange.js';
import { checkIdPrefixes, conversationIdsOf, customerPageIdsOf, requestIdsOf } from '../../src/checks/id-prefixes.js';

function x(status: number, headers: Record<string, string>, json: unknown): Exchange {
  const body = JSON.stringify(json);
  return {
    id: 'x1',
    request: { method: 'GET', url: 'http://h/v1/customers', headers: {}, bodyBytes: 0 },
    response: { status, headers, body, bodyBytes: body.length, json },
    timings: { start: 0, headers: 1, total: 2 },
  };
}

const conv = { id: 'conv_1', customerId: 'cus_1', channelIdentityId: 'cid_1' };

describe('checkIdPrefixes', () => {
  it('passes prefixed ids, a null channelIdentityId and absent or non-string values', () => {
    expect(checkIdPrefixes(conversationIdsOf(conv))).toBeUndefined();
    expect(checkIdPrefixes(conversationIdsOf({ ...conv, channelIdentityId: null }))).toBeUndefined();
    expect(checkIdPrefixes(customerPageIdsOf({ data: [{ id: 'cus_a' }, { id: 7 }, {}] }))).toBeUndefined();
    expect(checkIdPrefixes(requestIdsOf(x(200, {}, {})))).toBeUndefined();
  });

  it('names every id without its prefix, under 2.id-prefixes', () => {
    const v = checkIdPrefixes([
      ...conversationIdsOf({ id: '42', customerId: 'cus_1', channelIdentityId: 'ident_9' }),
      ...customerPageIdsOf({ data: [{ id: 'c1' }] }),
    ]);
    expect(v?.clause).toBe('2.id-prefixes');
    expect(v?.actual).toBe('id "42"; channelIdentityId "ident_9"; data.0.id "c1"');
    expect(v?.expected).toBe('conversation ids starting conv_; channelIdentity ids starting cid_; customer ids starting cus_');
  });

  it('reads X-Request-Id always and error.requestId on errors only', () => {
    const err = x(404, { 'x-request-id': 'abc' }, { error: { code: 'route.not_found', message: 'm', requestId: 'abc' } });
    expect(requestIdsOf(err).map((i) => i.where)).toEqual(['X-Request-Id', 'error.requestId']);
    expect(checkIdPrefixes(requestIdsOf(err))?.actual).toBe('X-Request-Id "abc"; error.requestId "abc"');
    expect(requestIdsOf(x(200, { 'x-request-id': 'req_1' }, { error: { requestId: 'zzz' } })).map((i) => i.value)).toEqual(['req_1']);
  });

  it('lists at most `max` offenders', () => {
    const ids = customerPageIdsOf({ data: Array.from({ length: 8 }, (_, i) => ({ id: `u${i}` })) });
    expect(checkIdPrefixes(ids, 2)?.actual).toBe('data.0.id "u0"; data.1.id "u1"; … 6 more');
  });
});
