/**
 * `spgate load` against a target that requires a client certificate: both engines connect with the target
 * file's tls block (their own sockets through tlsConnectOptions), so every response is answered and none is a transport error; without the
 * client certificate the run stops with one SPGATE_ERR_TLS line before a request is sent.
 *
 * Through an egress proxy (HTTPS_PROXY / HTTP_PROXY) both engines open one CONNECT tunnel per connection, with
 * mTLS inside it, to a host name that resolves only at the proxy (so a request that skipped the proxy cannot
 * arrive); the proxy's credentials never reach any output; a refusing proxy is one line (https: the TLS
 * preflight's) or a run whose error names it (http: "target unreachable: proxy … refused CONNECT …");
 * NO_PROXY and loopback targets go direct; `--workers` children tunnel too.
 */
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startReferenceServer, type RunningReferenceServer } from '../../src/reference/index.js';
import { errorLines, runCli, stackFrames, type CliRun } from '../support/cli.js';
import { makePki, STAGING_HOST, type Pki } from './pki.js';
import { startForwardProxy, startTerminator, terminatedTargetFile, type ForwardProxy, type Terminator } from './servers.js';

let dir: string;
let pki: Pki;
let ref: RunningReferenceServer;
let mtls: Terminator;
let proxy: ForwardProxy;

const CREDENTIALS = 'ci-user:proxy-s3cret';

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'spgate-load-tls-'));
  pki = makePki(dir);
  ref = await startReferenceServer({ seed: 26 });
  mtls = await startTerminator(pki, Number(new URL(ref.origin).port), { requireClientCert: true });
  proxy = await startForwardProxy({ credentials: CREDENTIALS });
}, 60_000);
afterAll(async () => {
  await Promise.all([mtls?.close(), proxy?.close()]);
  await ref?.close();
  rmSync(dir, { recursive: true, force: true });
});

function targetFile(name: string, tls: Record<string, unknown>): string {
  return terminatedTargetFile(dir, ref.target, mtls.port, name, tls);
}

interface Counted {
  load: Array<{
    name: string;
    status: string;
    error?: string;
    totals: { completed: number; errors: number; byStatus: Record<string, number> };
  }>;
}

/** A target file for the reference server reached at `origin` (a remote name: caps.maxRps is required). */
function originTargetFile(name: string, origin: string, tls: Record<string, unknown> | undefined): string {
  const path = join(dir, `${name}.json`);
  writeFileSync(
    path,
    JSON.stringify({
      ...ref.target,
      baseUrl: `${origin}/v1`,
      fixtures: { ...ref.target.fixtures, api: `${origin}/_fixtures` },
      caps: { maxRps: 500 },
      ...(tls ? { tls } : {}),
    }),
  );
  return path;
}

const MTLS = { ca: 'internal-ca.pem', cert: 'client.pem', key: 'client.key' };
/** The proxy's URL with the user and password it requires (or others). */
const proxyUrl = (credentials = CREDENTIALS): string => proxy.url.replace('http://', `http://${credentials}@`);
const NO_ENV_PROXY = { HTTPS_PROXY: '', https_proxy: '', HTTP_PROXY: '', http_proxy: '', NO_PROXY: '', no_proxy: '' };

/** Runs `spgate load` with --json and --trace in `dir`; returns the run, its results and every output as one text. */
async function load(
  name: string,
  args: string[],
  env: NodeJS.ProcessEnv,
): Promise<{ r: CliRun; results: Counted | undefined; all: string }> {
  const json = join(dir, `${name}.results.json`);
  const trace = join(dir, `${name}.trace.ndjson`);
  const r = await runCli(['load', '--duration', '1', '--json', json, '--trace', trace, ...args], {
    cwd: dir,
    env: { ...NO_ENV_PROXY, ...env },
    timeoutMs: 120_000,
  });
  const read = (f: string): string => {
    try {
      return readFileSync(f, 'utf8');
    } catch {
      return '';
    }
  };
  const text = read(json);
  return { r, results: text ? (JSON.parse(text) as Counted) : undefined, all: r.stdout + r.stderr + text + read(trace) };
}

/** Neither the proxy's password nor its basic credentials appear in any output; no stack trace. */
function expectNoProxySecret(all: string): void {
  expect(all).not.toContain('proxy-s3cret');
  expect(all).not.toContain(Buffer.from(CREDENTIALS).toString('base64'));
  expect(stackFrames(all)).toEqual([]);
}

const tunnelsTo = (authority: string): number => proxy.tunnels.get(authority) ?? 0;

