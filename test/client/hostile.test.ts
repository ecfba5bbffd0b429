import { afterEach, describe, expect, it } from 'vitest';
import { createClient } from '../../src/client/client.js';
import type { Exchange } from '../../src/client/exchange.js';
import type { HttpClient } from '../../src/client/types.js';
import { parseRateLimitHeaders } from '../../src/spec/headers.js';
import { HUGE_BODY_BYTES, startHostileServer, type HostileMode, type HostileServer } from '../support/hostile-server.js';

const SECRET = 'pk_hostile_secret_0123456789';
let server: HostileServer | undefined;
let client: HttpClient | undefined;

afterEach(async () => {
  await client?.close();
  await server?.close();
  client = undefined;
  server = undefined;
});

async function setup(
  mode: HostileMode,
  extra: { maxBodyBytes?: number } = {},
): Promise<{ s: HostileServer; c: HttpClient; seen: Exchange[] }> {
  server = await startHostileServer(mode);
  const seen: Exchange[] = [];
  client = createClient({
    baseUrl: server.url,
    secrets: { admin: SECRET },
    connectTimeoutMs: 1_000,
    headersTimeoutMs: 1_000,
    bodyTimeoutMs: 1_500,
    timeoutMs: 4_000,
    onExchange: (x) => seen.push(x),
    ...extra,
  });
  return { s: server, c: client, seen };
}

function noSecret(x: Exchange): void {
  expect(JSON.stringify(x)).not.toContain(SECRET);
}

