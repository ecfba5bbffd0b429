/**
 * A deliberately badly behaved HTTP server for robustness tests of the client, the conformance runner and
 * the load engine. It speaks raw HTTP over `net` so it can do what a well-behaved framework never would:
 * reset mid-body, stall, lie in headers, answer HTTP/1.0. Loopback only, port 0, and every timer and
 * socket is released by close().
 */
import net from 'node:net';
import { refusingPort } from './ports.js';

export type HostileMode =
  | 'refused'
  | 'reset-mid-body'
  | 'slow-headers'
  | 'slow-body'
  | 'not-json'
  | 'huge-body'
  | 'bad-headers'
  | 'redirect-cross-origin'
  | 'error-storm'
  | 'early-close'
  | 'http10';

export const HOSTILE_MODES: readonly HostileMode[] = [
  'refused',
  'reset-mid-body',
  'slow-headers',
  'slow-body',
  'not-json',
  'huge-body',
  'bad-headers',
  'redirect-cross-origin',
  'error-storm',
  'early-close',
  'http10',
];

export interface HostileHits {
  /** Requests whose head was received. */
  requests: number;
  /** TCP connections accepted. */
  connections: number;
  /** Connections the server closed itself (early-close, http10). */
  serverClosed: number;
  /** Response body bytes written (huge-body: proves the client stopped the transfer). */
  bodyBytesSent: number;
  /** Statuses answered, in order. */
  statuses: number[];
  /** The second server of redirect-cross-origin. */
  redirectTarget: { requests: number; withAuthorization: number };
}

export interface HostileServer {
  /** Base URL ending in /v1, like a target's. */
  url: string;
  /** For redirect-cross-origin: the other origin the Location points to. */
  redirectUrl?: string;
  hits: HostileHits;
  close(): Promise<void>;
}

export const HUGE_BODY_BYTES = 50 * 1024 * 1024;
export const EARLY_CLOSE_MS = 50;

interface RawRequest {
  method: string;
  target: string;
  headers: Record<string, string>;
}

type Handler = (req: RawRequest, sock: net.Socket) => void;