describe('spgate load against an mTLS target', () => {
  for (const profile of ['smoke', 'read-budget']) {
    it(`${profile}: every request answered over TLS with the client certificate, no transport error`, async () => {
      const json = join(dir, `${profile}.json`);
      const r = await runCli(
        ['load', '--profile', profile, '--duration', '1', '--target', targetFile(`ok-${profile}`, MTLS), '--json', json],
        { cwd: dir, env: NO_ENV_PROXY, timeoutMs: 120_000 },
      );
      expect(stackFrames(r.stdout + r.stderr)).toEqual([]);
      const results = JSON.parse(readFileSync(json, 'utf8')) as Counted;
      const p = results.load[0]!;
      expect(p.totals.completed, r.stdout + r.stderr).toBeGreaterThan(0);
      expect(p.totals.errors, r.stdout + r.stderr).toBe(0);
      expect(mtls.accepted).toBeGreaterThan(0);
    }, 150_000);
  }

  it('without the client certificate: one SPGATE_ERR_TLS line, no request sent', async () => {
    const before = mtls.accepted;
    const r = await runCli(['load', '--profile', 'smoke', '--duration', '1', '--target', targetFile('none', { ca: 'internal-ca.pem' })], {
      cwd: dir,
      env: NO_ENV_PROXY,
      timeoutMs: 60_000,
    });
    expect(r.code).toBe(3);
    const lines = errorLines(r.stderr);
    expect(lines).toHaveLength(1);
    expect(lines[0]).toMatch(/SPGATE_ERR_TLS: .*client certificate/);
    expect(mtls.accepted).toBe(before);
  }, 90_000);
});

