/**
 * Staging as it is reached: the reference server behind a TLS terminator with its own internal CA, then one
 * that requires a client certificate, then reached only through a CONNECT proxy. `spgate conformance`
 * passes with the right `tls` options and fails with one line naming the failed check without them; the
 * client key and the API key never reach the output.
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startReferenceServer, type RunningReferenceServer } from '../../src/reference/index.js';
import type { TargetFileInput } from '../../src/target/schema.js';
import { errorLines, runCli, stackFrames, type CliRun } from '../support/cli.js';
import { makePki, STAGING_HOST, type Pki } from './pki.js';
import { startForwardProxy, startTerminator, type ForwardProxy, type Terminator } from './servers.js';

let dir: string;
let pki: Pki;
let ref: RunningReferenceServer;
let plain: Terminator;
let mtls: Terminator;
let proxy: ForwardProxy;

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'spgate-tls-'));
  pki = makePki(dir);
  ref = await startReferenceServer({ seed: 22 });
  const backend = Number(new URL(ref.origin).port);
  plain = await startTerminator(pki, backend, { requireClientCert: false });
  mtls = await startTerminator(pki, backend, { requireClientCert: true });
  proxy = await startForwardProxy();
}, 60_000);

afterAll(async () => {
  await Promise.all([plain?.close(), mtls?.close(), proxy?.close()]);
  await ref?.close();
  rmSync(dir, { recursive: true, force: true });
});

/** Writes a target file for the reference server reached at `origin`, with the given tls block; returns its path. */
function targetFile(name: string, origin: string, tls: Record<string, unknown> | undefined, extra: Partial<TargetFileInput> = {}): string {
  const file = {
    ...ref.target,
    baseUrl: `${origin}/v1`,
    fixtures: { ...ref.target.fixtures, api: `${origin}/_fixtures` },
    ...(tls ? { tls } : {}),
    ...extra,
  };
  const path = join(dir, `${name}.json`);
  writeFileSync(path, JSON.stringify(file, null, 2));
  return path;
}

// Every case runs side by side with the others (the runs mostly wait on handshakes and the server): a case that
// counts at a terminator or a proxy counts at one of its own, which no other case reaches.
const own: Array<Terminator | ForwardProxy> = [];
afterAll(async () => {
  await Promise.all(own.map((s) => s.close()));
});
async function ownPlain(): Promise<Terminator> {
  const t = await startTerminator(pki, Number(new URL(ref.origin).port), { requireClientCert: false });
  own.push(t);
  return t;
}
async function ownProxy(): Promise<ForwardProxy> {
  const p = await startForwardProxy();
  own.push(p);
  return p;
}

function conformance(file: string, env: NodeJS.ProcessEnv = {}): Promise<CliRun> {
  return runCli(['conformance', '--suite', 'auth', '--target', file], {
    cwd: dir,
    env: { HTTPS_PROXY: '', https_proxy: '', NO_PROXY: '', ...env },
    timeoutMs: 90_000,
  });
}

/** Neither the client key nor an API key may appear anywhere in the output. */
function expectNoSecrets(r: CliRun): void {
  const out = r.stdout + r.stderr;
  const keyBody = pki.read(pki.clientKey).split('\n')[1]!;
  expect(out).not.toContain(keyBody);
  expect(out).not.toContain('PRIVATE KEY');
  expect(out).not.toContain(String(ref.target.keys.admin.key));
  expect(stackFrames(out)).toEqual([]);
}

function expectOneError(r: CliRun, code: string, ...parts: RegExp[]): void {
  const lines = errorLines(r.stderr);
  expect(lines, r.stderr).toHaveLength(1);
  expect(lines[0]).toContain(`spgate: ${code}: `);
  for (const p of parts) expect(lines[0]).toMatch(p);
  expectNoSecrets(r);
}

