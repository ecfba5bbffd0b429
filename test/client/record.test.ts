import { describe, expect, it } from 'vitest';
import { parseJsonBody, recordExchange } from '../../src/client/record.js';
import { createRedactor } from '../../src/client/redact.js';
import { ClientAbort, classifyTransportError } from '../../src/client/transport-error.js';

const withCode = (message: string, code: string, cause?: unknown): Error => Object.assign(new Error(message, { cause }), { code });

describe('classifyTransportError', () => {
  it.each([
    [withCode('connect ECONNREFUSED 127.0.0.1:1', 'ECONNREFUSED'), 'refused'],
    [withCode('other side closed', 'UND_ERR_SOCKET'), 'reset'],
    [withCode('read ECONNRESET', 'ECONNRESET'), 'reset'],
    [withCode('Headers Timeout Error', 'UND_ERR_HEADERS_TIMEOUT'), 'timeout'],
    [withCode('Connect Timeout Error', 'UND_ERR_CONNECT_TIMEOUT'), 'timeout'],
    [withCode('Body Timeout Error', 'UND_ERR_BODY_TIMEOUT'), 'timeout'],
    [new ClientAbort('too-large', 'response body exceeds 10 bytes'), 'too-large'],
    [new Error('something odd'), 'other'],
    ['a thrown string', 'other'],
  ] as const)('%s → %s', (err, kind) => {
    expect(classifyTransportError(err).kind).toBe(kind);
  });

  it('looks through causes and AggregateErrors (IPv4 and IPv6 both refused)', () => {
    const agg = new AggregateError(
      [withCode('connect ECONNREFUSED ::1:9', 'ECONNREFUSED'), withCode('connect ECONNREFUSED 127.0.0.1:9', 'ECONNREFUSED')],
      '',
    );
    expect(classifyTransportError(agg).kind).toBe('refused');
    expect(classifyTransportError(new TypeError('fetch failed', { cause: withCode('x', 'UND_ERR_SOCKET') })).kind).toBe('reset');
  });

  it('a ClientAbort anywhere in the chain decides the kind', () => {
    expect(
      classifyTransportError(withCode('aborted', 'UND_ERR_ABORTED', new ClientAbort('timeout', 'no complete response within 5 ms'))),
    ).toEqual({
      kind: 'timeout',
      message: 'no complete response within 5 ms',
    });
  });

  it('messages are one line and carry the code', () => {
    const e = classifyTransportError(withCode('first line\nsecond line', 'EWEIRD'));
    expect(e).toEqual({ kind: 'other', message: 'EWEIRD: first line' });
  });
});

describe('parseJsonBody', () => {
  it('parses by content type or by the first character', () => {
    expect(parseJsonBody('application/json; charset=utf-8', '{"a":1}')).toEqual({ kind: 'parsed', value: { a: 1 } });
    expect(parseJsonBody('application/problem+json', '[1]')).toEqual({ kind: 'parsed', value: [1] });
    expect(parseJsonBody(undefined, '  {"a":1}')).toEqual({ kind: 'parsed', value: { a: 1 } });
    expect(parseJsonBody('text/plain', 'hello')).toEqual({ kind: 'none' });
    expect(parseJsonBody(undefined, '')).toEqual({ kind: 'none' });
  });

  it('reports JSON that does not parse, including an empty body declared as JSON', () => {
    expect(parseJsonBody('application/json', '<html>')).toMatchObject({ kind: 'invalid' });
    expect(parseJsonBody('application/json', '')).toEqual({ kind: 'invalid', reason: 'empty body' });
    expect(parseJsonBody('text/html', '{oops')).toMatchObject({ kind: 'invalid' });
  });
});

describe('recordExchange', () => {
  it('does not parse a body that was cut short, and redacts the JSON error text', () => {
    const r = createRedactor({ admin: 'pk_secret_abcdef' });
    const base = { id: 'x1', request: { method: 'GET', url: 'http://h/v1/x', headers: {}, bodyBytes: 0 }, timings: { start: 0, total: 1 } };
    const cut = recordExchange(
      {
        ...base,
        response: { status: 200, headers: { 'content-type': 'application/json' }, text: '{"a":', bodyBytes: 10, complete: false },
      },
      r,
    );
    expect(cut.response?.json).toBeUndefined();
    expect(cut.response?.jsonError).toBeUndefined();
    const bad = recordExchange(
      {
        ...base,
        response: { status: 200, headers: { 'content-type': 'application/json' }, text: 'pk_secret_abcdef', bodyBytes: 16, complete: true },
      },
      r,
    );
    expect(bad.response?.jsonError).toBeDefined();
    expect(JSON.stringify(bad)).not.toContain('pk_secret_abcdef');
  });
});