describe('spgate load through an egress proxy', () => {
  const staging = (): string => originTargetFile('staging', `https://${STAGING_HOST}:${mtls.port}`, MTLS);
  const authority = (): string => `${STAGING_HOST}:${mtls.port}`;

  for (const [profile, model] of [
    ['smoke', 'open'],
    ['read-budget', 'closed'],
  ] as const) {
    it(`${profile} (${model} model): every connection tunnels through HTTPS_PROXY with mTLS inside, every request answered, no credential in any output`, async () => {
      const before = tunnelsTo(authority());
      // In this process (a remote target's default is one worker per core: the --workers test below).
      const { r, results, all } = await load(`proxied-${profile}`, ['--profile', profile, '--workers', '1', '--target', staging()], {
        HTTPS_PROXY: proxyUrl(),
      });
      const p = results?.load[0];
      expect(p, r.stdout + r.stderr).toBeDefined();
      expect(p!.totals.completed, r.stdout + r.stderr).toBeGreaterThan(0);
      // The host resolves only at the proxy: a request that went direct would be a transport error.
      expect(p!.totals.errors, r.stdout + r.stderr).toBe(0);
      expect(p!.status).not.toBe('error');
      // The TLS preflight's tunnel, then the engine's connections' own.
      expect(tunnelsTo(authority()) - before).toBeGreaterThanOrEqual(2);
      expectNoProxySecret(all);
    }, 150_000);
  }

  it('wrong proxy credentials (407): one line naming the proxy without credentials, nothing sent to the target', async () => {
    const challenged = proxy.challenged;
    const before = tunnelsTo(authority());
    const { r, all } = await load('proxy-407', ['--profile', 'smoke', '--target', staging()], {
      HTTPS_PROXY: proxyUrl('ci-user:wrong-s3cret'),
    });
    expect(r.code).toBe(3);
    const lines = errorLines(r.stderr);
    expect(lines, r.stderr).toHaveLength(1);
    expect(lines[0]).toMatch(
      new RegExp(
        `SPGATE_ERR_TARGET_UNREACHABLE: the proxy ${proxy.url.replace(/[.]/g, '\\.')} refused to open a tunnel to ${STAGING_HOST.replace(/[.]/g, '\\.')}:\\d+ \\(HTTP 407\\)`,
      ),
    );
    expect(proxy.challenged).toBeGreaterThan(challenged);
    expect(tunnelsTo(authority())).toBe(before);
    expect(all).not.toContain('wrong-s3cret');
    expectNoProxySecret(all);
  }, 150_000);

  it('an http target through HTTP_PROXY: the tunnel carries plain HTTP', async () => {
    const origin = `http://${STAGING_HOST}:${new URL(ref.origin).port}`;
    const before = tunnelsTo(new URL(origin).host);
    const { r, results, all } = await load(
      'proxied-http',
      ['--profile', 'smoke', '--target', originTargetFile('staging-http', origin, undefined)],
      { HTTP_PROXY: proxyUrl() },
    );
    const p = results?.load[0];
    expect(p?.totals.completed, r.stdout + r.stderr).toBeGreaterThan(0);
    expect(p!.totals.errors, r.stdout + r.stderr).toBe(0);
    expect(tunnelsTo(new URL(origin).host) - before).toBeGreaterThanOrEqual(1);
    expectNoProxySecret(all);
  }, 150_000);

  it('an http target the proxy refuses (403): the run is "target unreachable" naming the proxy and the status, without credentials', async () => {
    const origin = `http://forbidden.test:${new URL(ref.origin).port}`;
    const { r, results, all } = await load(
      'proxied-403',
      ['--profile', 'smoke', '--target', originTargetFile('forbidden-http', origin, undefined)],
      { HTTP_PROXY: proxyUrl() },
    );
    expect(r.code, r.stdout + r.stderr).toBe(3);
    expect(stackFrames(all)).toEqual([]);
    const p = results?.load[0];
    const expected = `proxy ${proxy.url} refused CONNECT forbidden.test:${new URL(ref.origin).port}: 403 Forbidden`;
    expect(p, r.stdout + r.stderr).toBeDefined();
    expect(p!.status).toBe('error');
    expect(p!.totals.completed).toBe(0);
    expect(p!.totals.errors).toBeGreaterThan(0);
    expect(p!.error).toContain(`target unreachable: ${expected} on every request`);
    expect(r.stdout).toContain(expected);
    expectNoProxySecret(all);
  }, 150_000);

  it('a proxy variable that is not an http(s) URL: one SPGATE_ERR_PROXY_INVALID line naming the variable, exit 2, nothing sent', async () => {
    const origin = `http://${STAGING_HOST}:${new URL(ref.origin).port}`;
    const total = (): number => [...proxy.tunnels.values()].reduce((a, b) => a + b, 0);
    const all = total();
    const { r, results } = await load(
      'proxy-invalid',
      ['--profile', 'smoke', '--workers', '1', '--target', originTargetFile('invalid-proxy', origin, undefined)],
      { HTTP_PROXY: 'socks5://ci-user:proxy-s3cret@127.0.0.1:1080' },
    );
    expect(r.code).toBe(2);
    const lines = errorLines(r.stderr);
    expect(lines, r.stderr).toEqual([expect.stringMatching(/SPGATE_ERR_PROXY_INVALID: HTTP_PROXY: socks5: proxies are not supported/)]);
    expect(results).toBeUndefined();
    expect(total()).toBe(all);
    expectNoProxySecret(r.stdout + r.stderr);
  }, 150_000);

  it('NO_PROXY naming the host goes direct (the name does not resolve here), and a loopback target goes direct', async () => {
    const before = tunnelsTo(authority());
    const bypassed = await load('no-proxy', ['--profile', 'smoke', '--target', staging()], {
      HTTPS_PROXY: proxyUrl(),
      NO_PROXY: 'localhost,.staging.test',
    });
    expect(bypassed.r.code).toBe(3);
    expect(bypassed.r.stdout + bypassed.r.stderr).toMatch(/ENOTFOUND|EAI_AGAIN/);
    expect(tunnelsTo(authority())).toBe(before);

    const total = (): number => [...proxy.tunnels.values()].reduce((a, b) => a + b, 0);
    const all = total();
    const loopback = await load('loopback', ['--profile', 'smoke', '--target', targetFile('loopback', MTLS)], { HTTPS_PROXY: proxyUrl() });
    expect(loopback.results?.load[0]?.totals.errors, loopback.r.stdout + loopback.r.stderr).toBe(0);
    expect(loopback.results!.load[0]!.totals.completed).toBeGreaterThan(0);
    expect(total()).toBe(all);
  }, 240_000);

  it('--workers 2: each worker process tunnels through the proxy it inherits', async () => {
    const before = tunnelsTo(authority());
    const { r, results, all } = await load('proxied-workers', ['--profile', 'smoke', '--workers', '2', '--target', staging()], {
      HTTPS_PROXY: proxyUrl(),
    });
    const p = results?.load[0];
    expect(p?.totals.completed, r.stdout + r.stderr).toBeGreaterThan(0);
    expect(p!.totals.errors, r.stdout + r.stderr).toBe(0);
    // The parent's preflight and each worker's own (preflight and engine) tunnels.
    expect(tunnelsTo(authority()) - before).toBeGreaterThanOrEqual(3);
    expectNoProxySecret(all);
  }, 200_000);
});