describe.concurrent('a target behind TLS with an internal CA', () => {
  it('passes with tls.ca (a path relative to the target file)', async () => {
    const r = await conformance(targetFile('with-ca', `https://127.0.0.1:${plain.port}`, { ca: 'internal-ca.pem' }));
    expect(r.code, r.stdout + r.stderr).toBe(0);
    expect(r.stdout).toMatch(/checks: [1-9]\d* passed, 0 failed/);
    expectNoSecrets(r);
  });

  it('fails with one line naming the untrusted certificate and tls.ca when the CA is not given', async () => {
    const plain = await ownPlain();
    const before = plain.rejected;
    const r = await conformance(targetFile('no-ca', `https://127.0.0.1:${plain.port}`, undefined));
    expect(r.code).toBe(3);
    expectOneError(r, 'SPGATE_ERR_TLS', new RegExp(`127\\.0\\.0\\.1:${plain.port}`), /certificate is not trusted/, /tls\.ca/);
    // Refused at the one preflight handshake: nothing else was attempted.
    expect(plain.rejected - before).toBe(1);
  });

  it('fails with one line when the certificate is not for the name (tls.servername names another host)', async () => {
    const r = await conformance(
      targetFile('bad-name', `https://127.0.0.1:${plain.port}`, { ca: 'internal-ca.pem', servername: 'other.example' }),
    );
    expect(r.code).toBe(3);
    expectOneError(r, 'SPGATE_ERR_TLS', /not valid for other\.example/, /tls\.servername/);
  });

  it('passes with tls.servername set to a name of the certificate', async () => {
    const r = await conformance(
      targetFile('good-name', `https://127.0.0.1:${plain.port}`, { ca: 'internal-ca.pem', servername: STAGING_HOST }),
    );
    expect(r.code, r.stdout + r.stderr).toBe(0);
  });

  it('passes without the CA under insecureSkipVerify, warning that the certificate is not verified', async () => {
    const r = await conformance(targetFile('insecure', `https://127.0.0.1:${plain.port}`, { insecureSkipVerify: true }));
    expect(r.code, r.stdout + r.stderr).toBe(0);
    expect(r.stderr.match(/warning: tls\.insecureSkipVerify is on: .*NOT verified/g)).toHaveLength(1);
  });
});

describe.concurrent('a target that requires a client certificate (mTLS)', () => {
  it('passes with tls.cert and tls.key', async () => {
    const r = await conformance(
      targetFile('mtls', `https://127.0.0.1:${mtls.port}`, { ca: pki.caCert, cert: 'client.pem', key: 'client.key' }),
    );
    expect(r.code, r.stdout + r.stderr).toBe(0);
    expect(r.stdout).toMatch(/checks: [1-9]\d* passed, 0 failed/);
    expectNoSecrets(r);
  });

  it('fails with one line saying a client certificate is required, without one', async () => {
    const r = await conformance(targetFile('mtls-none', `https://127.0.0.1:${mtls.port}`, { ca: 'internal-ca.pem' }));
    expect(r.code).toBe(3);
    expectOneError(r, 'SPGATE_ERR_TLS', /client certificate/, /tls\.cert and tls\.key/);
  });

  it('fails with one line saying the client certificate was refused, for one of another CA', async () => {
    const r = await conformance(
      targetFile('mtls-rogue', `https://127.0.0.1:${mtls.port}`, {
        ca: 'internal-ca.pem',
        cert: 'rogue-client.pem',
        key: 'rogue-client.key',
      }),
    );
    expect(r.code).toBe(3);
    expectOneError(r, 'SPGATE_ERR_TLS', /refused the client certificate tls\.cert/);
  });
});

