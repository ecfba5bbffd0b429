/**
 * One keep-alive HTTP/1.1 connection of the load engines (both models), with its own small response
 * parser. The open model used undici: per request a promise chain, a body stream, an AbortController and a
 * timer for the whole-request deadline — about five times autocannon's CPU per response, so a capacity run
 * measured the generator's ceiling. Here a request is one socket write of a prebuilt buffer, and a response
 * is parsed straight out of the socket's chunks: status line, the framing headers (Content-Length, chunked
 * Transfer-Encoding, Connection) and the headers the verifier reads; a body is skipped undecoded unless the
 * engine asked to keep it (429 bodies, for their error code). The parser is http1-parser.ts. Pipelining 1;
 * the connection is opened on first use and again after the server closes it. `connect` options (CA, client
 * certificate, server name) go to `tls.connect` for https targets. Deadlines are swept by the engine (one
 * timer for all requests).
 *
 * Servers close idle keep-alive connections without saying so (idle timeouts, deploy drains, load balancers
 * recycling connections), so, as undici and Go's transport do: a complete response is handed to the engine
 * from a setImmediate after the socket's I/O, never inside its data callback, so a close (or stray bytes)
 * that came with it is seen before the next request is written; a request written on a reused connection
 * that dies before any byte of its answer is re-sent once on a fresh connection (`retries`, not an error);
 * and a `Keep-Alive: timeout=N` hint closes the socket ahead of the server (a second early). Bytes after a
 * complete response other than line ends fail that response and close the connection; they are never read
 * as the next request's answer.
 *
 * Through an egress proxy (endpoint `proxy`), opening a connection opens one CONNECT tunnel
 * (proxy-connect.ts): the request the engine sends at once waits until the proxy answers 2xx, then TLS
 * starts inside the tunnel for an https target (or the tunnel carries plain HTTP); a refusal is the
 * request's failure, one line naming the proxy without its credentials. The tunnel lives as long as the
 * connection; a reconnect opens a new one. All of it is in open() and the tunnel methods: the parser and
 * the per-response path do not know about proxies.
 */
import net from 'node:net';
import tls from 'node:tls';
import { describeTransportError } from './engine.js';
import { authorityOf } from '../client/transport.js';
import { connectRequest, readConnectAnswer, type Http1Proxy } from './proxy-connect.js';
import { DONE, FAIL, Http1Parser, MORE, type Http1Head } from './http1-parser.js';

export type { Http1Proxy, Http1Head };
export { MAX_HEAD_BYTES } from './http1-parser.js';

/** How long before a server's `Keep-Alive: timeout=N` runs out the connection stops being reused, ms. */
const KEEP_ALIVE_MARGIN_MS = 1000;

/** Where a connection reports the end of each request. */
export interface Http1Handler {
  /** A complete response; `body` only when `keepBody(status)` said so (and it fit the limit). */
  onResponse(conn: Http1Connection, head: Http1Head, body: string | undefined): void;
  /** The request failed (connect error, reset, malformed response, deadline): one line naming it. */
  onFailure(conn: Http1Connection, error: string): void;
}

export interface Http1Endpoint {
  host: string;
  port: number;
  tls: boolean;
  /** Extra options for tls.connect (CA, cert, key, servername, rejectUnauthorized). */
  connect?: tls.ConnectionOptions;
  /** The egress proxy to tunnel through (CONNECT), when one applies to the target. */
  proxy?: Http1Proxy;
}

/** A tunnel being opened: the proxy's answer so far and the request waiting for the tunnel. */
interface PendingTunnel {
  raw: net.Socket;
  authority: string;
  answer: Buffer | undefined;
  queued: (Buffer | string)[];
  /** Removes the proxy-phase handlers from `raw`. */
  release: () => void;
}

/** One connection; the engine's per-request fields (`route`, `intended`, `sent`, `tag`) ride on it. */
export class Http1Connection {
  /** A request is in flight (or its complete answer waits to be handed over). */
  busy = false;
  /** Engine fields of the request in flight (no object per request). */
  route = 0;
  intended = 0;
  sent = 0;
  /** When the last response ended (the clock's ms), for its latency: it is handed over a little later. */
  received = 0;
  /** When the connection last became free (ms on the engine's clock): the start of its send-time slip. */
  freedAt = 0;
  tag = 0;
  /** Sockets opened (connection churn). */
  opened = 0;
  /** Requests re-sent on a fresh connection because a reused one died before any byte of the answer. */
  retries = 0;
  private socket: net.Socket | undefined;
  private readonly parser: Http1Parser;
  /** The request in flight (kept for its one re-send). */
  private data: Buffer | string = '';
  private isHead = false;
  /** The request in flight was written on a socket that had answered before. */
  private reused = false;
  private retried = false;
  /** A byte of the answer has arrived (so it is never re-sent). */
  private gotBytes = false;
  /** Responses completed on the current socket. */
  private uses = 0;
  /** The clock time after which the server's keep-alive hint says the socket may be gone. */
  private idleUntil = Infinity;
  /** A complete response waits in the hand-over queue. */
  private ready = false;
  /** The CONNECT not answered yet (requests wait in it); undefined once the tunnel is up, or with no proxy. */
  private tunnel: PendingTunnel | undefined;
  /** The proxy socket under a TLS session inside the tunnel (closed with it). */
  private under: net.Socket | undefined;

