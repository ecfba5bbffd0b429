/**
 * The client's one path to a signed URL: sendForSignedUrl hands it over as a SignedUrl (prints, serialises
 * and inspects as `<redacted>`), fetchSigned sends it without a key, follows a few redirects, records every
 * hop as `origin/<redacted>` (Location too) and counts the body without keeping it.
 */
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { inspect } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createClient } from '../../src/client/client.js';
import type { Exchange } from '../../src/client/exchange.js';
import { SignedUrl } from '../../src/client/signed-url.js';

const SIG = 'sig-abcdef0123456789-secret';
let server: Server;
let origin = '';
const seenAuth: Array<string | undefined> = [];

beforeAll(async () => {
  server = createServer((req, res) => {
    const u = new URL(req.url ?? '/', 'http://x');
    if (u.pathname === '/v1/download') {
      res
        .writeHead(200, { 'content-type': 'application/json' })
        .end(JSON.stringify({ url: `${origin}/hop/file.pdf?signature=${SIG}`, sizeBytes: 5000 }));
    } else if (u.pathname === '/hop/file.pdf') {
      seenAuth.push(req.headers.authorization);
      res.writeHead(302, { location: `/store/file.pdf?signature=${SIG}-2` }).end();
    } else if (u.pathname === '/store/file.pdf') {
      seenAuth.push(req.headers.authorization);
      res.writeHead(200, { 'content-type': 'application/pdf' }).end(Buffer.alloc(5000, 0x41));
    } else res.writeHead(404).end();
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
afterAll(() => new Promise<void>((r) => server.close(() => r())));

describe('signed URLs in the client', () => {
  it('are handed over hidden, fetched without a key through a redirect, and recorded redacted', async () => {
    const seen: Exchange[] = [];
    const c = createClient({ baseUrl: `${origin}/v1`, secrets: { admin: 'pk_test_admin_secret_1' }, onExchange: (x) => seen.push(x) });
    try {
      const { exchange, url } = await c.sendForSignedUrl({ method: 'GET', path: '/download' }, 'url');
      expect(exchange.response?.status).toBe(200);
      expect(url).toBeInstanceOf(SignedUrl);
      expect(String(url)).toBe(`${origin}/<redacted>`);
      expect(JSON.stringify({ url })).toBe(JSON.stringify({ url: `${origin}/<redacted>` }));
      expect(inspect(url)).not.toContain(SIG);
      const file = await c.fetchSigned(url!);
      expect(file.response?.status).toBe(200);
      expect(file.response?.bodyBytes).toBe(5000);
      expect(file.response?.body).toBe('');
      expect(seenAuth).toEqual([undefined, undefined]);
      const hops = seen.slice(1);
      expect(hops.map((x) => [x.request.url, x.response?.status, x.response?.headers.location])).toEqual([
        [`${origin}/<redacted>`, 302, '<redacted>'],
        [`${origin}/<redacted>`, 200, undefined],
      ]);
      expect(JSON.stringify(seen)).not.toContain(SIG);
    } finally {
      await c.close();
    }
  });

  it('a URL that cannot be reached is a transport error without the URL in it', async () => {
    const c = createClient({ baseUrl: `${origin}/v1`, secrets: {} });
    try {
      const x = await c.fetchSigned(SignedUrl.from(`http://127.0.0.1:1/f?signature=${SIG}`)!);
      expect(x.error).toBeDefined();
      expect(JSON.stringify(x)).not.toContain(SIG);
      expect(x.request.url).toBe('http://127.0.0.1:1/<redacted>');
    } finally {
      await c.close();
    }
  });

  it('only absolute http(s) URLs are taken', () => {
    expect(SignedUrl.from('/relative?x=1')).toBeUndefined();
    expect(SignedUrl.from('ftp://h/x')).toBeUndefined();
    expect(SignedUrl.from(42)).toBeUndefined();
  });
});
