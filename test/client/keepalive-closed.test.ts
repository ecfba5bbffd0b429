/**
 * A server that closes a keep-alive connection as the next request arrives (it answered the one before and
 * then dropped the connection without Connection: close: idle timeouts, request caps per connection, a
 * proxy's recycling) cuts that request before any answer. The client sends a request that is safe to send
 * again once more, on a new connection: idempotent methods (RFC 9110 §9.2.2) and any request carrying an
 * Idempotency-Key. Any other request is never sent twice: it goes out on a new connection of its own, so no
 * such cut can reach it. A server that resets every time still shows the reset.
 * Deterministic: each connection answers its first request and drops the connection at the second.
 */
import { createServer, type Server } from 'node:http';
import type { Socket } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { createClient, replayable } from '../../src/client/client.js';
import type { HttpClient } from '../../src/client/types.js';

let server: Server | undefined;
let client: HttpClient | undefined;
afterEach(async () => {
  await client?.close();
  await new Promise((r) => (server ? server.close(r) : r(undefined)));
  server = client = undefined;
});

/** A server whose connections answer `answered` requests each and drop the connection at the next one. */
async function dropping(answered: number): Promise<{ url: string; seen: () => number; closing: () => string[] }> {
  const perSocket = new WeakMap<Socket, number>();
  let seen = 0;
  // the requests that came with Connection: close (on a connection of their own)
  const closing: string[] = [];
  server = createServer((req, res) => {
    seen++;
    if (req.headers.connection === 'close') closing.push(`${req.method} ${req.url}`);
    const n = (perSocket.get(req.socket) ?? 0) + 1;
    perSocket.set(req.socket, n);
    if (n > answered) {
      req.socket.destroy();
      return;
    }
    req.resume();
    req.on('end', () => res.writeHead(200, { 'content-type': 'application/json' }).end('{"ok":true}'));
  });
  await new Promise<void>((r) => server!.listen(0, '127.0.0.1', r));
  const { port } = server.address() as { port: number };
  return { url: `http://127.0.0.1:${port}`, seen: () => seen, closing: () => [...closing] };
}

const outcome = (x: { response?: { status: number }; error?: { kind: string } }) => x.response?.status ?? x.error?.kind;

describe('a keep-alive connection the server drops as the next request arrives', () => {
  it('an idempotent request, or one with an Idempotency-Key, is sent once more on a new connection and answered', async () => {
    const s = await dropping(1);
    client = createClient({ baseUrl: s.url, secrets: {}, connections: 1 });
    const got: Array<string | number | undefined> = [];
    for (const spec of [
      { method: 'GET', path: '/a' },
      { method: 'GET', path: '/b' },
      { method: 'DELETE', path: '/c' },
      { method: 'POST', path: '/d', json: { a: 1 }, headers: { 'Idempotency-Key': 'k-1' } },
    ]) {
      got.push(outcome(await client.send(spec)));
    }
    expect(got).toEqual([200, 200, 200, 200]);
    // /a answered on the first connection; /b dropped there, then answered on a connection of its own
    // (closed after it); /c answered as the first request of a new pooled connection; /d dropped there and
    // answered on a connection of its own
    expect(s.seen()).toBe(6);
    expect(s.closing()).toEqual(['GET /b', 'POST /d']);
  });

  it('the resend goes out on a new connection of its own, not on another pooled one the server drops too', async () => {
    const s = await dropping(1);
    client = createClient({ baseUrl: s.url, secrets: {}, connections: 2 });
    // two connections, each answered once and now idle: the next request on either is dropped
    expect(
      await Promise.all([client.send({ method: 'GET', path: '/a' }), client.send({ method: 'GET', path: '/b' })]).then((xs) =>
        xs.map(outcome),
      ),
    ).toEqual([200, 200]);
    expect(outcome(await client.send({ method: 'GET', path: '/c' }))).toBe(200);
    // dropped on a pooled connection, then answered on a connection of its own: another pooled one, idle as
    // long, would drop it again
    expect(s.seen()).toBe(2 + 2);
    expect(s.closing()).toEqual(['GET /c']);
  });

  it('a POST without an Idempotency-Key is never sent twice: it goes out on a new connection of its own, answered', async () => {
    const s = await dropping(1);
    client = createClient({ baseUrl: s.url, secrets: {}, connections: 1 });
    expect(outcome(await client.send({ method: 'GET', path: '/a' }))).toBe(200);
    expect(outcome(await client.send({ method: 'POST', path: '/b', json: { a: 1 } }))).toBe(200);
    expect(outcome(await client.send({ method: 'POST', path: '/c', json: { a: 2 } }))).toBe(200);
    // each request reached the server once: the GET on the shared connection, each POST on its own
    expect(s.seen()).toBe(3);
  });

  it('a POST without an Idempotency-Key that the server resets shows the reset, sent once', async () => {
    const s = await dropping(0);
    client = createClient({ baseUrl: s.url, secrets: {}, connections: 1 });
    expect(outcome(await client.send({ method: 'POST', path: '/b', json: { a: 1 } }))).toBe('reset');
    expect(s.seen()).toBe(1);
  });

  it('a server that drops every request still shows the reset, after one more try', async () => {
    const s = await dropping(0);
    client = createClient({ baseUrl: s.url, secrets: {}, connections: 1 });
    expect(outcome(await client.send({ method: 'GET', path: '/a' }))).toBe('reset');
    expect(s.seen()).toBe(2);
  });

  it('what may be sent again', () => {
    expect(['GET', 'HEAD', 'OPTIONS', 'PUT', 'DELETE'].every((m) => replayable(m, {}))).toBe(true);
    expect(replayable('POST', {})).toBe(false);
    expect(replayable('PATCH', {})).toBe(false);
    expect(replayable('POST', { 'idempotency-key': 'k' })).toBe(true);
  });
});