  constructor(
    private readonly endpoint: Http1Endpoint,
    private readonly handler: Http1Handler,
    keepBody: (status: number) => boolean,
    private readonly clock: () => number = defaultClock,
  ) {
    this.parser = new Http1Parser(keepBody);
  }

  /** Writes one request (a complete HTTP/1.1 message); `isHead` for a HEAD request (no response body). */
  send(data: Buffer | string, isHead = false): void {
    this.busy = true;
    this.data = data;
    this.isHead = isHead;
    this.retried = false;
    // The server said how long it keeps an idle connection: do not race its close (`sent` is the engine's
    // send time, set just before: no clock read per request).
    if (this.socket && this.sent >= this.idleUntil) this.drop();
    this.write();
  }

  /** Ends the request in flight as failed (the engine's deadline) and drops the socket. */
  fail(error: string): void {
    const t = this.tunnel;
    if (t) error = `${error} (proxy ${this.endpoint.proxy!.shown} had not answered CONNECT ${t.authority})`;
    this.drop();
    this.ready = false;
    if (!this.busy) return;
    this.busy = false;
    this.handler.onFailure(this, error);
  }

  /** Closes the socket; nothing is reported. */
  destroy(): void {
    this.busy = false;
    this.ready = false;
    this.drop();
  }

  /** Hands the complete response over to the engine (from the queue's setImmediate). */
  deliver(): void {
    if (!this.ready) return;
    this.ready = false;
    this.busy = false;
    this.handler.onResponse(this, this.parser.head, this.parser.body);
  }

  /** Writes the request in flight, on a new socket when there is none. */
  private write(): void {
    this.parser.reset(this.isHead);
    this.gotBytes = false;
    if (!this.socket) {
      this.socket = this.open();
      this.uses = 0;
      this.idleUntil = Infinity;
      this.opened++;
    }
    this.reused = this.uses > 0;
    if (this.tunnel) this.tunnel.queued.push(this.data);
    else this.socket.write(this.data);
  }

  private drop(): void {
    const s = this.socket;
    const u = this.under;
    this.socket = undefined;
    this.under = undefined;
    this.tunnel = undefined;
    s?.destroy();
    u?.destroy();
  }

  private open(): net.Socket {
    const { host, port, proxy } = this.endpoint;
    if (proxy) return this.openTunnel(proxy);
    const s = this.endpoint.tls
      ? tls.connect({ host, port, servername: net.isIP(host) ? undefined : host, ...this.endpoint.connect })
      : net.connect({ host, port });
    s.setNoDelay(true);
    this.listen(s);
    return s;
  }

  /** The connection's handlers on `s`, the socket that carries HTTP (directly, or inside a tunnel). */
  private listen(s: net.Socket): void {
    s.on('data', (chunk: Buffer) => {
      if (s === this.socket) this.onData(chunk);
    });
    s.on('error', (err) => {
      if (s === this.socket) this.ended(describeTransportError(err));
    });
    // 'end' comes in the same turn as the read that saw the close (before the hand-over's setImmediate).
    s.on('end', () => {
      if (s === this.socket) this.ended('');
    });
    s.on('close', () => {
      if (s === this.socket) this.ended('');
    });
  }

  /** The socket is gone (end, close or error): a body read to the close ends; a request with no answer yet is re-sent once or fails. */
  private ended(error: string): void {
    if (!this.busy || this.ready) {
      // Idle, or the answer is complete and waits to be handed over: the next request opens a new socket.
      this.drop();
      return;
    }
    const p = this.parser;
    if (p.finish() === DONE) {
      this.drop();
      this.complete();
      return;
    }
    if (!this.gotBytes && this.reused && !this.retried && !this.tunnel) {
      // A silent keep-alive close raced the request: the server never saw it answered; try once more.
      this.retried = true;
      this.retries++;
      this.drop();
      this.write();
      return;
    }
    this.fail(error || p.error);
  }

  /** One chunk of the HTTP socket's bytes. */
  private onData(chunk: Buffer): void {
    if (!this.busy || this.ready) {
      if (lineEndsOnly(chunk, 0)) return;
      // Bytes after a complete response: charged to it while it waits to be handed over, else the
      // connection's framing is lost and it goes (the next request opens a new one).
      if (this.ready) this.fail('bytes after the end of the response');
      else this.drop();
      return;
    }
    this.gotBytes = true;
    const p = this.parser;
    const v = p.execute(chunk);
    if (v === MORE) return;
    if (v === FAIL) return this.fail(p.error);
    if (!p.truncated && !lineEndsOnly(p.buf, p.off)) return this.fail('bytes after the end of the response');
    this.complete();
  }