describe.concurrent('a target reached through an egress proxy (HTTPS_PROXY)', () => {
  // Written once: the cases run side by side, and a rewrite could truncate the file under another's child.
  let stagingFile: string | undefined;
  const staging = (): string =>
    (stagingFile ??= targetFile(
      'staging',
      `https://${STAGING_HOST}:${mtls.port}`,
      { ca: 'internal-ca.pem', cert: 'client.pem', key: 'client.key' },
      { caps: { maxRps: 500 } },
    ));

  it('tunnels every connection through the proxy, with mTLS inside the tunnel', async () => {
    const proxy = await ownProxy();
    const r = await conformance(staging(), { HTTPS_PROXY: proxy.url });
    expect(r.code, r.stdout + r.stderr).toBe(0);
    expect(r.stdout).toMatch(/checks: [1-9]\d* passed, 0 failed/);
    // The preflight's tunnel and at least one of the client's; the name resolves only at the proxy.
    expect(proxy.tunnels.get(`${STAGING_HOST}:${mtls.port}`) ?? 0).toBeGreaterThanOrEqual(2);
    expectNoSecrets(r);
  });

  it('goes direct when NO_PROXY names the host (and the name does not resolve here)', async () => {
    const proxy = await ownProxy();
    const r = await conformance(staging(), { HTTPS_PROXY: proxy.url, NO_PROXY: `localhost,.staging.test` });
    expect(r.code).toBe(3);
    expectOneError(r, 'SPGATE_ERR_TARGET_UNREACHABLE');
    expect(proxy.tunnels.size).toBe(0);
  });

  it('a loopback target goes direct even with HTTPS_PROXY set', async () => {
    const proxy = await ownProxy();
    const r = await conformance(targetFile('loopback', `https://127.0.0.1:${plain.port}`, { ca: 'internal-ca.pem' }), {
      HTTPS_PROXY: proxy.url,
    });
    expect(r.code, r.stdout + r.stderr).toBe(0);
    expect(proxy.tunnels.size).toBe(0);
  });

  it('a proxy that refuses the tunnel is one line naming the proxy, without its credentials', async () => {
    const file = targetFile('forbidden', `https://forbidden.test:${plain.port}`, { ca: 'internal-ca.pem' }, { caps: { maxRps: 500 } });
    const withCredentials = proxy.url.replace('http://', 'http://ci-user:proxy-s3cret@');
    const r = await conformance(file, { HTTPS_PROXY: withCredentials });
    expect(r.code).toBe(3);
    expectOneError(
      r,
      'SPGATE_ERR_TARGET_UNREACHABLE',
      /the proxy http:\/\/127\.0\.0\.1:\d+ refused to open a tunnel to forbidden\.test:\d+ \(HTTP 403\)/,
    );
    expect(r.stdout + r.stderr).not.toContain('proxy-s3cret');
  });
});

describe.concurrent('bad tls options', () => {
  it('a missing CA file is one line naming the field (exit 2, nothing sent)', async () => {
    const plain = await ownPlain();
    const before = plain.accepted + plain.rejected;
    const r = await conformance(targetFile('missing-ca', `https://127.0.0.1:${plain.port}`, { ca: ['internal-ca.pem', 'nope.pem'] }));
    expect(r.code).toBe(2);
    expectOneError(r, 'SPGATE_ERR_TLS_CONFIG', /tls\.ca\[1\]: .*nope\.pem: file not found/);
    expect(plain.accepted + plain.rejected).toBe(before);
  });

  it('a key that does not belong to the certificate is one line, without the key', async () => {
    const r = await conformance(
      targetFile('mismatch', `https://127.0.0.1:${mtls.port}`, { ca: 'internal-ca.pem', cert: 'client.pem', key: 'rogue-client.key' }),
    );
    expect(r.code).toBe(2);
    expectOneError(
      r,
      'SPGATE_ERR_TLS_CONFIG',
      /tls\.cert\/tls\.key: .*client\.pem with .*rogue-client\.key is not a usable certificate and key/,
    );
  });

  it('a certificate without its key is refused by validation', async () => {
    const r = await conformance(targetFile('cert-only', `https://127.0.0.1:${mtls.port}`, { ca: 'internal-ca.pem', cert: 'client.pem' }));
    expect(r.code).toBe(2);
    expectOneError(r, 'SPGATE_ERR_TARGET_INVALID', /tls\.key: cert and key go together/);
  });
});
