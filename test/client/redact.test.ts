import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { ClientErrorKind } from '../../src/client/exchange.js';
import { recordExchange, type RawExchange } from '../../src/client/record.js';
import { createRedactor } from '../../src/client/redact.js';

// Real keys start with pk_; the tail uses characters that change under percent-encoding too.
const secretArb = fc.stringMatching(/^pk_(live_|test_)?[A-Za-z0-9_\-.+/=~]{12,40}$/);
const text = fc.string({ unit: 'binary', maxLength: 40 });

/** Arbitrary text with the secret somewhere inside (or verbatim). */
const embedding = (secret: string): fc.Arbitrary<string> =>
  fc.oneof(
    fc.constant(secret),
    fc.tuple(text, text).map(([a, b]) => a + secret + b),
    fc.tuple(text, text).map(([a, b]) => `${a}${encodeURIComponent(secret)}${b}`),
    fc.tuple(text, text).map(([a, b]) => `${a}Bearer ${secret}${b}`),
  );

/** A JSON value with the secret planted as a key and as a value at some depth. */
const jsonWith = (secret: string): fc.Arbitrary<unknown> =>
  fc.tuple(fc.jsonValue({ maxDepth: 3 }), embedding(secret), embedding(secret), fc.nat({ max: 3 })).map(([base, k, v, depth]) => {
    let planted: unknown = { [k]: base, field: v, list: [base, v] };
    for (let i = 0; i < depth; i++) planted = i % 2 ? [planted] : { nested: planted };
    return planted;
  });

const kinds: ClientErrorKind[] = ['refused', 'reset', 'timeout', 'too-large', 'aborted', 'other'];

const rawExchangeWith = (secret: string): fc.Arbitrary<RawExchange> =>
  fc
    .record({
      url: embedding(secret).map((s) => `http://127.0.0.1:1/v1/customers?cursor=${encodeURIComponent(s)}&x=${s}`),
      reqHeaders: fc.dictionary(fc.oneof(text, embedding(secret)), embedding(secret), { maxKeys: 4 }),
      reqBody: fc.option(
        fc.oneof(
          embedding(secret),
          jsonWith(secret).map((j) => JSON.stringify(j)),
        ),
      ),
      resHeaders: fc.dictionary(
        fc.oneof(text, embedding(secret)),
        fc.oneof(embedding(secret), fc.array(embedding(secret), { maxLength: 3 })),
        { maxKeys: 4 },
      ),
      resBody: fc.oneof(
        embedding(secret),
        jsonWith(secret).map((j) => JSON.stringify(j)),
      ),
      contentType: fc.constantFrom('application/json', 'text/plain', 'application/problem+json'),
      complete: fc.boolean(),
      error: fc.option(fc.record({ kind: fc.constantFrom(...kinds), message: embedding(secret) })),
    })
    .map((r) => ({
      id: 'x1',
      request: {
        method: 'POST',
        url: r.url,
        headers: { ...r.reqHeaders, authorization: `Bearer ${secret}` },
        ...(r.reqBody !== null ? { body: r.reqBody } : {}),
        bodyBytes: 1,
        keyRole: 'admin',
      },
      response: {
        status: 200,
        headers: { ...r.resHeaders, 'content-type': r.contentType },
        text: r.resBody,
        bodyBytes: r.resBody.length,
        complete: r.complete,
      },
      ...(r.error ? { error: r.error } : {}),
      timings: { start: 0, total: 1 },
    }));

