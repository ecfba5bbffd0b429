/**
 * The load engines' own HTTP/1.1 connection (src/load/http1-connection.ts) and the engine around it: every
 * framing a server may legitimately use (Content-Length split byte by byte, chunked with extensions and
 * trailers, 100 Continue, HTTP/1.0 read to close, Connection: close, repeated and mixed-case headers) is
 * read right, and every broken one (bad status line, reset mid-body, a TLS certificate the client does not
 * trust) is one transport-error line, never a completed response. Then whole runs of both engines (they
 * share the connection) against the hostile server: deadlines, huge bodies, connections the server closes,
 * an unreachable target.
 */
import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import net from 'node:net';
import tls from 'node:tls';
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Http1Connection, type Http1Endpoint, type Http1Head, type Http1Proxy } from '../../src/load/http1-connection.js';
import { MAX_CONNECT_HEAD_BYTES, readConnectAnswer } from '../../src/load/proxy-connect.js';
import { authorityOf } from '../../src/client/transport.js';
import { sweepDeadlines } from '../../src/load/socket-requests.js';
import { parseProfile } from '../../src/load/profile.js';
import { runProfile } from '../../src/load/run.js';
import { targetFromInput } from '../../src/target/resolve.js';
import { startHostileServer, type HostileServer, HUGE_BODY_BYTES } from '../support/hostile-server.js';
import { refusingPort } from '../support/ports.js';

type Outcome = { head?: Http1Head; body?: string; error?: string };

const closers: (() => void)[] = [];
afterEach(() => {
  while (closers.length) closers.pop()!();
});

/** A raw server answering each request with `respond`; returns its endpoint and connection count. */
async function rawServer(
  respond: (sock: net.Socket, n: number) => void,
  secure?: { key: string; cert: string },
): Promise<{ endpoint: Http1Endpoint; conns: () => number }> {
  let conns = 0;
  let requests = 0;
  const onSock = (sock: net.Socket): void => {
    conns++;
    let buf = '';
    sock.on('data', (d) => {
      buf += d.toString('latin1');
      while (buf.includes('\r\n\r\n')) {
        buf = buf.slice(buf.indexOf('\r\n\r\n') + 4);
        respond(sock, requests++);
      }
    });
    sock.on('error', () => undefined);
  };
  const server = secure ? tls.createServer(secure, onSock) : net.createServer(onSock);
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  closers.push(() => server.close());
  const port = (server.address() as net.AddressInfo).port;
  return { endpoint: { host: '127.0.0.1', port, tls: !!secure }, conns: () => conns };
}

/** A connection whose next outcome `get()` resolves with. */
function client(endpoint: Http1Endpoint, keep = true): { get: () => Promise<Outcome> } {
  let done: ((o: Outcome) => void) | undefined;
  const c = new Http1Connection(
    endpoint,
    { onResponse: (_c, head, body) => done?.({ head, body }), onFailure: (_c, error) => done?.({ error }) },
    () => keep,
  );
  closers.push(() => c.destroy());
  return {
    get: () =>
      new Promise<Outcome>((r) => {
        done = r;
        c.send('GET /v1/me HTTP/1.1\r\nhost: x\r\n\r\n');
      }),
  };
}

/** A self-signed certificate for localhost with the given subjectAltName, made by openssl. */
function selfSigned(altNames: string): { key: string; cert: string } {
  const dir = mkdtempSync(join(tmpdir(), 'spgate-engine-tls-'));
  execFileSync(
    'openssl',
    [
      'req',
      '-x509',
      '-newkey',
      'rsa:2048',
      '-nodes',
      '-keyout',
      join(dir, 'k.pem'),
      '-out',
      join(dir, 'c.pem'),
      '-days',
      '1',
      '-subj',
      '/CN=localhost',
      '-addext',
      `subjectAltName=${altNames}`,
    ],
    { stdio: 'ignore' },
  );
  return { key: readFileSync(join(dir, 'k.pem'), 'utf8'), cert: readFileSync(join(dir, 'c.pem'), 'utf8') };
}

/** One GET on a fresh connection. */
const once = (endpoint: Http1Endpoint, keep = true): Promise<Outcome> => client(endpoint, keep).get();

/** Writes `text` one byte per write (with a tick between), then `after`. */
function trickle(sock: net.Socket, text: string): void {
  let i = 0;
  const step = (): void => {
    if (i >= text.length || sock.destroyed) return;
    sock.write(text[i++]!);
    setImmediate(step);
  };
  step();
}

