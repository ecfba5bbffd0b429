/**
 * The CONNECT handshake of the load engines' connections through an egress proxy (RFC 9110 §9.3.6), as pure
 * functions: the request that asks the proxy for a tunnel, and the reading of the proxy's answer head. The
 * socket work (queueing the engine's request until the tunnel is up, TLS inside it) is in
 * http1-connection.ts. Every line names the proxy as `shown` (without user and password), never the
 * Proxy-Authorization it carried.
 */
import type { ConnectionOptions } from 'node:tls';

/** Where a connection's tunnel goes: the proxy, how to reach it, and how it may be printed. */
export interface Http1Proxy {
  host: string;
  port: number;
  /** An https:// proxy: TLS to the proxy itself (then, for an https target, TLS again inside the tunnel). */
  tls: boolean;
  /** Extra options for the TLS connection to an https:// proxy (none: the system's roots). */
  connect?: ConnectionOptions;
  /** The Proxy-Authorization value (basic auth from the proxy URL's user:password). Never printed. */
  authorization?: string;
  /** The proxy as it may be printed: scheme, host and port only. */
  shown: string;
}

/** The most bytes of a proxy's answer head to CONNECT before the tunnel is refused. */
export const MAX_CONNECT_HEAD_BYTES = 16 * 1024;

/** The bytes asking the proxy for a tunnel to `authority`. */
export function connectRequest(authority: string, authorization: string | undefined): string {
  return `CONNECT ${authority} HTTP/1.1\r\nHost: ${authority}\r\n${authorization !== undefined ? `Proxy-Authorization: ${authorization}\r\n` : ''}\r\n`;
}

/**
 * What the proxy's bytes so far say: `more` (the head is not complete yet), `open` (2xx: the tunnel is up,
 * `rest` are the tunnel's first bytes), or `refused` with one line naming the proxy, the authority and the
 * status (or what was malformed). Interim 1xx answers are skipped.
 */
export type ConnectAnswer = { kind: 'more' } | { kind: 'open'; rest: Buffer } | { kind: 'refused'; error: string };

const CRLFCRLF = Buffer.from('\r\n\r\n');

/** Reads the proxy's answer to CONNECT `authority` from `buf` (all its bytes so far). */
export function readConnectAnswer(buf: Buffer, proxy: string, authority: string): ConnectAnswer {
  let off = 0;
  for (;;) {
    const end = buf.indexOf(CRLFCRLF, off);
    if (end < 0) {
      if (buf.length - off > MAX_CONNECT_HEAD_BYTES)
        return {
          kind: 'refused',
          error: `proxy ${proxy} answered CONNECT ${authority} with a head longer than ${MAX_CONNECT_HEAD_BYTES} bytes`,
        };
      return { kind: 'more' };
    }
    const eol = buf.indexOf('\r\n', off);
    const line = buf.toString('latin1', off, eol);
    const m = /^HTTP\/1\.[01] (\d{3})(?: ([^\r\n]*))?$/.exec(line);
    if (!m)
      return {
        kind: 'refused',
        error: `proxy ${proxy} sent a malformed answer to CONNECT ${authority}: ${JSON.stringify(line.slice(0, 40))}`,
      };
    const status = Number(m[1]);
    off = end + 4;
    if (status >= 100 && status < 200) continue;
    if (status >= 200 && status < 300) return { kind: 'open', rest: buf.subarray(off) };
    const reason = (m[2] ?? '')
      .replace(/[\x00-\x1f\x7f]/g, '')
      .trim()
      .slice(0, 60);
    return { kind: 'refused', error: `proxy ${proxy} refused CONNECT ${authority}: ${status}${reason ? ` ${reason}` : ''}` };
  }
}
