import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createClient } from '../../src/client/client.js';
import type { Exchange } from '../../src/client/exchange.js';
import { SpgateError } from '../../src/errors.js';

const ADMIN = 'pk_admin_secret_abcdef123456';
const READER = 'pk_reader_secret_987654zyx';

interface Seen {
  method: string;
  url: string;
  authorization?: string;
  contentType?: string;
  body: string;
}

let server: http.Server;
let base: string;
const seen: Seen[] = [];

beforeAll(async () => {
  server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const body = Buffer.concat(chunks).toString('utf8');
      seen.push({
        method: req.method ?? '',
        url: req.url ?? '',
        authorization: req.headers.authorization,
        contentType: req.headers['content-type'],
        body,
      });
      const path = (req.url ?? '').split('?')[0];
      if (path === '/v1/echo-secret') {
        res.writeHead(200, { 'content-type': 'application/json', 'x-echo': req.headers.authorization ?? '' });
        res.end(
          JSON.stringify({
            youSent: req.headers.authorization,
            [ADMIN]: 'as a key',
            download: { url: 'https://files.example/a/1?expires=1&signature=s3cr' },
          }),
        );
      } else if (path === '/v1/long') {
        res.writeHead(200, { 'content-type': 'text/plain' });
        res.end('y'.repeat(20_000));
      } else if (path === '/v1/stall') {
        res.writeHead(200, { 'content-type': 'application/json' });
        res.write('{');
      } else if (path === '/v1/empty') {
        res.writeHead(204);
        res.end();
      } else {
        res.writeHead(200, { 'content-type': 'application/json', 'x-request-id': 'req_1' });
        res.end(JSON.stringify({ ok: true }));
      }
    });
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}/v1`;
});

afterAll(async () => {
  server.closeAllConnections();
  await new Promise<void>((r) => server.close(() => r()));
});

const last = (): Seen => seen[seen.length - 1]!;

describe('createClient', () => {
  it('rejects an unusable base URL with a SpgateError', () => {
    expect(() => createClient({ baseUrl: 'not a url', secrets: {} })).toThrow(SpgateError);
  });

  it('builds URLs from baseUrl + path + encoded query, drops undefined values, numbers ids per client', async () => {
    const c = createClient({ baseUrl: base + '/', secrets: { admin: ADMIN } });
    const a = await c.send({ method: 'get', path: '/customers', query: { cursor: 'a+b/c d=', limit: 5, q: undefined, flag: true } });
    expect(last().url).toBe('/v1/customers?cursor=a%2Bb%2Fc%20d%3D&limit=5&flag=true');
    expect(a.request.url).toBe(`${base}/customers?cursor=a%2Bb%2Fc%20d%3D&limit=5&flag=true`);
    expect(a.request.method).toBe('GET');
    const b = await c.send({ method: 'GET', path: 'me' });
    expect(last().url).toBe('/v1/me');
    expect([a.id, b.id]).toEqual(['x1', 'x2']);
    expect(b.response?.json).toEqual({ ok: true });
    expect(b.timings.total).toBeGreaterThanOrEqual(b.timings.headers ?? 0);
    await c.close();
  });

  it('uses the admin key by default, the named role when given, none for null, a raw header when given', async () => {
    const c = createClient({ baseUrl: base, secrets: { admin: ADMIN, readOnly: READER } });
    const a = await c.send({ method: 'GET', path: '/me' });
    expect(last().authorization).toBe(`Bearer ${ADMIN}`);
    expect(a.request.keyRole).toBe('admin');
    expect(a.request.headers.authorization).toBe('Bearer <redacted:admin>');
    const r = await c.send({ method: 'GET', path: '/me', role: 'readOnly' });
    expect(last().authorization).toBe(`Bearer ${READER}`);
    expect(r.request.headers.authorization).toBe('Bearer <redacted:readOnly>');
    const n = await c.send({ method: 'GET', path: '/me', role: null });
    expect(last().authorization).toBeUndefined();
    expect(n.request.headers.authorization).toBeUndefined();
    const raw = await c.send({ method: 'GET', path: '/me', authorization: `Token ${ADMIN}` });
    expect(last().authorization).toBe(`Token ${ADMIN}`);
    expect(raw.request.headers.authorization).toBe('Token <redacted:admin>');
    const bogus = await c.send({ method: 'GET', path: '/me', authorization: 'Bearer pk_bogus' });
    expect(bogus.request.headers.authorization).toBe('Bearer pk_bogus');
    const missing = await c.send({ method: 'GET', path: '/me', role: 'expired' });
    expect(missing.error).toEqual({ kind: 'other', message: 'the target has no key for role expired' });
    await c.close();
  });

  it('sendAbsolute attaches no key unless the role is named, even on the same origin', async () => {
    const c = createClient({ baseUrl: base, secrets: { admin: ADMIN } });
    await c.sendAbsolute(`${base}/me`, { method: 'GET' });
    expect(last().authorization).toBeUndefined();
    await c.sendAbsolute(`${base}/me`, { method: 'GET', role: 'admin' });
    expect(last().authorization).toBe(`Bearer ${ADMIN}`);
    const bad = await c.sendAbsolute('ftp://example/x', { method: 'GET' });
    expect(bad.error?.kind).toBe('other');
    await c.close();
  });

  it('serialises json bodies with a content type, sends raw bodies as is, and records sizes', async () => {
    const c = createClient({ baseUrl: base, secrets: { admin: ADMIN } });
    const j = await c.send({ method: 'POST', path: '/x', json: { team: 'é' } });
    expect(last().contentType).toBe('application/json');
    expect(last().body).toBe('{"team":"é"}');
    expect(j.request.bodyBytes).toBe(13);
    const big = 'z'.repeat(70_000);
    const r = await c.send({ method: 'PUT', path: '/x', rawBody: big, headers: { 'Content-Type': 'text/plain' } });
    expect(last().body.length).toBe(70_000);
    expect(last().contentType).toBe('text/plain');
    expect(r.request.bodyBytes).toBe(70_000);
    expect(r.request.body?.length).toBeLessThanOrEqual(8 * 1024);
    await c.close();
  });

  it('truncates recorded response bodies but reports the full size; empty bodies have no json', async () => {
    const c = createClient({ baseUrl: base, secrets: {} });
    const x = await c.send({ method: 'GET', path: '/long' });
    expect(x.response?.bodyBytes).toBe(20_000);
    expect(x.response?.body.length).toBe(8 * 1024);
    const e = await c.send({ method: 'DELETE', path: '/empty' });
    expect(e.response?.status).toBe(204);
    expect(e.response?.json).toBeUndefined();
    expect(e.response?.jsonError).toBeUndefined();
    await c.close();
  });

  it('redacts what the server echoes back: headers, body text, JSON keys and values, signed URLs', async () => {
    const got: Exchange[] = [];
    const c = createClient({ baseUrl: base, secrets: { admin: ADMIN }, onExchange: (x) => got.push(x) });
    const x = await c.send({ method: 'GET', path: '/echo-secret', query: { cursor: 'keep-me' } });
    const text = JSON.stringify(x);
    expect(text).not.toContain(ADMIN);
    expect(text).not.toContain('s3cr');
    expect(x.response?.headers['x-echo']).toBe('Bearer <redacted>');
    expect(x.response?.json).toMatchObject({ '<redacted>': 'as a key', download: { url: 'https://files.example/a/1?<redacted>' } });
    expect(x.request.url).toContain('cursor=keep-me');
    expect(got).toEqual([x]);
    await c.close();
  });

  it('aborts in-flight requests when the client signal fires, and refuses new ones', async () => {
    const ac = new AbortController();
    const c = createClient({ baseUrl: base, secrets: {}, signal: ac.signal });
    const pending = c.send({ method: 'GET', path: '/stall' });
    setTimeout(() => ac.abort(), 50);
    const x = await pending;
    expect(x.error?.kind).toBe('aborted');
    const after = await c.send({ method: 'GET', path: '/me' });
    expect(after.error?.kind).toBe('aborted');
    await c.close();
  });

  it('after close, sends are recorded as errors instead of throwing', async () => {
    const c = createClient({ baseUrl: base, secrets: {} });
    await c.close();
    const x = await c.send({ method: 'GET', path: '/me' });
    expect(x.error).toEqual({ kind: 'other', message: 'client is closed' });
  });
});
