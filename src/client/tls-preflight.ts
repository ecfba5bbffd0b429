/**
 * One TLS handshake with an https target before a command sends anything, with the target file's tls
 * options and through the proxy that applies: a certificate that is not trusted, a name that does not match,
 * a client certificate the server requires or refuses, each becomes one line (SPGATE_ERR_TLS) naming the
 * host, the check that failed and the option that fixes it — instead of every request failing alike (the
 * load engines' own sockets verify the certificate too, with the same options, on every connection).
 *
 * Under TLS 1.3 the server judges the client certificate after the client's handshake is done, so the
 * preflight then sends `HEAD /` (no key, nothing of the API) and waits for the first bytes of an answer or
 * for the server's alert. A target that does not accept connections is not judged here (the command's own
 * reachability check reports it).
 */
import { request as httpRequest } from 'node:http';
import { request as httpsRequest } from 'node:https';
import type { Socket } from 'node:net';
import { connect as tlsConnect, type TLSSocket } from 'node:tls';
import { SpgateError } from '../errors.js';
import { authorityOf, proxyAuthorization, proxyFor, shownProxy, tlsConnectOptions, type TransportOptions } from './transport.js';

const UNTRUSTED = new Set([
  'UNABLE_TO_VERIFY_LEAF_SIGNATURE',
  'UNABLE_TO_GET_ISSUER_CERT',
  'UNABLE_TO_GET_ISSUER_CERT_LOCALLY',
  'SELF_SIGNED_CERT_IN_CHAIN',
  'DEPTH_ZERO_SELF_SIGNED_CERT',
  'CERT_UNTRUSTED',
  'CERT_SIGNATURE_FAILURE',
]);
const NOT_NETWORK = new Set(['ECONNREFUSED', 'ENOTFOUND', 'EAI_AGAIN', 'EHOSTUNREACH', 'ENETUNREACH', 'ETIMEDOUT']);

/** Verifies the TLS handshake with an https baseUrl; resolves for http targets and for unreachable ones. */
export async function checkTlsHandshake(baseUrl: string, t: TransportOptions = {}, timeoutMs = 10_000): Promise<void> {
  const url = new URL(baseUrl);
  if (url.protocol !== 'https:') return;
  const port = Number(url.port || 443);
  const host = url.hostname.replace(/^\[|\]$/g, '');
  const options = tlsConnectOptions(t.tls);
  const servername = options.servername ?? (/^[\d.]+$|:/.test(host) ? undefined : host);
  const proxy = proxyFor(url, t.env);
  const where = `${url.host}${proxy ? ` (through ${shownProxy(proxy)})` : ''}`;

  let socket: Socket | undefined;
  let secure: TLSSocket | undefined;
  const timer = setTimeout(() => {
    secure?.destroy(Object.assign(new Error('handshake timed out'), { code: 'ETIMEDOUT' }));
    socket?.destroy(Object.assign(new Error('handshake timed out'), { code: 'ETIMEDOUT' }));
  }, timeoutMs);
  try {
    socket = proxy ? await tunnel(proxy, host, port, timeoutMs) : undefined;
    const tlsSocket = tlsConnect({
      ...options,
      ...(socket ? { socket } : { host, port }),
      ...(servername ? { servername } : {}),
      ALPNProtocols: ['http/1.1'],
    });
    secure = tlsSocket;
    await new Promise<void>((resolve, reject) => {
      tlsSocket.once('error', reject);
      tlsSocket.once('secureConnect', () => {
        tlsSocket.write(`HEAD / HTTP/1.1\r\nHost: ${url.host}\r\nUser-Agent: spgate-tls-check\r\nConnection: close\r\n\r\n`);
        tlsSocket.once('data', () => resolve());
        // Any HTTP server answers HEAD; a close without a byte after the handshake is the server refusing
        // the client (Node, for one, verifies a client certificate after the handshake and just closes).
        tlsSocket.once('close', () =>
          reject(
            Object.assign(new Error('the server closed the connection after the TLS handshake without answering'), {
              code: 'CLOSED_AFTER_HANDSHAKE',
            }),
          ),
        );
      });
    });
  } catch (err) {
    if (err instanceof SpgateError) throw err;
    const code = (err as { code?: unknown }).code;
    if (typeof code === 'string' && NOT_NETWORK.has(code)) return;
    const problem = explain(err, servername ?? host, t);
    if (problem) throw new SpgateError('SPGATE_ERR_TLS', `${where}: ${problem}`, { cause: err });
  } finally {
    clearTimeout(timer);
    secure?.destroy();
    socket?.destroy();
  }
}

