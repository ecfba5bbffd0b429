/** The pure checks that split what the spec says from the status it does not show. */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { Exchange } from '../../src/client/exchange.js';
import { checkCodeThenStatus, checkRejectedWith } from '../../src/checks/assumed-status.js';

function ex(status: number, json?: unknown): Exchange {
  const body = json === undefined ? '' : JSON.stringify(json);
  return {
    id: 'x1',
    request: { method: 'GET', url: 'http://h/v1/nope', headers: {}, bodyBytes: 0 },
    response: { status, headers: {}, body, bodyBytes: body.length, ...(json !== undefined ? { json } : {}) },
    timings: { start: 0, total: 1 },
  };
}
const err = (code: string) => ({ error: { code, message: 'm', requestId: 'req_1', details: { any: 'thing' } } });
const notFound = (x: Exchange, status = 404) =>
  checkCodeThenStatus(x, 'route.not_found', '7.route.not-found', status, '7.route.not-found-status');

describe('checkCodeThenStatus', () => {
  it('passes the code with the assumed status', () => {
    expect(notFound(ex(404, err('route.not_found')))).toBeUndefined();
    expect(notFound(ex(400, err('route.not_found')), 400)).toBeUndefined();
  });

  it('any other status with the right code is an assumption violation only', () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 100, max: 599 }).filter((s) => s !== 404),
        (s) => {
          expect(notFound(ex(s, err('route.not_found')))?.clause).toBe('7.route.not-found-status');
        },
      ),
    );
  });

  it('a wrong or missing code is a spec violation whatever the status', () => {
    fc.assert(
      fc.property(fc.integer({ min: 100, max: 599 }), fc.constantFrom('not_found', 'ROUTE_NOT_FOUND', ''), (s, code) => {
        expect(notFound(ex(s, err(code)))?.clause).toBe('7.route.not-found');
        expect(notFound(ex(s, { message: 'no envelope' }))?.clause).toBe('7.route.not-found');
      }),
    );
  });
});

describe('checkRejectedWith', () => {
  const pair = (x: Exchange, status = 400) =>
    checkRejectedWith(x, status, 'a lone identityIdentifier', '4.4.identity.pair', '4.4.identity.pair-status');

  it('the assumed status passes; another 4xx only breaks the assumption; anything else breaks the spec', () => {
    expect(pair(ex(400, err('x')))).toBeUndefined();
    expect(pair(ex(422, err('x')), 422)).toBeUndefined();
    fc.assert(
      fc.property(
        fc.integer({ min: 100, max: 599 }).filter((s) => s !== 400),
        (s) => {
          expect(pair(ex(s, err('x')))?.clause).toBe(s >= 400 && s < 500 ? '4.4.identity.pair-status' : '4.4.identity.pair');
        },
      ),
    );
  });

  it('a transport error is a spec violation (no rejection was seen)', () => {
    const x: Exchange = { ...ex(400), response: undefined, error: { kind: 'timeout', message: 't' } } as Exchange;
    expect(pair(x)?.clause).toBe('4.4.identity.pair');
  });
});