  /**
   * Connects to the proxy and asks it for a tunnel to the target; the returned socket is the proxy's until
   * the tunnel is up (`this.tunnel` set: requests wait, failures name the proxy).
   */
  private openTunnel(proxy: Http1Proxy): net.Socket {
    const authority = authorityOf(this.endpoint.host, this.endpoint.port);
    const raw = proxy.tls
      ? tls.connect({ host: proxy.host, port: proxy.port, servername: net.isIP(proxy.host) ? undefined : proxy.host, ...proxy.connect })
      : net.connect({ host: proxy.host, port: proxy.port });
    raw.setNoDelay(true);
    const t: PendingTunnel = {
      raw,
      authority,
      answer: undefined,
      queued: [],
      release: () => raw.off('data', onData).off('error', onError).off('close', onClose),
    };
    this.tunnel = t;
    const onData = (chunk: Buffer): void => {
      if (this.tunnel === t) this.tunnelData(t, chunk);
    };
    const onError = (err: Error): void => {
      if (this.tunnel !== t) return;
      this.tunnel = undefined;
      this.fail(`proxy ${proxy.shown} did not answer CONNECT ${authority}: ${describeTransportError(err)}`);
    };
    const onClose = (): void => {
      if (this.tunnel !== t) return;
      this.tunnel = undefined;
      this.fail(`proxy ${proxy.shown} closed the connection before answering CONNECT ${authority}`);
    };
    raw.on('data', onData).on('error', onError).on('close', onClose);
    raw.write(connectRequest(authority, proxy.authorization));
    return raw;
  }

  /** The proxy's bytes before the tunnel is up: its answer head, then (2xx) the tunnel's first bytes. */
  private tunnelData(t: PendingTunnel, chunk: Buffer): void {
    const buf = t.answer ? Buffer.concat([t.answer, chunk]) : chunk;
    const answer = readConnectAnswer(buf, this.endpoint.proxy!.shown, t.authority);
    if (answer.kind === 'more') {
      t.answer = buf;
      return;
    }
    this.tunnel = undefined;
    if (answer.kind === 'refused') return this.fail(answer.error);
    // The tunnel is up: the proxy's handlers go, the tunnel becomes the connection's socket.
    const { raw } = t;
    t.release();
    let s: net.Socket = raw;
    if (this.endpoint.tls) {
      // Bytes read past the head are the server's: given back to the (paused) socket, the TLS session
      // started on it reads them first.
      raw.pause();
      if (answer.rest.length > 0) raw.unshift(answer.rest);
      const host = this.endpoint.host;
      s = tls.connect({ socket: raw, servername: net.isIP(host) ? undefined : host, ...this.endpoint.connect });
      this.under = raw;
      raw.on('error', (err) => {
        if (this.under === raw) this.fail(describeTransportError(err));
      });
    }
    this.socket = s;
    this.listen(s);
    for (const data of t.queued) s.write(data);
    if (s === raw && answer.rest.length > 0) this.onData(answer.rest);
  }

  /** The response is complete: the socket goes if it must, and the response waits for the hand-over. */
  private complete(): void {
    const p = this.parser;
    this.received = this.clock();
    this.uses++;
    this.idleUntil = p.keepAliveMs >= 0 ? this.received + p.keepAliveMs - KEEP_ALIVE_MARGIN_MS : Infinity;
    if (p.closeAfter) this.drop();
    this.ready = true;
    handOver.push(this);
    if (handOver.length === 1) setImmediate(handAllOver);
  }
}

/** Complete responses of every connection, handed over in one setImmediate after the I/O that completed them. */
const handOver: Http1Connection[] = [];

function handAllOver(): void {
  // A hand-over completes nothing synchronously (sends only write), so the list is stable while walked; it
  // is emptied even if a handler throws, or no later completion would arm the next hand-over.
  try {
    for (let i = 0; i < handOver.length; i++) handOver[i]!.deliver();
  } finally {
    handOver.length = 0;
  }
}

function defaultClock(): number {
  return performance.now();
}

/** Only CR and LF bytes from `off` to the end (RFC 9112 §2.2: a client may skip them before a status line). */
function lineEndsOnly(buf: Buffer, off: number): boolean {
  for (let i = off; i < buf.length; i++) if (buf[i] !== 13 && buf[i] !== 10) return false;
  return true;
}

/** The bytes of one request: request line, Host, the given headers, and the body with its length. */
export function requestBytes(method: string, path: string, host: string, headers: Record<string, string>, body?: string): string {
  let out = `${method} ${path} HTTP/1.1\r\nhost: ${host}\r\n`;
  for (const [k, v] of Object.entries(headers)) out += `${k}: ${v}\r\n`;
  if (body !== undefined) out += `content-length: ${Buffer.byteLength(body)}\r\n\r\n${body}`;
  else out += '\r\n';
  return out;
}
