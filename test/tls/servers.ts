/**
 * The network pieces of the TLS tests, all on loopback: a TLS terminator in front of the reference server
 * (optionally requiring a client certificate of the internal CA), and a CONNECT forwarding proxy that
 * counts the tunnels it opens and resolves the staging host name itself (as an egress proxy does: the name
 * does not resolve on this machine, so a request that skipped the proxy cannot arrive).
 */
import { createServer as createHttpServer, type Server as HttpServer } from 'node:http';
import { connect as netConnect, type AddressInfo, type Socket } from 'node:net';
import { createServer as createTlsServer, type Server as TlsServer } from 'node:tls';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { STAGING_HOST, type Pki } from './pki.js';

export interface Terminator {
  port: number;
  /** TLS connections whose handshake completed, and those that failed it. */
  accepted: number;
  rejected: number;
  close(): Promise<void>;
}

/** Listens with TLS on 127.0.0.1:0 and pipes every connection to 127.0.0.1:`backendPort`. */
export async function startTerminator(pki: Pki, backendPort: number, opts: { requireClientCert: boolean }): Promise<Terminator> {
  const sockets = new Set<Socket>();
  const state = { accepted: 0, rejected: 0 };
  const server: TlsServer = createTlsServer(
    {
      key: pki.read(pki.serverKey),
      cert: pki.read(pki.serverCert),
      ca: pki.read(pki.caCert),
      requestCert: opts.requireClientCert,
      rejectUnauthorized: opts.requireClientCert,
    },
    (tlsSocket) => {
      state.accepted++;
      const backend = netConnect(backendPort, '127.0.0.1');
      sockets.add(tlsSocket).add(backend);
      tlsSocket.pipe(backend).pipe(tlsSocket);
      const end = (): void => {
        tlsSocket.destroy();
        backend.destroy();
      };
      tlsSocket.on('error', end).on('close', end);
      backend.on('error', end).on('close', end);
    },
  );
  server.on('tlsClientError', () => state.rejected++);
  server.on('connection', (s: Socket) => {
    sockets.add(s);
    s.on('close', () => sockets.delete(s));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    port: (server.address() as AddressInfo).port,
    get accepted() {
      return state.accepted;
    },
    get rejected() {
      return state.rejected;
    },
    close: () =>
      new Promise<void>((resolve) => {
        for (const s of sockets) s.destroy();
        server.close(() => resolve());
      }),
  };
}

export interface ForwardProxy {
  url: string;
  /** CONNECT requests answered 200, by requested host:port. */
  tunnels: Map<string, number>;
  /** CONNECT requests answered 407 (wrong or missing Proxy-Authorization). */
  challenged: number;
  close(): Promise<void>;
}

/**
 * A CONNECT proxy on 127.0.0.1:0; STAGING_HOST (and 127.0.0.1) resolve to 127.0.0.1, anything else is refused
 * 403. With `credentials` ("user:password") a CONNECT without that basic Proxy-Authorization is answered 407.
 */
export async function startForwardProxy(opts: { credentials?: string } = {}): Promise<ForwardProxy> {
  const tunnels = new Map<string, number>();
  let challenged = 0;
  const expected = opts.credentials !== undefined ? `Basic ${Buffer.from(opts.credentials).toString('base64')}` : undefined;
  const sockets = new Set<Socket>();
  const server: HttpServer = createHttpServer((_req, res) => {
    res.writeHead(405).end('CONNECT only');
  });
  server.on('connect', (req, client: Socket, head: Buffer) => {
    sockets.add(client);
    if (expected !== undefined && req.headers['proxy-authorization'] !== expected) {
      challenged++;
      client.end('HTTP/1.1 407 Proxy Authentication Required\r\nProxy-Authenticate: Basic realm="egress"\r\nContent-Length: 0\r\n\r\n');
      return;
    }
    const m = /^(.+):(\d+)$/.exec(req.url ?? '');
    if (!m || (m[1] !== STAGING_HOST && m[1] !== '127.0.0.1')) {
      client.end('HTTP/1.1 403 Forbidden\r\n\r\n');
      return;
    }
    const upstream = netConnect(Number(m[2]), '127.0.0.1', () => {
      tunnels.set(req.url!, (tunnels.get(req.url!) ?? 0) + 1);
      client.write('HTTP/1.1 200 Connection Established\r\n\r\n');
      if (head.length > 0) upstream.write(head);
      client.pipe(upstream).pipe(client);
    });
    sockets.add(upstream);
    const end = (): void => {
      client.destroy();
      upstream.destroy();
    };
    upstream.on('error', () => {
      if (!client.destroyed) client.end('HTTP/1.1 502 Bad Gateway\r\n\r\n');
    });
    client.on('error', end).on('close', end);
    upstream.on('close', end);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    tunnels,
    get challenged() {
      return challenged;
    },
    close: () =>
      new Promise<void>((resolve) => {
        for (const s of sockets) s.destroy();
        server.close(() => resolve());
      }),
  };
}

/**
 * Writes `<dir>/<name>.json`: the reference server's target file pointed at `https://127.0.0.1:<port>` (the
 * terminator in front of it), API and fixtures API alike, with the given tls block; returns its path.
 */
export function terminatedTargetFile(
  dir: string,
  target: object & { fixtures?: object },
  port: number,
  name: string,
  tls: Record<string, unknown>,
): string {
  const origin = `https://127.0.0.1:${port}`;
  const path = join(dir, `${name}.json`);
  writeFileSync(
    path,
    JSON.stringify({ ...target, baseUrl: `${origin}/v1`, fixtures: { ...target.fixtures, api: `${origin}/_fixtures` }, tls }),
  );
  return path;
}