/** A CONNECT tunnel to host:port through the proxy; a refusal by the proxy is one line. */
function tunnel(proxy: URL, host: string, port: number, timeoutMs: number): Promise<Socket> {
  return new Promise((resolve, reject) => {
    const authorization = proxyAuthorization(proxy);
    const auth = authorization !== undefined ? { 'proxy-authorization': authorization } : {};
    const hostPort = authorityOf(host, port);
    const req = (proxy.protocol === 'https:' ? httpsRequest : httpRequest)({
      host: proxy.hostname,
      port: Number(proxy.port || (proxy.protocol === 'https:' ? 443 : 80)),
      method: 'CONNECT',
      path: hostPort,
      headers: { host: hostPort, ...auth },
      timeout: timeoutMs,
    });
    req.once('connect', (res, socket) => {
      if (res.statusCode === 200) return resolve(socket);
      socket.destroy();
      reject(
        new SpgateError(
          'SPGATE_ERR_TARGET_UNREACHABLE',
          `the proxy ${shownProxy(proxy)} refused to open a tunnel to ${hostPort} (HTTP ${res.statusCode})`,
        ),
      );
    });
    req.once('timeout', () => req.destroy(Object.assign(new Error('proxy did not answer'), { code: 'ETIMEDOUT' })));
    req.once('error', (err) => {
      const code = (err as { code?: unknown }).code;
      reject(
        new SpgateError(
          'SPGATE_ERR_TARGET_UNREACHABLE',
          `the proxy ${shownProxy(proxy)} did not answer (${typeof code === 'string' ? code : err.message})`,
          { cause: err },
        ),
      );
    });
    req.end();
  });
}

/** What failed and what to set, for a TLS error; undefined for errors that are not about TLS. */
function explain(err: unknown, name: string, t: TransportOptions): string | undefined {
  const e = err as { code?: unknown; message?: unknown };
  const code = typeof e.code === 'string' ? e.code : '';
  const msg = String(e.message ?? err).split('\n', 1)[0] ?? '';
  const detail = code && !msg.includes(code) ? `${code}: ${msg}` : msg;
  const hasCert = t.tls?.cert !== undefined;
  if (UNTRUSTED.has(code))
    return `the server's certificate is not trusted (${detail}); add the CA that issued it to tls.ca in the target file`;
  if (code === 'ERR_TLS_CERT_ALTNAME_INVALID')
    return `the server's certificate is not valid for ${name} (${detail}); check baseUrl's host or set tls.servername`;
  if (code === 'CERT_HAS_EXPIRED' || code === 'CERT_NOT_YET_VALID')
    return `the server's certificate is outside its validity period (${detail})`;
  if (/CERTIFICATE_REQUIRED/.test(code))
    return `the server requires a client certificate (${detail}); set tls.cert and tls.key in the target file`;
  if (
    /ALERT_(UNKNOWN_CA|BAD_CERTIFICATE|CERTIFICATE_UNKNOWN|UNSUPPORTED_CERTIFICATE|ACCESS_DENIED|CERTIFICATE_REVOKED|CERTIFICATE_EXPIRED)/.test(
      code,
    )
  ) {
    return hasCert
      ? `the server refused the client certificate tls.cert (${detail})`
      : `the server refused the connection for want of a client certificate (${detail}); set tls.cert and tls.key in the target file`;
  }
  if (/ALERT_HANDSHAKE_FAILURE/.test(code)) {
    return hasCert
      ? `the TLS handshake failed (${detail})`
      : `the TLS handshake failed (${detail}); if the server requires a client certificate, set tls.cert and tls.key`;
  }
  if (code.startsWith('ERR_SSL_') || code.startsWith('ERR_TLS_') || /CERT/.test(code)) return `the TLS handshake failed (${detail})`;
  if (code === 'CLOSED_AFTER_HANDSHAKE') {
    return hasCert
      ? `the server refused the client certificate tls.cert (${msg})`
      : `${msg}; if it requires a client certificate, set tls.cert and tls.key`;
  }
  if ((code === 'ECONNRESET' || code === 'EPIPE') && !hasCert) {
    return `the server closed the connection during the TLS handshake (${detail}); if it requires a client certificate, set tls.cert and tls.key`;
  }
  return undefined;
}
