/**
 * How spgate connects to a target, in one place for every sender (the conformance client, the load engines,
 * probes, init, replay): the target file's `tls` block as Node TLS options, and the proxy, if any, from
 * HTTPS_PROXY / HTTP_PROXY / NO_PROXY (docs/target-file.md#tls-and-proxies). undici's dispatcher tunnels
 * for the client; the load engines tunnel on their own sockets (socket-requests.ts endpointOf).
 *
 * Proxy rule (as Go's and k6's): https targets use HTTPS_PROXY, http targets HTTP_PROXY (lowercase names
 * too, the uppercase one wins); a host listed in NO_PROXY (exact name, a domain suffix as `.example.com`
 * or `example.com`, optionally `:port`; `*` for every host) goes direct; and a loopback target always goes
 * direct, since a proxy cannot reach this machine's loopback.
 */
import { readFileSync } from 'node:fs';
import { createSecureContext, rootCertificates, type ConnectionOptions, type SecureContext, type SecureContextOptions } from 'node:tls';
import { Pool, ProxyAgent, type Dispatcher } from 'undici';
import { SpgateError } from '../errors.js';
import { isLoopbackHost } from '../target/loopback.js';
import type { Tls } from '../target/schema.js';
import { caFiles } from '../target/tls.js';

/** What a sender needs to reach the target: its tls block and the environment holding the proxy variables. */
export interface TransportOptions {
  tls?: Tls;
  /** Defaults to process.env. */
  env?: NodeJS.ProcessEnv;
}

const fileCache = new Map<string, string>();
function pem(path: string): string {
  let text = fileCache.get(path);
  if (text === undefined) {
    // The files were read and checked when the target was loaded (target/tls.ts); read once per process.
    text = readFileSync(path, 'utf8');
    fileCache.set(path, text);
  }
  return text;
}

const contextCache = new Map<string, SecureContext | undefined>();

/**
 * The secure context of a tls block's CAs and client certificate, made once per process: given as `ca`
 * and `cert`/`key` options instead, every connection parsed the whole root store again (about 45 ms of CPU
 * per connection on the 2-core machine: half of a conformance run over TLS). Undefined when the block
 * adds neither (Node's default context then).
 */
function secureContextOf(tls: Tls): SecureContext | undefined {
  const key = JSON.stringify([caFiles(tls), tls.cert, tls.key]);
  if (!contextCache.has(key)) {
    const options = tlsContextOptions(tls);
    contextCache.set(key, options.ca === undefined && options.cert === undefined ? undefined : createSecureContext(options));
  }
  return contextCache.get(key);
}

/** What the secure context of a tls block holds: the system's roots and the extra CAs; the client certificate and key. */
export function tlsContextOptions(tls: Tls): SecureContextOptions {
  const cas = caFiles(tls);
  return {
    ...(cas.length > 0 ? { ca: [...rootCertificates, ...cas.map(pem)] } : {}),
    ...(tls.cert !== undefined && tls.key !== undefined ? { cert: pem(tls.cert), key: pem(tls.key) } : {}),
  };
}

/**
 * Node TLS options of a tls block: extra CAs added to (not replacing) the system's roots, the client
 * certificate and key (both in one secure context, made once), the server name, and verification (on
 * unless insecureSkipVerify).
 */
export function tlsConnectOptions(tls: Tls | undefined): ConnectionOptions {
  if (!tls) return {};
  const secureContext = secureContextOf(tls);
  return {
    ...(secureContext !== undefined ? { secureContext } : {}),
    ...(tls.servername !== undefined ? { servername: tls.servername } : {}),
    rejectUnauthorized: !tls.insecureSkipVerify,
  };
}

/** The proxy a request to `target` goes through, or undefined for a direct connection. */
export function proxyFor(target: string | URL, env: NodeJS.ProcessEnv = process.env): URL | undefined {
  const url = typeof target === 'string' ? new URL(target) : target;
  if (isLoopbackHost(url.hostname)) return undefined;
  const name = url.protocol === 'https:' ? 'HTTPS_PROXY' : 'HTTP_PROXY';
  const raw = (env[name] || env[name.toLowerCase()] || '').trim();
  if (raw === '') return undefined;
  if (bypassed(url, env.NO_PROXY ?? env.no_proxy ?? '')) return undefined;
  let proxy: URL;
  try {
    proxy = new URL(raw.includes('://') ? raw : `http://${raw}`);
  } catch {
    throw new SpgateError('SPGATE_ERR_PROXY_INVALID', `${name}: not a URL (expected http://host:port)`);
  }
  if (proxy.protocol !== 'http:' && proxy.protocol !== 'https:') {
    throw new SpgateError(
      'SPGATE_ERR_PROXY_INVALID',
      `${name}: ${proxy.protocol} proxies are not supported (expected http:// or https://)`,
    );
  }
  return proxy;
}

/** A proxy URL as it may be printed: without user and password. */
export function shownProxy(proxy: URL): string {
  return `${proxy.protocol}//${proxy.host}`;
}

/** `host:port` as CONNECT and Host name it (an IPv6 literal in brackets): the preflight's tunnel and the engines'. */
export function authorityOf(host: string, port: number): string {
  return `${host.includes(':') ? `[${host}]` : host}:${port}`;
}

/** The Proxy-Authorization value (basic) of a proxy URL's user:password, or undefined without a user. */
export function proxyAuthorization(proxy: URL): string | undefined {
  if (proxy.username === '' && proxy.password === '') return undefined;
  return `Basic ${Buffer.from(`${decoded(proxy.username)}:${decoded(proxy.password)}`).toString('base64')}`;
}

function decoded(part: string): string {
  try {
    return decodeURIComponent(part);
  } catch {
    return part;
  }
}

/** True when NO_PROXY names the target's host (and port, when the entry has one). */
export function bypassed(url: URL, noProxy: string): boolean {
  const host = url.hostname.replace(/^\[|\]$/g, '').toLowerCase();
  const port = url.port || (url.protocol === 'https:' ? '443' : '80');
  for (const raw of noProxy.split(/[\s,]+/)) {
    const entry = raw.trim().toLowerCase();
    if (entry === '') continue;
    if (entry === '*') return true;
    const m = /^(\[[^\]]+\]|[^:]+)(?::(\d+))?$/.exec(entry);
    if (!m) continue;
    if (m[2] !== undefined && m[2] !== port) continue;
    const name = m[1]!.replace(/^\[|\]$/g, '').replace(/^\*?\./, '');
    if (host === name || host.endsWith(`.${name}`)) return true;
  }
  return false;
}

/**
 * The undici dispatcher for requests to `origin`: a Pool with the target's TLS options, or, when a proxy
 * applies, a ProxyAgent tunnelling to it (CONNECT) with the same TLS options inside the tunnel. Requests
 * must name `origin` (a ProxyAgent routes by it; a Pool ignores it).
 */
export function createDispatcher(origin: string, pool: Pool.Options, t: TransportOptions = {}): Dispatcher {
  const secure = origin.startsWith('https:');
  const tls = secure ? tlsConnectOptions(t.tls) : {};
  const proxy = proxyFor(origin, t.env);
  if (proxy) {
    const { connect: _ignored, ...agentOptions } = pool;
    return new ProxyAgent({ ...agentOptions, uri: proxy.href, requestTls: tls });
  }
  return new Pool(origin, { ...pool, ...(secure ? { connect: { ...tls } } : {}) });
}