describe("the engines' HTTP/1.1 parser", () => {
  it('reads a Content-Length response written one byte at a time, with repeated and mixed-case headers', async () => {
    const body = '{"error":{"code":"rate_limit.exceeded"}}';
    const { endpoint } = await rawServer((s) =>
      trickle(
        s,
        `HTTP/1.1 429 Too Many Requests\r\nRateLimit-Limit: 10\r\nratelimit-limit: 20\r\nRATELIMIT-REMAINING:0\r\nRateLimit-Reset:  3 \r\nRetry-After: 3\r\nX-Request-Id: r1\r\nContent-Length: ${body.length}\r\n\r\n${body}`,
      ),
    );
    const o = await once(endpoint);
    expect(o.error).toBeUndefined();
    expect(o.head).toMatchObject({ status: 429, limit: '10, 20', remaining: '0', reset: '3', retryAfter: '3', requestId: 'r1' });
    expect(o.body).toBe(body);
  });

  it('reads a chunked body split anywhere, with chunk extensions and trailers', async () => {
    const { endpoint } = await rawServer((s) =>
      trickle(
        s,
        'HTTP/1.1 429 x\r\nTransfer-Encoding: chunked\r\nRateLimit-Limit: 5\r\n\r\n5;ext=1\r\n{"err\r\n18\r\nor":{"code":"too_many"}}\r\n0\r\nX-Trailer: t\r\n\r\n',
      ),
    );
    const o = await once(endpoint);
    expect(o.error).toBeUndefined();
    expect(o.body).toBe('{"error":{"code":"too_many"}}');
    expect(o.head!.limit).toBe('5');
  });

  it('skips a 100 Continue, and does not decode a body it was not asked to keep', async () => {
    const { endpoint } = await rawServer((s) => s.write('HTTP/1.1 100 Continue\r\n\r\nHTTP/1.1 200 OK\r\nContent-Length: 2\r\n\r\n{}'));
    const o = await once(endpoint, false);
    expect(o.head!.status).toBe(200);
    expect(o.body).toBeUndefined();
  });

  it('reads an HTTP/1.0 body to the close, and opens a new connection for the next request', async () => {
    const srv = await rawServer((s) => s.end('HTTP/1.0 200 OK\r\nX-Request-Id: a\r\n\r\n{"data":1}'));
    const c = client(srv.endpoint);
    expect(await c.get()).toMatchObject({ head: { status: 200, requestId: 'a' }, body: '{"data":1}' });
    expect((await c.get()).head?.status).toBe(200);
    expect(srv.conns()).toBe(2);
  });

  it('keeps the connection across requests, and reconnects after Connection: close', async () => {
    const srv = await rawServer((s, n) => s.write(`HTTP/1.1 200 OK\r\nContent-Length: 0\r\n${n === 1 ? 'Connection: close\r\n' : ''}\r\n`));
    const c = client(srv.endpoint);
    await c.get();
    await c.get();
    expect(srv.conns()).toBe(1);
    expect((await c.get()).head?.status).toBe(200);
    expect(srv.conns()).toBe(2);
  });

  it('bytes after the end of a response fail that response and close the connection; the next request, sent at once as the engine does, gets its own answer on a new one', async () => {
    const srv = await rawServer((s, n) =>
      s.write(
        n === 0
          ? 'HTTP/1.1 200 OK\r\nContent-Length: 2\r\n\r\n{}HTTP/1.1 500 Stale\r\nContent-Length: 0\r\n\r\n'
          : 'HTTP/1.1 201 OK\r\nContent-Length: 0\r\n\r\n',
      ),
    );
    const seen: Outcome[] = [];
    const req = 'GET /v1/me HTTP/1.1\r\nhost: x\r\n\r\n';
    const two = new Promise<void>((resolve) => {
      const c = new Http1Connection(
        srv.endpoint,
        {
          onResponse: (_c, head) => {
            seen.push({ head });
            resolve();
          },
          onFailure: (conn, error) => {
            seen.push({ error });
            conn.send(req);
          },
        },
        () => false,
      );
      closers.push(() => c.destroy());
      c.send(req);
    });
    await two;
    expect(seen[0]).toEqual({ error: 'bytes after the end of the response' });
    expect(seen[1]!.head?.status).toBe(201);
    expect(srv.conns()).toBe(2);
  });

  it('a CRLF after a body (and before the next status line) is skipped, on the same connection', async () => {
    const srv = await rawServer((s, n) => s.write(`${n === 1 ? '\r\n' : ''}HTTP/1.1 200 OK\r\nContent-Length: 2\r\n\r\n{}\r\n`));
    const c = client(srv.endpoint);
    for (let i = 0; i < 3; i++) expect((await c.get()).head?.status).toBe(200);
    expect(srv.conns()).toBe(1);
  });

  it.each([
    ['a malformed status line', (s: net.Socket) => s.write('HTP/1.1 200 OK\r\n\r\n'), /malformed status line/],
    [
      'a body cut short',
      (s: net.Socket) => s.end('HTTP/1.1 200 OK\r\nContent-Length: 100\r\n\r\n{"da'),
      /closed before the response ended|ECONNRESET/,
    ],
    ['a reset before any byte', (s: net.Socket) => s.resetAndDestroy(), /ECONNRESET|closed before/],
    [
      'two different Content-Lengths',
      (s: net.Socket) => s.write('HTTP/1.1 200 OK\r\nContent-Length: 2\r\nContent-Length: 3\r\n\r\n{}'),
      /invalid content-length/,
    ],
  ] as const)('%s is a transport error', async (_n, respond, message) => {
    const { endpoint } = await rawServer(respond);
    const o = await once(endpoint);
    expect(o.head).toBeUndefined();
    expect(o.error).toMatch(message);
  });

  describe('https', () => {
    let key = '';
    let cert = '';
    beforeAll(() => {
      ({ key, cert } = selfSigned('IP:127.0.0.1'));
    });

    it('talks TLS with the connect options it is given, and names the certificate problem without them', async () => {
      const { endpoint } = await rawServer((s) => s.write('HTTP/1.1 200 OK\r\nContent-Length: 2\r\n\r\n{}'), { key, cert });
      expect((await once({ ...endpoint, connect: { ca: cert } })).head?.status).toBe(200);
      expect((await once(endpoint)).error).toMatch(/SELF_SIGNED|CERT/);
    });
  });
});