/** Starts a hostile server in the given mode on 127.0.0.1:0. */
export async function startHostileServer(mode: HostileMode): Promise<HostileServer> {
  const hits: HostileHits = {
    requests: 0,
    connections: 0,
    serverClosed: 0,
    bodyBytesSent: 0,
    statuses: [],
    redirectTarget: { requests: 0, withAuthorization: 0 },
  };
  const timers = new Set<NodeJS.Timeout>();
  const later = (ms: number, fn: () => void): void => {
    const t = setTimeout(() => {
      timers.delete(t);
      fn();
    }, ms);
    timers.add(t);
  };
  const every = (ms: number, fn: () => boolean): void => {
    const t = setInterval(() => {
      if (!fn()) {
        clearInterval(t);
        timers.delete(t);
      }
    }, ms);
    timers.add(t);
  };

  if (mode === 'refused') {
    const port = await refusingPort();
    return { url: `http://127.0.0.1:${port}/v1`, hits, close: async () => undefined };
  }

  const respond = (sock: net.Socket, status: number, headers: Array<[string, string]>, body = '', version = '1.1'): void => {
    hits.statuses.push(status);
    const head = [`HTTP/${version} ${status} ${REASONS[status] ?? 'Unknown'}`, ...headers.map(([k, v]) => `${k}: ${v}`)];
    if (!headers.some(([k]) => k.toLowerCase() === 'content-length') && version === '1.1')
      head.push(`Content-Length: ${Buffer.byteLength(body)}`);
    sock.write(head.join('\r\n') + '\r\n\r\n' + body);
    hits.bodyBytesSent += Buffer.byteLength(body);
  };
  const json = (o: unknown): string => JSON.stringify(o);
  const envelope = (code: string): string => json({ error: { code, message: code, requestId: `req_${hits.requests}` } });

  let redirect: RawServer | undefined;
  if (mode === 'redirect-cross-origin') {
    redirect = await listenRaw(
      hits,
      (req, sock) => {
        hits.redirectTarget.requests++;
        if (req.headers.authorization !== undefined) hits.redirectTarget.withAuthorization++;
        respond(sock, 200, [['Content-Type', 'application/json']], json({ ok: true }));
      },
      { countHits: false },
    );
  }
  const redirectUrl = redirect ? `http://127.0.0.1:${redirect.port}/v1/elsewhere` : undefined;

  const handlers: Record<Exclude<HostileMode, 'refused'>, Handler> = {
    'reset-mid-body': (_req, sock) => {
      hits.statuses.push(200);
      sock.write('HTTP/1.1 200 OK\r\nContent-Type: application/json\r\nContent-Length: 1000\r\n\r\n{"data":[' + '1,'.repeat(50));
      later(20, () => sock.resetAndDestroy());
    },
    'slow-headers': (_req, sock) => {
      const head = 'HTTP/1.1 200 OK\r\nContent-Type: application/json\r\nX-Slow: ' + 'x'.repeat(3600);
      let i = 0;
      every(1000, () => {
        if (sock.destroyed || i >= head.length) return false;
        sock.write(head[i++] ?? '');
        return true;
      });
    },
    'slow-body': (_req, sock) => {
      const body = json({ data: 'x'.repeat(100) });
      hits.statuses.push(200);
      sock.write(`HTTP/1.1 200 OK\r\nContent-Type: application/json\r\nContent-Length: ${body.length}\r\n\r\n`);
      let i = 0;
      every(1000, () => {
        if (sock.destroyed || i >= body.length) return false;
        sock.write(body[i++] ?? '');
        hits.bodyBytesSent++;
        return true;
      });
    },
    'not-json': (_req, sock) => respond(sock, 200, [['Content-Type', 'application/json']], '<html><body>502 Bad Gateway</body></html>'),
    'huge-body': (_req, sock) => {
      hits.statuses.push(200);
      sock.write(`HTTP/1.1 200 OK\r\nContent-Type: application/json\r\nContent-Length: ${HUGE_BODY_BYTES}\r\n\r\n`);
      const chunk = Buffer.alloc(64 * 1024, 0x20);
      const pump = (): void => {
        while (!sock.destroyed && hits.bodyBytesSent < HUGE_BODY_BYTES) {
          hits.bodyBytesSent += chunk.length;
          if (!sock.write(chunk)) {
            sock.once('drain', pump);
            return;
          }
        }
      };
      pump();
    },
    'bad-headers': (_req, sock) =>
      respond(
        sock,
        200,
        [
          ['Content-Type', 'application/json'],
          ['RateLimit-Limit', '100'],
          ['RateLimit-Limit', '50'],
          ['RateLimit-Remaining', 'abc'],
          ['RateLimit-Reset', '-5'],
          ['Retry-After', '1.5'],
          ['X-Request-Id', ''],
        ],
        json({ data: [] }),
      ),
    'redirect-cross-origin': (req, sock) =>
      respond(
        sock,
        302,
        [
          ['Location', `${redirectUrl ?? ''}?expires=300&signature=deadbeef`],
          ['Content-Type', 'application/json'],
          ['X-Request-Id', `req_${hits.requests}`],
        ],
        json({ moved: req.target }),
      ),
    'error-storm': (_req, sock) => {
      // Cycles through 500/503 with and without Retry-After, so every combination is seen in four requests.
      const n = hits.requests - 1;
      const status = n % 2 === 0 ? 500 : 503;
      const headers: Array<[string, string]> = [
        ['Content-Type', 'application/json'],
        ['X-Request-Id', `req_${hits.requests}`],
      ];
      if (n % 4 >= 2) headers.push(['Retry-After', '1']);
      respond(sock, status, headers, envelope(status === 500 ? 'internal' : 'unavailable'));
    },
    'early-close': (_req, sock) => {
      respond(
        sock,
        200,
        [
          ['Content-Type', 'application/json'],
          ['Connection', 'keep-alive'],
        ],
        json({ data: [] }),
      );
    },
    http10: (_req, sock) => {
      hits.statuses.push(200);
      const body = json({ data: [], protocol: 'HTTP/1.0' });
      sock.end(`HTTP/1.0 200 OK\r\nContent-Type: application/json\r\nConnection: close\r\n\r\n${body}`);
      hits.bodyBytesSent += body.length;
      hits.serverClosed++;
    },
  };

  const main = await listenRaw(hits, handlers[mode], {
    countHits: true,
    // Idle keep-alive sockets are closed by the server after EARLY_CLOSE_MS: the client must not reuse them.
    ...(mode === 'early-close' ? { idleCloseMs: EARLY_CLOSE_MS } : {}),
  });

  return {
    url: `http://127.0.0.1:${main.port}/v1`,
    ...(redirectUrl ? { redirectUrl } : {}),
    hits,
    close: async () => {
      for (const t of timers) clearTimeout(t);
      timers.clear();
      await Promise.all([main.close(), redirect?.close()]);
    },
  };
}

