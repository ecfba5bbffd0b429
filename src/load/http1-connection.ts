/**
 * One keep-alive HTTP/1.1 connection of the load engines (both models), with its own small response
 * parser. The open model used undici: per request a promise chain, a body stream, an AbortController and a
 * timer for the whole-request deadline — about five times autocannon's CPU per response, so a capacity run
 * measured the generator's ceiling. Here a request is one socket write of a prebuilt buffer, and a response
 * is parsed straight out of the socket's chunks: status line, the framing headers (Content-Length, chunked
 * Transfer-Encoding, Connection) and the headers the verifier reads; a body is skipped undecoded unless the
 * engine asked to keep it (429 bodies, for their error code). Pipelining 1; the connection is opened on
 * first use and again after the server closes it. `connect` options (CA, client certificate, server name)
 * go to `tls.connect` for https targets. Deadlines are swept by the engine (one timer for all requests).
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
import { CONNECTION, CONTENT_LENGTH, LIMIT, NONE, REMAINING, REQUEST_ID, RESET, RETRY_AFTER, TRANSFER_ENCODING, headerSlot } from './header-slot.js';
import { LOAD_BODY_LIMIT } from './request-bounds.js';
import { describeTransportError } from './engine.js';
import { authorityOf } from '../client/transport.js';
import { connectRequest, readConnectAnswer, type Http1Proxy } from './proxy-connect.js';

export type { Http1Proxy };

/** The most bytes of a response head (status line and headers) before the response is refused. */
export const MAX_HEAD_BYTES = 64 * 1024;

const CRLFCRLF = Buffer.from('\r\n\r\n');

const HEAD = 0;
const BODY = 1;
const CHUNK_SIZE = 2;
const CHUNK_DATA = 3;
const CHUNK_END = 4;
const TRAILER = 5;
const UNTIL_CLOSE = 6;