describe.each(['open', 'closed'] as const)('%s engine runs against a hostile server', (model) => {
  let server: HostileServer | undefined;
  afterEach(async () => {
    await server?.close();
    server = undefined;
  });
  const profile = (timeoutMs = 10_000) =>
    parseProfile(
      model === 'open'
        ? {
            name: 'e',
            description: 'd',
            model,
            duration: 1,
            timeoutMs,
            maxConnections: 4,
            classes: { read: { rate: 10, routes: [{ route: 'me' }] } },
          }
        : { name: 'e', description: 'd', model, duration: 1, timeoutMs, classes: { read: { connections: 4, routes: [{ route: 'me' }] } } },
      't',
    );
  const target = (url: string) => targetFromInput({ baseUrl: url, keys: { admin: { key: 'pk_test_engine_0123456789' } } }, 't');

  it('slow-body: each request ends at the deadline, as a transport error naming it', async () => {
    server = await startHostileServer('slow-body');
    const dir = mkdtempSync(join(tmpdir(), 'spgate-engine-'));
    const tracePath = join(dir, 't.ndjson');
    const { result } = await runProfile({ target: target(server.url), profile: profile(300), tracePath });
    expect(result.totals.sent).toBeGreaterThan(0);
    expect(result.totals.errors).toBe(result.totals.sent);
    const errors = readFileSync(tracePath, 'utf8')
      .trim()
      .split('\n')
      .map((l) => (JSON.parse(l) as { error?: string }).error);
    expect(new Set(errors)).toEqual(new Set(['timeout: no complete response within 300 ms']));
  });

  it('huge-body: a declared 50 MB body counts as a response and is not read', async () => {
    server = await startHostileServer('huge-body');
    const { result } = await runProfile({ target: target(server.url), profile: profile() });
    expect(result.totals.completed).toBeGreaterThan(0);
    expect(result.totals.errors).toBe(0);
    // The closed model sends again at once, so many huge responses are started: none is read to its end.
    expect(server.hits.bodyBytesSent / server.hits.requests).toBeLessThan(HUGE_BODY_BYTES / 4);
  });

  it.each(['early-close', 'http10'] as const)('%s: every request sent is accounted for, answered or failed', async (mode) => {
    server = await startHostileServer(mode);
    const { result } = await runProfile({ target: target(server.url), profile: profile() });
    expect(result.totals.sent).toBeGreaterThan(0);
    expect(result.totals.completed + result.totals.errors).toBe(result.totals.sent);
    expect(result.totals.completed).toBeGreaterThan(0);
  });

  it('refused: the run is an error naming the target unreachable, tried a bounded number of times', async () => {
    server = await startHostileServer('refused');
    const { result } = await runProfile({ target: target(server.url), profile: profile() });
    expect(result.status).toBe('error');
    expect(result.error).toMatch(/target unreachable: ECONNREFUSED/);
    // The closed model's connections wait for the next 50 ms tick after a failure: no tight reconnect loop.
    if (model === 'closed') expect(result.totals.errors).toBeLessThanOrEqual(4 * (1000 / 50 + 2));
  });
});

