/**
 * The transport helper the load engines take their connection options from (client/transport.ts): the
 * proxy rule from the environment, and — against the mTLS terminator — an undici dispatcher (conformance,
 * probes, init, replay) and the load engines' own keep-alive sockets (socket-requests.ts endpointOf) that
 * complete requests with the target's tls block and fail without it: no client certificate, or a server
 * certificate the options do not trust (the sockets verify it on every connection); both tunnel through the
 * proxy the environment names, with mTLS inside the tunnel.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { rootCertificates } from 'node:tls';
import {
  bypassed,
  createDispatcher,
  proxyAuthorization,
  proxyFor,
  tlsConnectOptions,
  tlsContextOptions,
} from '../../src/client/transport.js';
import { Http1Connection } from '../../src/load/http1-connection.js';
import { endpointOf } from '../../src/load/socket-requests.js';
import { startReferenceServer, type RunningReferenceServer } from '../../src/reference/index.js';
import { Tls } from '../../src/target/schema.js';
import { makePki, STAGING_HOST, type Pki } from './pki.js';
import { startForwardProxy, startTerminator, type ForwardProxy, type Terminator } from './servers.js';

describe('proxyFor: which proxy a target goes through', () => {
  const env = { HTTPS_PROXY: 'http://proxy.internal:3128', HTTP_PROXY: 'http://plain-proxy:8080' };
  it('uses HTTPS_PROXY for https targets and HTTP_PROXY for http ones', () => {
    expect(proxyFor('https://api.example.com/v1', env)?.host).toBe('proxy.internal:3128');
    expect(proxyFor('http://api.example.com/v1', env)?.host).toBe('plain-proxy:8080');
    expect(proxyFor('https://api.example.com/v1', { https_proxy: 'proxy.lower:1' })?.href).toBe('http://proxy.lower:1/');
    expect(proxyFor('https://api.example.com/v1', { HTTPS_PROXY: 'http://UPPER:1', https_proxy: 'http://lower:1' })?.hostname).toBe(
      'upper',
    );
    expect(proxyFor('https://api.example.com/v1', {})).toBeUndefined();
  });

  it('never proxies loopback targets', () => {
    for (const host of ['127.0.0.1', 'localhost', '[::1]', '127.8.9.10'])
      expect(proxyFor(`https://${host}:8443/v1`, env), host).toBeUndefined();
  });

  it('honours NO_PROXY: exact names, domain suffixes, ports and *', () => {
    const url = new URL('https://api.staging.example.com:8443/v1');
    expect(bypassed(url, 'api.staging.example.com')).toBe(true);
    expect(bypassed(url, '.example.com')).toBe(true);
    expect(bypassed(url, 'example.com')).toBe(true);
    expect(bypassed(url, '*.example.com')).toBe(true);
    expect(bypassed(url, 'other.com, staging.example.com:8443')).toBe(true);
    expect(bypassed(url, 'staging.example.com:443')).toBe(false);
    expect(bypassed(url, 'ample.com')).toBe(false);
    expect(bypassed(url, '*')).toBe(true);
    expect(bypassed(url, '')).toBe(false);
    expect(proxyFor(url, { ...env, NO_PROXY: '.example.com' })).toBeUndefined();
    expect(proxyFor(url, { ...env, no_proxy: 'elsewhere.org' })?.host).toBe('proxy.internal:3128');
  });

  it('refuses a proxy variable that is not an http(s) URL, naming the variable only', () => {
    expect(() => proxyFor('https://api.example.com/v1', { HTTPS_PROXY: 'socks5://u:secret@p:1' })).toThrow(
      /SPGATE_ERR_PROXY_INVALID|HTTPS_PROXY: socks5: proxies are not supported/,
    );
    try {
      proxyFor('https://api.example.com/v1', { HTTPS_PROXY: 'socks5://u:secret@p:1' });
    } catch (err) {
      expect(String((err as Error).message)).not.toContain('secret');
    }
  });
});

describe('connection options for the load engines', () => {
  let dir: string;
  let pki: Pki;
  let ref: RunningReferenceServer;
  let mtls: Terminator;
  let proxy: ForwardProxy;
  let tls: Tls;
  let key: string;

  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), 'spgate-transport-'));
    pki = makePki(dir);
    ref = await startReferenceServer({ seed: 23 });
    key = String(ref.target.keys.admin.key);
    mtls = await startTerminator(pki, Number(new URL(ref.origin).port), { requireClientCert: true });
    proxy = await startForwardProxy();
    tls = Tls.parse({ ca: pki.caCert, cert: pki.clientCert, key: pki.clientKey });
  }, 60_000);
  afterAll(async () => {
    await Promise.all([mtls?.close(), proxy?.close()]);
    await ref?.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it('adds the extra CA to the system roots instead of replacing them, in one secure context made once', () => {
    const c = tlsContextOptions(tls);
    expect(Array.isArray(c.ca) && c.ca.length).toBe(rootCertificates.length + 1);
    expect(c.ca).toEqual(expect.arrayContaining([...rootCertificates]));
    expect(c.cert).toContain('BEGIN CERTIFICATE');
    const o = tlsConnectOptions(tls);
    expect(o.secureContext).toBeDefined();
    expect(tlsConnectOptions(tls).secureContext).toBe(o.secureContext);
    expect(o.rejectUnauthorized).toBe(true);
    expect(tlsConnectOptions(Tls.parse({ insecureSkipVerify: true })).rejectUnauthorized).toBe(false);
  });

  async function get(origin: string, t: Parameters<typeof createDispatcher>[2]): Promise<number> {
    const d = createDispatcher(origin, { connections: 2, connectTimeout: 5_000, headersTimeout: 10_000, bodyTimeout: 10_000 }, t);
    try {
      const res = await d.request({ origin, path: '/v1/me', method: 'GET', headers: { authorization: `Bearer ${key}` } });
      await res.body.dump();
      return res.statusCode;
    } finally {
      await d.destroy();
    }
  }

  it('an undici dispatcher reaches the mTLS target with the tls block, and not without it', async () => {
    const origin = `https://127.0.0.1:${mtls.port}`;
    expect(await get(origin, { tls, env: {} })).toBe(200);
    await expect(get(origin, { tls: Tls.parse({ ca: pki.caCert }), env: {} })).rejects.toThrow();
    await expect(get(origin, { env: {} })).rejects.toThrow();
  });

  it('an undici dispatcher tunnels through HTTPS_PROXY with mTLS inside the tunnel', async () => {
    proxy.tunnels.clear();
    expect(await get(`https://${STAGING_HOST}:${mtls.port}`, { tls, env: { HTTPS_PROXY: proxy.url } })).toBe(200);
    expect(proxy.tunnels.get(`${STAGING_HOST}:${mtls.port}`)).toBe(1);
  });

  /** One GET /v1/me on a load engine's socket: the status, or the failure's one line. */
  function socketGet(baseUrl: string, t: Tls | undefined, env: NodeJS.ProcessEnv = {}): Promise<number | string> {
    return new Promise((resolve) => {
      const conn = new Http1Connection(
        endpointOf(baseUrl, t, env),
        {
          onResponse: (c, head) => {
            c.destroy();
            resolve(head.status);
          },
          onFailure: (c, error) => {
            c.destroy();
            resolve(error);
          },
        },
        () => false,
      );
      const host = new URL(baseUrl).host;
      conn.send(`GET /v1/me HTTP/1.1\r\nhost: ${host}\r\nauthorization: Bearer ${key}\r\n\r\n`);
    });
  }

  it("the load engines' sockets complete requests against the mTLS target with the tls block, and not without it", async () => {
    const baseUrl = `https://127.0.0.1:${mtls.port}/v1`;
    expect(await socketGet(baseUrl, tls)).toBe(200);
    // No client certificate: the terminator refuses the handshake.
    expect(await socketGet(baseUrl, Tls.parse({ ca: pki.caCert }))).toEqual(expect.any(String));
    // The internal CA not given: the sockets refuse the server's certificate themselves.
    expect(await socketGet(baseUrl, Tls.parse({ cert: pki.clientCert, key: pki.clientKey }))).toMatch(
      /SELF_SIGNED|UNABLE_TO_GET_ISSUER|UNABLE_TO_VERIFY|CERT/,
    );
    // The server name given by the tls block is the one verified (the certificate names the staging host).
    expect(
      await socketGet(baseUrl, Tls.parse({ ca: pki.caCert, cert: pki.clientCert, key: pki.clientKey, servername: STAGING_HOST })),
    ).toBe(200);
    expect(
      await socketGet(baseUrl, Tls.parse({ ca: pki.caCert, cert: pki.clientCert, key: pki.clientKey, servername: 'elsewhere.test' })),
    ).toMatch(/ERR_TLS_CERT_ALTNAME_INVALID|altname|CERT/i);
  });

  it("the load engines' sockets tunnel through HTTPS_PROXY with mTLS inside the tunnel, and go direct where NO_PROXY says", async () => {
    proxy.tunnels.clear();
    const baseUrl = `https://${STAGING_HOST}:${mtls.port}/v1`;
    expect(await socketGet(baseUrl, tls, { HTTPS_PROXY: proxy.url })).toBe(200);
    expect(proxy.tunnels.get(`${STAGING_HOST}:${mtls.port}`)).toBe(1);
    // Inside the tunnel the client certificate is still required, and the server's certificate still verified.
    expect(await socketGet(baseUrl, Tls.parse({ ca: pki.caCert }), { HTTPS_PROXY: proxy.url })).toEqual(expect.any(String));
    expect(await socketGet(baseUrl, Tls.parse({ cert: pki.clientCert, key: pki.clientKey }), { HTTPS_PROXY: proxy.url })).toMatch(
      /SELF_SIGNED|UNABLE_TO_GET_ISSUER|UNABLE_TO_VERIFY|CERT/,
    );
    // NO_PROXY: direct, and the staging name does not resolve on this machine.
    const before = proxy.tunnels.get(`${STAGING_HOST}:${mtls.port}`);
    expect(await socketGet(baseUrl, tls, { HTTPS_PROXY: proxy.url, NO_PROXY: '.staging.test' })).toMatch(/ENOTFOUND|EAI_AGAIN/);
    expect(proxy.tunnels.get(`${STAGING_HOST}:${mtls.port}`)).toBe(before);
  });

  it("a proxy refusal on the load engines' sockets names the proxy without its credentials", async () => {
    const error = await socketGet(`https://forbidden.test:${mtls.port}/v1`, tls, {
      HTTPS_PROXY: proxy.url.replace('http://', 'http://ci-user:s3cret@'),
    });
    expect(error).toBe(`proxy ${proxy.url} refused CONNECT forbidden.test:${mtls.port}: 403 Forbidden`);
  });

  it('endpointOf: the proxy from the environment (host, port, basic credentials), none for loopback, a bad variable is SPGATE_ERR_PROXY_INVALID', () => {
    const e = endpointOf('https://api.example.com/v1', undefined, { HTTPS_PROXY: 'http://ci%20user:p%40ss@proxy.internal:3128' });
    expect(e.proxy).toEqual({
      host: 'proxy.internal',
      port: 3128,
      tls: false,
      shown: 'http://proxy.internal:3128',
      authorization: `Basic ${Buffer.from('ci user:p@ss').toString('base64')}`,
    });
    expect(endpointOf('http://api.example.com/v1', undefined, { HTTP_PROXY: 'https://proxy.internal' }).proxy).toMatchObject({
      port: 443,
      tls: true,
      shown: 'https://proxy.internal',
    });
    expect(endpointOf('https://api.example.com/v1', undefined, { HTTPS_PROXY: 'proxy.internal:3128' }).proxy).not.toHaveProperty(
      'authorization',
    );
    expect(endpointOf('https://127.0.0.1:8443/v1', undefined, { HTTPS_PROXY: 'http://proxy.internal:3128' }).proxy).toBeUndefined();
    expect(() => endpointOf('https://api.example.com/v1', undefined, { HTTPS_PROXY: 'socks5://u:secret@p:1' })).toThrow(
      /HTTPS_PROXY: socks5: proxies are not supported/,
    );
    expect(proxyAuthorization(new URL('http://%zz:pw@p:1'))).toBe(`Basic ${Buffer.from('%zz:pw').toString('base64')}`);
  });
});