/** What a response carried, as the engine records it (header values exactly as sent, repeats joined). */
export interface Http1Head {
  status: number;
  limit: string | undefined;
  remaining: string | undefined;
  reset: string | undefined;
  retryAfter: string | undefined;
  requestId: string | undefined;
}

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
  /** A request is in flight. */
  busy = false;
  /** Engine fields of the request in flight (no object per request). */
  route = 0;
  intended = 0;
  sent = 0;
  /** When the connection last became free (ms on the engine's clock): the start of its send-time slip. */
  freedAt = 0;
  tag = 0;
  private socket: net.Socket | undefined;
  private phase = HEAD;
  private pending: Buffer | undefined;
  private head: Http1Head = blankHead();
  private headRequest = false;
  private closeAfter = false;
  private chunked = false;
  private left = 0;
  private bodyBytes = 0;
  private keep = false;
  private parts: Buffer[] = [];
  /** Responses completed on this connection (a response ending mid-chunk is told by it). */
  private responses = 0;
  /** The CONNECT not answered yet (requests wait in it); undefined once the tunnel is up, or with no proxy. */
  private tunnel: PendingTunnel | undefined;
  /** The proxy socket under a TLS session inside the tunnel (closed with it). */
  private under: net.Socket | undefined;

  constructor(private readonly endpoint: Http1Endpoint, private readonly handler: Http1Handler, private readonly keepBody: (status: number) => boolean) {}

  /** Writes one request (a complete HTTP/1.1 message); `isHead` for a HEAD request (no response body). */
  send(data: Buffer | string, isHead = false): void {
    this.busy = true;
    this.headRequest = isHead;
    this.phase = HEAD;
    this.socket ??= this.open();
    if (this.tunnel) this.tunnel.queued.push(data);
    else this.socket.write(data);
  }

  /** Ends the request in flight as failed (the engine's deadline) and drops the socket. */
  fail(error: string): void {
    const t = this.tunnel;
    if (t) error = `${error} (proxy ${this.endpoint.proxy!.shown} had not answered CONNECT ${t.authority})`;
    this.drop();
    if (!this.busy) return;
    this.busy = false;
    this.handler.onFailure(this, error);
  }

  /** Closes the socket; nothing is reported. */
  destroy(): void {
    this.busy = false;
    this.drop();
  }

  private drop(): void {
    const s = this.socket;
    const u = this.under;
    this.socket = undefined;
    this.under = undefined;
    this.tunnel = undefined;
    this.pending = undefined;
    this.parts = [];
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
      if (s === this.socket) this.data(chunk);
    });
    s.on('error', (err) => {
      if (s === this.socket) this.fail(describeTransportError(err));
    });
    s.on('close', () => {
      if (s !== this.socket) return;
      if (this.busy && this.phase === UNTIL_CLOSE) {
        this.socket = undefined;
        this.complete();
      } else this.fail('socket closed before the response ended');
    });
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
    const t: PendingTunnel = { raw, authority, answer: undefined, queued: [], release: () => raw.off('data', onData).off('error', onError).off('close', onClose) };
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
    if (s === raw && answer.rest.length > 0) this.data(answer.rest);
  }

  /** Parses one chunk of the socket's bytes (a response may span chunks; a chunk never holds two, pipelining 1). */
  private data(input: Buffer): void {
    let chunk = input;
    if (this.pending) {
      chunk = Buffer.concat([this.pending, input]);
      this.pending = undefined;
    }
    let off = 0;
    const seen = this.responses;
    while (off < chunk.length) {
      if (this.responses !== seen) {
        // Bytes after the end of a response, with one request in flight: the framing is lost. If the
        // handler already sent the next request on this connection, that request fails (no misread answer).
        this.fail('bytes after the end of a response');
        return;
      }
      if (!this.busy) {
        // Bytes nobody asked for: the connection's framing is lost.
        this.drop();
        return;
      }
      switch (this.phase) {
        case HEAD: {
          const end = chunk.indexOf(CRLFCRLF, off);
          if (end < 0) {
            if (chunk.length - off > MAX_HEAD_BYTES) return this.fail(`response headers longer than ${MAX_HEAD_BYTES} bytes`);
            this.pending = chunk.subarray(off);
            return;
          }
          const error = this.parseHead(chunk.toString('latin1', off, end));
          if (error) return this.fail(error);
          off = end + 4;
          const st = this.head.status;
          if (st >= 100 && st < 200) {
            // An interim response (100 Continue): the real one follows.
            this.head = blankHead();
            continue;
          }
          this.keep = this.keepBody(st);
          this.bodyBytes = 0;
          if (this.headRequest || st === 204 || st === 304) this.complete();
          else if (this.chunked) this.phase = CHUNK_SIZE;
          else if (this.left >= 0) {
            if (this.left > LOAD_BODY_LIMIT) {
              // Not worth reading (as undici's dump() decides): the response counts, the connection goes.
              this.keep = false;
              this.closeAfter = true;
              this.complete();
              return;
            }
            if (this.left === 0) this.complete();
            else this.phase = BODY;
          } else this.phase = UNTIL_CLOSE;
          break;
        }
        case BODY:
        case CHUNK_DATA:
        case UNTIL_CLOSE: {
          const n = this.phase === UNTIL_CLOSE ? chunk.length - off : Math.min(this.left, chunk.length - off);
          this.bodyBytes += n;
          if (this.bodyBytes > LOAD_BODY_LIMIT) {
            this.keep = false;
            this.closeAfter = true;
            this.complete();
            return;
          }
          if (this.keep) this.parts.push(chunk.subarray(off, off + n));
          off += n;
          if (this.phase === UNTIL_CLOSE) break;
          this.left -= n;
          if (this.left === 0) {
            if (this.phase === BODY) this.complete();
            else {
              this.phase = CHUNK_END;
              this.left = 2;
            }
          }
          break;
        }
        case CHUNK_END: {
          const n = Math.min(this.left, chunk.length - off);
          off += n;
          this.left -= n;
          if (this.left === 0) this.phase = CHUNK_SIZE;
          break;
        }
        case CHUNK_SIZE:
        case TRAILER: {
          const lf = chunk.indexOf(10, off);
          if (lf < 0) {
            if (chunk.length - off > 1024) return this.fail('malformed chunked body');
            this.pending = chunk.subarray(off);
            return;
          }
          const line = chunk.toString('latin1', off, lf).trim();
          off = lf + 1;
          if (this.phase === TRAILER) {
            if (line === '') this.complete();
            break;
          }
          const size = parseInt(line, 16);
          if (!/^[0-9a-fA-F]+/.test(line) || !Number.isFinite(size)) return this.fail('malformed chunked body');
          if (size === 0) this.phase = TRAILER;
          else {
            this.phase = CHUNK_DATA;
            this.left = size;
          }
          break;
        }
      }
    }
  }

  /** Reads the status line and the headers that matter; sets the body framing. An error is one line. */
  private parseHead(text: string): string | undefined {
    const h = (this.head = blankHead());
    const eol = text.indexOf('\r\n');
    const statusLine = eol < 0 ? text : text.slice(0, eol);
    if (!statusLine.startsWith('HTTP/1.') || statusLine.charCodeAt(8) !== 32) return `malformed status line: ${JSON.stringify(statusLine.slice(0, 40))}`;
    const status = Number(statusLine.slice(9, 12));
    if (!Number.isInteger(status) || status < 100 || status > 999) return `malformed status line: ${JSON.stringify(statusLine.slice(0, 40))}`;
    h.status = status;
    this.closeAfter = statusLine.charCodeAt(7) === 48; // HTTP/1.0 closes unless it says keep-alive
    this.left = -1;
    this.chunked = false;
    let i = eol < 0 ? text.length : eol;
    while (i < text.length) {
      const s = i + 2;
      let e = text.indexOf('\r\n', s);
      if (e < 0) e = text.length;
      i = e;
      const colon = text.indexOf(':', s);
      if (colon <= s || colon > e) continue;
      const slot = headerSlot(text.slice(s, colon));
      if (slot === NONE) continue;
      const v = text.slice(colon + 1, e).trim();
      switch (slot) {
        case LIMIT: h.limit = h.limit === undefined ? v : `${h.limit}, ${v}`; break;
        case REMAINING: h.remaining = h.remaining === undefined ? v : `${h.remaining}, ${v}`; break;
        case RESET: h.reset = h.reset === undefined ? v : `${h.reset}, ${v}`; break;
        case RETRY_AFTER: h.retryAfter = h.retryAfter === undefined ? v : `${h.retryAfter}, ${v}`; break;
        case REQUEST_ID: h.requestId = h.requestId === undefined ? v : `${h.requestId}, ${v}`; break;
        case CONTENT_LENGTH: {
          if (!/^\d+$/.test(v) || (this.left >= 0 && this.left !== Number(v))) return `invalid content-length: ${JSON.stringify(v.slice(0, 20))}`;
          this.left = Number(v);
          break;
        }
        case TRANSFER_ENCODING:
          if (/(^|,)\s*chunked\s*$/i.test(v)) this.chunked = true;
          break;
        case CONNECTION: {
          const lower = v.toLowerCase();
          if (lower.includes('close')) this.closeAfter = true;
          else if (lower.includes('keep-alive')) this.closeAfter = false;
          break;
        }
      }
    }
    // Chunked framing wins over a Content-Length (RFC 9112 §6.3).
    if (this.chunked) this.left = 0;
    return undefined;
  }

  /** The response is complete: the connection is free again before the handler runs (it may send at once). */
  private complete(): void {
    const head = this.head;
    const body = this.keep ? Buffer.concat(this.parts).toString('utf8') : undefined;
    this.parts = [];
    this.head = blankHead();
    this.phase = HEAD;
    this.busy = false;
    this.responses++;
    if (this.closeAfter) this.drop();
    this.handler.onResponse(this, head, body);
  }
}

function blankHead(): Http1Head {
  return { status: 0, limit: undefined, remaining: undefined, reset: undefined, retryAfter: undefined, requestId: undefined };
}

/** The bytes of one request: request line, Host, the given headers, and the body with its length. */
export function requestBytes(method: string, path: string, host: string, headers: Record<string, string>, body?: string): string {
  let out = `${method} ${path} HTTP/1.1\r\nhost: ${host}\r\n`;
  for (const [k, v] of Object.entries(headers)) out += `${k}: ${v}\r\n`;
  if (body !== undefined) out += `content-length: ${Buffer.byteLength(body)}\r\n\r\n${body}`;
  else out += '\r\n';
  return out;
}