describe('CONNECT tunnels through an egress proxy', () => {
  interface RawProxy {
    proxy: Http1Proxy;
    /** Each CONNECT head the proxy read, as lines. */
    heads: string[][];
    /** Bytes that arrived after a CONNECT head before the proxy had answered it (must stay 0). */
    early: () => number;
  }

  /**
   * A CONNECT proxy on 127.0.0.1:0 that answers each CONNECT with `answer(n)` (after a few ticks, so a
   * request sent too early would arrive first), written in two pieces split mid-head; on a 2xx answer it
   * pipes the tunnel to 127.0.0.1:`upstream` (when given). `answer` undefined: it never answers.
   */
  async function rawProxy(
    answer: (n: number) => string | undefined,
    upstream?: number,
    secure?: { key: string; cert: string },
  ): Promise<RawProxy> {
    const heads: string[][] = [];
    let early = 0;
    const onSock = (sock: net.Socket): void => {
      let buf = Buffer.alloc(0);
      let answered = false;
      const onData = (d: Buffer): void => {
        if (answered) return;
        buf = Buffer.concat([buf, d]);
        const end = buf.indexOf('\r\n\r\n');
        if (end < 0) return;
        if (buf.length > end + 4) early += buf.length - end - 4;
        if (heads.length > 0 && buf.length === 0) return;
        const n = heads.length;
        heads.push(buf.toString('latin1', 0, end).split('\r\n'));
        buf = Buffer.alloc(0);
        sock.off('data', onData);
        sock.on('data', (more: Buffer) => {
          if (!answered) early += more.length;
        });
        const text = answer(n);
        if (text === undefined) return;
        setTimeout(() => {
          answered = true;
          const cut = Math.min(5, text.length);
          sock.write(text.slice(0, cut));
          setImmediate(() => {
            if (sock.destroyed) return;
            if (/^HTTP\/1\.[01] 2/.test(text) && upstream !== undefined) {
              const up = net.connect(upstream, '127.0.0.1');
              up.on('error', () => sock.destroy());
              sock.on('error', () => up.destroy()).on('close', () => up.destroy());
              sock.write(text.slice(cut));
              sock.removeAllListeners('data');
              sock.pipe(up).pipe(sock);
            } else sock.end(text.slice(cut));
          });
        }, 20);
      };
      sock.on('data', onData);
      sock.on('error', () => undefined);
    };
    const server = secure ? tls.createServer(secure, onSock) : net.createServer(onSock);
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
    closers.push(() => server.close());
    const port = (server.address() as net.AddressInfo).port;
    return {
      proxy: {
        host: '127.0.0.1',
        port,
        tls: !!secure,
        shown: `${secure ? 'https' : 'http'}://127.0.0.1:${port}`,
        authorization: `Basic ${Buffer.from('ci-user:pr0xy-s3cret').toString('base64')}`,
      },
      heads,
      early: () => early,
    };
  }

  const ESTABLISHED = 'HTTP/1.1 200 Connection established\r\n\r\n';

  it('opens one tunnel per connection (CONNECT with Host and Proxy-Authorization), holds the request until the proxy answers, and opens a new tunnel on reconnect', async () => {
    const srv = await rawServer((s, n) => s.write(`HTTP/1.1 200 OK\r\nContent-Length: 0\r\n${n === 1 ? 'Connection: close\r\n' : ''}\r\n`));
    const px = await rawProxy(() => ESTABLISHED, srv.endpoint.port);
    const c = client({ ...srv.endpoint, proxy: px.proxy });
    for (let i = 0; i < 3; i++) expect((await c.get()).head?.status).toBe(200);
    expect(px.heads).toHaveLength(2);
    const authority = `127.0.0.1:${srv.endpoint.port}`;
    expect(px.heads[0]).toEqual([
      `CONNECT ${authority} HTTP/1.1`,
      `Host: ${authority}`,
      `Proxy-Authorization: Basic ${Buffer.from('ci-user:pr0xy-s3cret').toString('base64')}`,
    ]);
    expect(px.early()).toBe(0);
    expect(srv.conns()).toBe(2);
  });

  it("bytes after the proxy's answer head in the same packet belong to the tunnel", async () => {
    const px = await rawProxy(() => `HTTP/1.0 200 OK\r\nVia: 1.1 squid\r\n\r\nHTTP/1.1 204 No Content\r\nX-Request-Id: through\r\n\r\n`);
    const o = await once({ host: 'api.staging.test', port: 80, tls: false, proxy: px.proxy });
    expect(o.error).toBeUndefined();
    expect(o.head).toMatchObject({ status: 204, requestId: 'through' });
    expect(px.heads[0]![0]).toBe('CONNECT api.staging.test:80 HTTP/1.1');
  });

  it('skips an interim answer of the proxy before its 2xx', async () => {
    const px = await rawProxy(() => `HTTP/1.1 100 Continue\r\n\r\nHTTP/1.1 200 OK\r\n\r\nHTTP/1.1 200 OK\r\nContent-Length: 0\r\n\r\n`);
    expect((await once({ host: 'api.staging.test', port: 80, tls: false, proxy: px.proxy })).head?.status).toBe(200);
  });

  describe('TLS', () => {
    let key = '';
    let cert = '';
    beforeAll(() => {
      ({ key, cert } = selfSigned('IP:127.0.0.1,DNS:localhost'));
    });

    it("an https target: TLS inside the tunnel with the target's connect options, verified against the target's name, not the proxy's", async () => {
      const srv = await rawServer((s) => s.write('HTTP/1.1 200 OK\r\nContent-Length: 2\r\n\r\n{}'), { key, cert });
      const px = await rawProxy(() => ESTABLISHED, srv.endpoint.port);
      expect((await once({ ...srv.endpoint, connect: { ca: cert }, proxy: px.proxy })).head?.status).toBe(200);
      // Without the CA the certificate inside the tunnel is refused by the connection itself.
      expect((await once({ ...srv.endpoint, proxy: px.proxy })).error).toMatch(/SELF_SIGNED|CERT/);
      // The name verified is the target's (the certificate does not name elsewhere.test).
      expect((await once({ ...srv.endpoint, host: 'elsewhere.test', connect: { ca: cert }, proxy: px.proxy })).error).toMatch(
        /ERR_TLS_CERT_ALTNAME_INVALID|altname/i,
      );
      expect(px.heads.map((h) => h[0])).toEqual([
        `CONNECT 127.0.0.1:${srv.endpoint.port} HTTP/1.1`,
        `CONNECT 127.0.0.1:${srv.endpoint.port} HTTP/1.1`,
        `CONNECT elsewhere.test:${srv.endpoint.port} HTTP/1.1`,
      ]);
    });

    it('an https:// proxy: TLS to the proxy, and TLS again inside the tunnel', async () => {
      const srv = await rawServer((s) => s.write('HTTP/1.1 200 OK\r\nContent-Length: 0\r\n\r\n'), { key, cert });
      const px = await rawProxy(() => ESTABLISHED, srv.endpoint.port, { key, cert });
      const c = client({ ...srv.endpoint, connect: { ca: cert }, proxy: { ...px.proxy, connect: { ca: cert } } });
      expect((await c.get()).head?.status).toBe(200);
      expect((await c.get()).head?.status).toBe(200);
      expect(px.heads).toHaveLength(1);
    });
  });

  it.each([
    [
      '403',
      'HTTP/1.1 403 Forbidden\r\nContent-Length: 0\r\n\r\n',
      (p: string, a: string) => `proxy ${p} refused CONNECT ${a}: 403 Forbidden`,
    ],
    [
      '407 with a challenge and a body',
      'HTTP/1.1 407 Proxy Authentication Required\r\nProxy-Authenticate: Basic realm="egress"\r\nContent-Length: 12\r\n\r\nauth needed!',
      (p: string, a: string) => `proxy ${p} refused CONNECT ${a}: 407 Proxy Authentication Required`,
    ],
    ['502 without a reason phrase', 'HTTP/1.1 502\r\n\r\n', (p: string, a: string) => `proxy ${p} refused CONNECT ${a}: 502`],
    [
      'a malformed answer',
      'SSH-2.0-OpenSSH_9.6\r\n\r\n',
      (p: string, a: string) => `proxy ${p} sent a malformed answer to CONNECT ${a}: "SSH-2.0-OpenSSH_9.6"`,
    ],
    [
      'an answer head past the bound',
      `HTTP/1.1 200 OK\r\nX-Pad: ${'a'.repeat(MAX_CONNECT_HEAD_BYTES + 10)}`,
      (p: string, a: string) => `proxy ${p} answered CONNECT ${a} with a head longer than ${MAX_CONNECT_HEAD_BYTES} bytes`,
    ],
    ['a close before any answer', '', (p: string, a: string) => `proxy ${p} closed the connection before answering CONNECT ${a}`],
  ] as const)('%s fails the request with one line naming the proxy, without its credentials', async (_n, text, line) => {
    const srv = await rawServer((s) => s.write('HTTP/1.1 200 OK\r\nContent-Length: 0\r\n\r\n'));
    const px = await rawProxy(() => text, srv.endpoint.port);
    const o = await once({ host: 'api.staging.test', port: 443, tls: true, proxy: px.proxy });
    expect(o.head).toBeUndefined();
    expect(o.error).toBe(line(px.proxy.shown, 'api.staging.test:443'));
    expect(o.error).not.toMatch(/s3cret|ci-user|Basic/);
    expect(srv.conns()).toBe(0);
  });

  it('a proxy that does not listen fails the request naming it', async () => {
    const port = await refusingPort();
    const o = await once({
      host: 'api.staging.test',
      port: 443,
      tls: true,
      proxy: { host: '127.0.0.1', port, tls: false, shown: `http://127.0.0.1:${port}`, authorization: 'Basic c2VjcmV0' },
    });
    expect(o.error).toBe(`proxy http://127.0.0.1:${port} did not answer CONNECT api.staging.test:443: ECONNREFUSED`);
  });

  it("a proxy that never answers: the engine's deadline sweep fails the request, naming the proxy", async () => {
    const px = await rawProxy(() => undefined);
    const error = await new Promise<string>((resolve) => {
      const c = new Http1Connection(
        { host: 'api.staging.test', port: 443, tls: true, proxy: px.proxy },
        { onResponse: () => resolve('answered'), onFailure: (_c, e) => resolve(e) },
        () => false,
      );
      closers.push(() => c.destroy());
      c.sent = 0;
      c.send('GET / HTTP/1.1\r\nhost: api.staging.test\r\n\r\n');
      const poll = (): void => {
        if (px.heads.length > 0) sweepDeadlines([c], 60_000, 1_000);
        else setTimeout(poll, 5);
      };
      poll();
    });
    expect(error).toMatch(
      new RegExp(`\\(proxy http://127\\.0\\.0\\.1:${px.proxy.port} had not answered CONNECT api\\.staging\\.test:443\\)$`),
    );
  });

  it('readConnectAnswer: more bytes wanted, HTTP/1.0 2xx accepted, a reason phrase printed without control characters', () => {
    expect(readConnectAnswer(Buffer.from('HTTP/1.1 200 Conn'), 'P', 'a:1').kind).toBe('more');
    const open = readConnectAnswer(Buffer.from('HTTP/1.0 200 Connection established\r\nProxy-Agent: x\r\n\r\nTLS'), 'P', 'a:1');
    expect(open.kind === 'open' && open.rest.toString()).toBe('TLS');
    expect(readConnectAnswer(Buffer.from('HTTP/1.1 403 No\x1b[31m way\r\n\r\n'), 'P', 'a:1')).toEqual({
      kind: 'refused',
      error: 'proxy P refused CONNECT a:1: 403 No[31m way',
    });
    expect(readConnectAnswer(Buffer.from('HTTP/2 200\r\n\r\n'), 'P', 'a:1').kind).toBe('refused');
    expect(authorityOf('::1', 8443)).toBe('[::1]:8443');
  });
});