describe('client against a hostile server', () => {
  it('refused: records a refused error and does not throw', async () => {
    const { c, seen } = await setup('refused');
    const x = await c.send({ method: 'GET', path: '/customers' });
    expect(x.error?.kind).toBe('refused');
    expect(x.response).toBeUndefined();
    expect(x.error?.message).not.toContain('\n');
    expect(seen).toEqual([x]);
    noSecret(x);
  });

  it('reset-mid-body: keeps the status and the partial body, error kind reset', async () => {
    const { c } = await setup('reset-mid-body');
    const x = await c.send({ method: 'GET', path: '/customers' });
    expect(x.error?.kind).toBe('reset');
    expect(x.response?.status).toBe(200);
    expect(x.response?.body.startsWith('{"data":[')).toBe(true);
    expect(x.response?.json).toBeUndefined();
    noSecret(x);
  });

  it('slow-headers: times out with kind timeout', async () => {
    const { c } = await setup('slow-headers');
    const x = await c.send({ method: 'GET', path: '/customers' });
    expect(x.error?.kind).toBe('timeout');
    expect(x.response).toBeUndefined();
  });

  it('slow-body (1 byte/s): the total body time is bounded, not just the idle time', async () => {
    const { c, s } = await setup('slow-body');
    const x = await c.send({ method: 'GET', path: '/customers' });
    expect(x.error?.kind).toBe('timeout');
    expect(x.response?.status).toBe(200);
    expect(s.hits.bodyBytesSent).toBeLessThan(100);
  });

  it('slow-body: a per-request timeoutMs shorter than the body timeout wins', async () => {
    const { c } = await setup('slow-body');
    const x = await c.send({ method: 'GET', path: '/customers', timeoutMs: 300 });
    expect(x.error).toEqual({ kind: 'timeout', message: 'no complete response within 300 ms' });
  });

  it('not-json: keeps the response and explains why the JSON did not parse', async () => {
    const { c } = await setup('not-json');
    const x = await c.send({ method: 'GET', path: '/customers' });
    expect(x.error).toBeUndefined();
    expect(x.response?.status).toBe(200);
    expect(x.response?.body).toContain('502 Bad Gateway');
    expect(x.response?.json).toBeUndefined();
    expect(x.response?.jsonError).toBeTruthy();
  });

  it('huge-body (50 MB): stops at the cap, reports too-large and stops the transfer', async () => {
    const { c, s } = await setup('huge-body', { maxBodyBytes: 256 * 1024 });
    const x = await c.send({ method: 'GET', path: '/customers' });
    expect(x.error?.kind).toBe('too-large');
    expect(x.response?.status).toBe(200);
    expect(x.response?.body.length).toBeLessThanOrEqual(8 * 1024);
    expect(x.response?.bodyBytes).toBeGreaterThan(256 * 1024);
    // The socket was destroyed: the server could not push the whole body into it.
    await new Promise((r) => setTimeout(r, 100));
    expect(s.hits.bodyBytesSent).toBeLessThan(HUGE_BODY_BYTES);
    // The client is still usable afterwards (a fresh connection).
    const again = await c.send({ method: 'GET', path: '/customers', timeoutMs: 2_000 });
    expect(again.error?.kind).toBe('too-large');
  });

  it('bad-headers: recorded as is; duplicates stay visible to the header parser', async () => {
    const { c } = await setup('bad-headers');
    const x = await c.send({ method: 'GET', path: '/customers' });
    expect(x.error).toBeUndefined();
    const h = x.response?.headers ?? {};
    expect(h['ratelimit-limit']).toEqual(['100', '50']);
    const parsed = parseRateLimitHeaders(h);
    expect(parsed.limit).toMatchObject({ ok: false, problem: 'duplicated' });
    expect(parsed.remaining).toMatchObject({ ok: false, problem: 'not-integer' });
    expect(parsed.reset).toMatchObject({ ok: false, problem: 'negative' });
    expect(parsed.retryAfter).toMatchObject({ ok: false, problem: 'not-integer' });
    expect(parsed.requestId).toMatchObject({ ok: false, problem: 'empty' });
  });

  it('redirect-cross-origin: 302 recorded, not followed, signed Location redacted, key never sent there', async () => {
    const { c, s } = await setup('redirect-cross-origin');
    const x = await c.send({ method: 'GET', path: '/messages/m1/attachments/0/download' });
    expect(x.response?.status).toBe(302);
    expect(s.hits.redirectTarget.requests).toBe(0);
    const location = x.response?.headers.location;
    expect(location).toBe(`${s.redirectUrl}?<redacted>`);
    expect(x.request.headers.authorization).toBe('Bearer <redacted:admin>');
    // Even following it explicitly through sendAbsolute does not attach the key.
    const followed = await c.sendAbsolute(`${s.redirectUrl}?expires=300&signature=deadbeef`, { method: 'GET' });
    expect(followed.response?.status).toBe(200);
    expect(followed.request.headers.authorization).toBeUndefined();
    // The signed query was seen in a response, so it is a secret now, also in the request URL.
    expect(followed.request.url).toBe(`${s.redirectUrl}?<redacted>`);
    expect(s.hits.redirectTarget).toEqual({ requests: 1, withAuthorization: 0 });
    noSecret(x);
    noSecret(followed);
    expect(JSON.stringify([x, followed])).not.toContain('deadbeef');
  });

  it('error-storm: every 500/503 is a recorded response, Retry-After visible when sent', async () => {
    const { c, s } = await setup('error-storm');
    const xs: Exchange[] = [];
    for (let i = 0; i < 4; i++) xs.push(await c.send({ method: 'GET', path: '/customers' }));
    expect(xs.map((x) => x.response?.status)).toEqual([500, 503, 500, 503]);
    expect(xs.map((x) => x.response?.headers['retry-after'])).toEqual([undefined, undefined, '1', '1']);
    expect(xs.every((x) => x.error === undefined && (x.response?.json as { error?: unknown })?.error)).toBe(true);
    expect(xs.map((x) => x.id)).toEqual(['x1', 'x2', 'x3', 'x4']);
    expect(s.hits.connections).toBeLessThan(4); // 5xx answers do not cost the connection
  });

  it('early-close: a socket closed by the server while idle is not reused', async () => {
    const { c, s } = await setup('early-close');
    const first = await c.send({ method: 'GET', path: '/customers' });
    await new Promise((r) => setTimeout(r, 200));
    const second = await c.send({ method: 'GET', path: '/customers' });
    expect(first.response?.status).toBe(200);
    expect(second.error).toBeUndefined();
    expect(second.response?.status).toBe(200);
    expect(s.hits.serverClosed).toBeGreaterThanOrEqual(1);
    expect(s.hits.connections).toBe(2);
  });

  it('http10: an HTTP/1.0 answer delimited by close is read whole', async () => {
    const { c, s } = await setup('http10');
    const a = await c.send({ method: 'GET', path: '/customers' });
    const b = await c.send({ method: 'GET', path: '/customers' });
    for (const x of [a, b]) {
      expect(x.error).toBeUndefined();
      expect(x.response?.json).toEqual({ data: [], protocol: 'HTTP/1.0' });
    }
    expect(s.hits.connections).toBe(2);
  });
});