describe('redaction property', () => {
  it('a secret planted anywhere never appears in the serialized Exchange', () => {
    fc.assert(
      fc.property(
        secretArb.chain((secret) => fc.tuple(fc.constant(secret), rawExchangeWith(secret))),
        ([secret, raw]) => {
          const exchange = recordExchange(raw, createRedactor({ admin: secret }));
          const out = JSON.stringify(exchange);
          expect(out).not.toContain(secret);
          expect(out).not.toContain(encodeURIComponent(secret));
          expect(exchange.request.headers.authorization).toBe('Bearer <redacted:admin>');
        },
      ),
      { numRuns: 200 },
    );
  });

  it('a response body that spells the key in \\u escapes is redacted in its parsed JSON too; one with nothing to redact is kept as parsed', () => {
    const secret = 'pk_admin_0123456789';
    const escaped = [...secret].map((c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`).join('');
    const raw = (text: string): RawExchange => ({
      id: 'x1',
      request: { method: 'GET', url: 'http://h/v1/me', headers: { authorization: `Bearer ${secret}` }, bodyBytes: 0, keyRole: 'admin' },
      response: { status: 200, headers: { 'content-type': 'application/json' }, text, bodyBytes: text.length, complete: true },
      timings: { start: 0, total: 1 },
    });
    const hidden = recordExchange(raw(`{"data":{"note":"${escaped}","${escaped}":1}}`), createRedactor({ admin: secret }));
    expect(hidden.response!.body).not.toContain(secret);
    expect(JSON.stringify(hidden.response!.json)).not.toContain(secret);
    expect(hidden.response!.json).toEqual({ data: { note: '<redacted>', '<redacted>': 1 } });
    const plain = recordExchange(raw('{"data":{"id":"cus_1","tags":["a"]}}'), createRedactor({ admin: secret }));
    expect(plain.response!.json).toEqual({ data: { id: 'cus_1', tags: ['a'] } });
  });

  it('redactJson removes the secret from every key and value at any depth', () => {
    fc.assert(
      fc.property(
        secretArb.chain((s) => fc.tuple(fc.constant(s), jsonWith(s))),
        ([secret, value]) => {
          expect(JSON.stringify(createRedactor([secret]).redactJson(value))).not.toContain(secret);
        },
      ),
      { numRuns: 200 },
    );
  });

  it('text without secrets or absolute URLs is left unchanged', () => {
    fc.assert(
      fc.property(
        secretArb,
        fc.string({ maxLength: 60 }).filter((t) => !t.includes('http')),
        (secret, t) => {
          fc.pre(!t.includes(secret));
          expect(createRedactor([secret]).redactString(t)).toBe(t);
        },
      ),
      { numRuns: 200 },
    );
  });
});

describe('redaction rules', () => {
  const r = createRedactor({ admin: 'pk_admin_0123456789', readOnly: 'pk_ro_abcdefghij' });

  it('marks Authorization keys with their role, other headers plainly', () => {
    expect(r.redactHeaders({ Authorization: 'Bearer pk_ro_abcdefghij', 'X-Echo': 'pk_admin_0123456789' })).toEqual({
      Authorization: 'Bearer <redacted:readOnly>',
      'X-Echo': '<redacted>',
    });
  });

  it('replaces the query of signed URLs in bodies and Location, keeps relative and query-less URLs', () => {
    const body =
      '{"url":"https://files.example.com/a/1?expires=1700000000&signature=abc","next":"/v1/customers?cursor=c1","plain":"https://x.example/p"}';
    expect(r.redactString(body)).toBe(
      '{"url":"https://files.example.com/a/1?<redacted>","next":"/v1/customers?cursor=c1","plain":"https://x.example/p"}',
    );
    expect(r.redactHeaders({ location: 'http://127.0.0.1:9/x?sig=1' })).toEqual({ location: 'http://127.0.0.1:9/x?<redacted>' });
  });

  it('request URLs keep their query; only secrets are removed there', () => {
    expect(r.redactUrl('http://h/v1/customers?cursor=abc&key=pk_admin_0123456789')).toBe('http://h/v1/customers?cursor=abc&key=<redacted>');
  });

  it('remembers signed-URL queries seen in responses and removes them from later request URLs', () => {
    const l = createRedactor([]);
    const signed = 'https://files.example/a/1?expires=1700000000&signature=0123456789abcdef';
    expect(l.redactUrl(signed)).toBe(signed); // not seen yet: a request URL keeps its query
    l.redactJson({ data: { url: signed } });
    expect(l.redactUrl(signed)).toBe('https://files.example/a/1?<redacted>');
    expect(l.redactUrl('http://h/v1/customers?cursor=abc')).toBe('http://h/v1/customers?cursor=abc');
    l.redactString('see https://x.example/p?page=2');
    expect(l.redactUrl('https://x.example/p?page=2')).toBe('https://x.example/p?page=2'); // too short to be a signature
  });

  it('catches percent-encoded and JSON-escaped forms of a secret', () => {
    const s = createRedactor(['pk_a/b+c"d_0123']);
    expect(s.redactUrl(`http://h/?k=${encodeURIComponent('pk_a/b+c"d_0123')}`)).toBe('http://h/?k=<redacted>');
    expect(s.redactString(JSON.stringify({ k: 'pk_a/b+c"d_0123' }))).toBe('{"k":"<redacted>"}');
  });

  it('ignores secrets too short to be keys (they would erase ordinary text)', () => {
    expect(createRedactor(['ab', '']).redactString('about a tab')).toBe('about a tab');
  });

  it('replaces a longer secret whole when it contains a shorter one', () => {
    expect(createRedactor(['pk_short', 'pk_short_and_longer']).redactString('x pk_short_and_longer y')).toBe('x <redacted> y');
  });

  it('keeps a "__proto__" key as data instead of turning it into a prototype', () => {
    const out = r.redactJson(JSON.parse('{"__proto__":{"pk_admin_0123456789":1}}')) as Record<string, unknown>;
    expect(Object.keys(out)).toEqual(['__proto__']);
    expect(JSON.stringify(out)).toBe('{"__proto__":{"<redacted>":1}}');
  });
});