const REASONS: Record<number, string> = { 200: 'OK', 302: 'Found', 500: 'Internal Server Error', 503: 'Service Unavailable' };

interface RawServer {
  port: number;
  close(): Promise<void>;
}

/** A raw HTTP/1.1 listener: parses request heads (and skips Content-Length bodies), then calls the handler. */
async function listenRaw(hits: HostileHits, handler: Handler, opts: { countHits: boolean; idleCloseMs?: number }): Promise<RawServer> {
  const sockets = new Set<net.Socket>();
  const server = net.createServer((sock) => {
    sockets.add(sock);
    if (opts.countHits) hits.connections++;
    sock.on('close', () => sockets.delete(sock));
    sock.on('error', () => undefined);
    let buf = Buffer.alloc(0);
    let idle: NodeJS.Timeout | undefined;
    sock.on('close', () => clearTimeout(idle));
    sock.on('data', (data: Buffer) => {
      clearTimeout(idle);
      buf = Buffer.concat([buf, data]);
      for (;;) {
        const end = buf.indexOf('\r\n\r\n');
        if (end < 0) break;
        const lines = buf.subarray(0, end).toString('latin1').split('\r\n');
        const [method = '', target = ''] = (lines[0] ?? '').split(' ');
        const headers: Record<string, string> = {};
        for (const line of lines.slice(1)) {
          const i = line.indexOf(':');
          if (i > 0) headers[line.slice(0, i).trim().toLowerCase()] = line.slice(i + 1).trim();
        }
        const length = Number(headers['content-length'] ?? 0);
        if (buf.length < end + 4 + length) break;
        buf = buf.subarray(end + 4 + length);
        if (opts.countHits) hits.requests++;
        handler({ method, target, headers }, sock);
      }
      if (opts.idleCloseMs !== undefined) {
        idle = setTimeout(() => {
          hits.serverClosed++;
          sock.end();
        }, opts.idleCloseMs);
      }
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const port = (server.address() as net.AddressInfo).port;
  return {
    port,
    close: () =>
      new Promise<void>((resolve) => {
        for (const s of sockets) s.destroy();
        server.close(() => resolve());
      }),
  };
}

/**
 * The framings of the hostile framing server: each is one way a server may answer, and whether a client
 * must take the answer (`good`) or refuse it as malformed (`bad`). Bad framings are mixed with good answers
 * (every third answer is bad), so an error charged to the wrong request shows in the counts.
 */
export const FRAMINGS = {
  'content-length': 'good',
  'split-one-byte-per-write': 'good',
  'head-split-mid-line': 'good',
  'chunked-extensions-trailers': 'good',
  'interim-100-103': 'good',
  'no-content-204': 'good',
  'not-modified-304': 'good',
  'connection-close': 'good',
  'close-delimited': 'good',
  http10: 'good',
  'head-40k': 'good',
  'bare-lf': 'good',
  'crlf-after-body': 'good',
  'leading-crlf': 'good',
  'silent-close-every-5th': 'good',
  'space-before-colon': 'bad',
  'content-length-and-chunked': 'bad',
  'status-4-digits': 'bad',
  'chunk-size-0x': 'bad',
  'chunk-size-junk': 'bad',
  'content-length-23-digits': 'bad',
  'content-length-junk': 'bad',
  'head-70k-complete': 'bad',
  'junk-after-body': 'bad',
  'two-answers-one-write': 'bad',
  'no-content-with-body': 'bad',
  'late-duplicate': 'bad',
} as const;
export type Framing = keyof typeof FRAMINGS;

export interface FramingServer {
  url: string;
  /** What the server did: requests read, good and bad answers written, connections accepted and closed. */
  counts: { requests: number; good: number; bad: number; connections: number; serverClosed: number };
  close(): Promise<void>;
}

const BODY = '{"data":[]}';
const OK = `HTTP/1.1 200 OK\r\nContent-Type: application/json\r\nContent-Length: ${BODY.length}\r\n\r\n${BODY}`;

/**
 * Starts a server on 127.0.0.1:0 answering every request in `framing` (bad framings: every third answer;
 * the others are plain 200s). Counts are the server's own, to check a client's accounting against.
 */
export async function startFramingServer(framing: Framing): Promise<FramingServer> {
  const counts = { requests: 0, good: 0, bad: 0, connections: 0, serverClosed: 0 };
  const bad = FRAMINGS[framing] === 'bad';
  const hits: HostileHits = {
    requests: 0,
    connections: 0,
    serverClosed: 0,
    bodyBytesSent: 0,
    statuses: [],
    redirectTarget: { requests: 0, withAuthorization: 0 },
  };
  let perSocket = new WeakMap<net.Socket, number>();
  const end = (sock: net.Socket, text: string): void => {
    counts.serverClosed++;
    sock.end(text);
  };
  const answer = (sock: net.Socket): void => {
    // A request that arrives after the server closed its side is never answered (the client must re-send it).
    if (sock.writableEnded || sock.destroyed) return;
    const n = counts.requests++;
    const onSocket = (perSocket.get(sock) ?? 0) + 1;
    perSocket.set(sock, onSocket);
    if (bad && n % 3 !== 1) {
      counts.good++;
      sock.write(OK);
      return;
    }
    if (bad) counts.bad++;
    else counts.good++;
    const chunked = (head: string, sizes: string[]): string =>
      `${head}Transfer-Encoding: chunked\r\n\r\n${sizes.map((s, i) => `${s}\r\n${i === 0 ? BODY : ''}\r\n`).join('')}`;
    switch (framing) {
      case 'content-length':
        return void sock.write(OK);
      case 'split-one-byte-per-write':
        return writeSplit(sock, OK, 1);
      case 'head-split-mid-line':
        return writeSplit(sock, OK, 23);
      case 'chunked-extensions-trailers':
        return writeSplit(
          sock,
          `HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n5;a=b\r\n{"dat\r\n6;c\r\na":[]}\r\n0\r\nX-Trailer: t\r\n\r\n`,
          7,
        );
      case 'interim-100-103':
        return void sock.write(`HTTP/1.1 100 Continue\r\n\r\nHTTP/1.1 103 Early Hints\r\nLink: </a>\r\n\r\n${OK}`);
      case 'no-content-204':
        return void sock.write('HTTP/1.1 204 No Content\r\n\r\n');
      case 'not-modified-304':
        return void sock.write('HTTP/1.1 304 Not Modified\r\nContent-Length: 11\r\n\r\n');
      case 'connection-close':
        return end(sock, OK.replace('\r\n\r\n', '\r\nConnection: close\r\n\r\n'));
      case 'close-delimited':
        return end(sock, `HTTP/1.1 200 OK\r\nContent-Type: application/json\r\n\r\n${BODY}`);
      case 'http10':
        return end(sock, `HTTP/1.0 200 OK\r\n\r\n${BODY}`);
      case 'head-40k':
        return void sock.write(OK.replace('\r\n\r\n', `\r\nX-Big: ${'x'.repeat(40_000)}\r\n\r\n`));
      case 'bare-lf':
        return void sock.write(OK.replace(/\r\n/g, '\n'));
      case 'crlf-after-body':
        return void sock.write(`${OK}\r\n`);
      case 'leading-crlf':
        return void sock.write(`\r\n${OK}`);
      case 'silent-close-every-5th':
        return onSocket % 5 === 0 ? end(sock, OK) : void sock.write(OK);
      case 'space-before-colon':
        return void sock.write(OK.replace('Content-Length:', 'Content-Length :'));
      case 'content-length-and-chunked':
        return void sock.write(chunked(`HTTP/1.1 200 OK\r\nContent-Length: ${BODY.length}\r\n`, [BODY.length.toString(16), '0']));
      case 'status-4-digits':
        return void sock.write(OK.replace('200 OK', '2000 OK'));
      case 'chunk-size-0x':
        return void sock.write(chunked('HTTP/1.1 200 OK\r\n', [`0x${BODY.length.toString(16)}`, '0']));
      case 'chunk-size-junk':
        return void sock.write(chunked('HTTP/1.1 200 OK\r\n', [`${BODY.length.toString(16)}zz`, '0']));
      case 'content-length-23-digits':
        return void sock.write(OK.replace(`Content-Length: ${BODY.length}`, 'Content-Length: 12345678901234567890123'));
      case 'content-length-junk':
        return void sock.write(OK.replace(`Content-Length: ${BODY.length}`, `Content-Length: ${BODY.length}x`));
      case 'head-70k-complete':
        return void sock.write(OK.replace('\r\n\r\n', `\r\nX-Big: ${'x'.repeat(70_000)}\r\n\r\n`));
      case 'junk-after-body':
        return void sock.write(`${OK}XYZ`);
      case 'two-answers-one-write':
        return void sock.write(OK + OK);
      case 'no-content-with-body':
        return void sock.write(`HTTP/1.1 204 No Content\r\n\r\n${BODY}`);
      case 'late-duplicate':
        // The same answer again, in a write of its own: a second TCP segment (Nagle off, so it is not held
        // back until the client's next request acknowledges the first: a duplicate that arrives after the
        // next request went out cannot be told from that request's answer by any HTTP/1.1 client).
        sock.setNoDelay(true);
        sock.write(OK);
        return void sock.write(OK);
    }
  };
  const main = await listenRaw(
    hits,
    (req, sock) => {
      // The open engine's warm-up HEAD: answered plainly and not counted (it is not part of the run).
      if (req.method === 'HEAD') sock.write(`HTTP/1.1 200 OK\r\nContent-Length: ${BODY.length}\r\n\r\n`);
      else answer(sock);
    },
    { countHits: true },
  );
  return {
    url: `http://127.0.0.1:${main.port}/v1`,
    get counts() {
      return { ...counts, connections: hits.connections };
    },
    close: async () => {
      perSocket = new WeakMap();
      await main.close();
    },
  };
}

/** Writes `text` in pieces of `size` bytes, one per event-loop turn. */
function writeSplit(sock: net.Socket, text: string, size: number): void {
  let i = 0;
  const step = (): void => {
    if (i >= text.length || sock.destroyed) return;
    sock.write(text.slice(i, i + size));
    i += size;
    setImmediate(step);
  };
  step();
}
