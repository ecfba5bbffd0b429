/**
 * `spgate load` against a target that requires a client certificate: both engines connect with the target
 * file's tls block (their own sockets through tlsConnectOptions), so every response is answered and none is a transport error; without the
 * client certificate the run stops with one SPGATE_ERR_TLS line before a request is sent. A proxied target
 * is refused for load in either model (the engines do not tunnel).
 */
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startReferenceServer, type RunningReferenceServer } from '../../src/reference/index.js';
import { refuseProxied } from '../../src/client/transport.js';
import { errorLines, runCli, stackFrames } from '../support/cli.js';
import { makePki, type Pki } from './pki.js';
import { startTerminator, terminatedTargetFile, type Terminator } from './servers.js';

let dir: string;
let pki: Pki;
let ref: RunningReferenceServer;
let mtls: Terminator;

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'spgate-load-tls-'));
  pki = makePki(dir);
  ref = await startReferenceServer({ seed: 26 });
  mtls = await startTerminator(pki, Number(new URL(ref.origin).port), { requireClientCert: true });
}, 60_000);
afterAll(async () => {
  await mtls?.close();
  await ref?.close();
  rmSync(dir, { recursive: true, force: true });
});

function targetFile(name: string, tls: Record<string, unknown>): string {
  return terminatedTargetFile(dir, ref.target, mtls.port, name, tls);
}

interface Counted {
  load: Array<{ name: string; totals: { completed: number; errors: number } }>;
}

describe('spgate load against an mTLS target', () => {
  for (const profile of ['smoke', 'read-budget']) {
    it(`${profile}: every request answered over TLS with the client certificate, no transport error`, async () => {
      const json = join(dir, `${profile}.json`);
      const r = await runCli(['load', '--profile', profile, '--duration', '1', '--target', targetFile(`ok-${profile}`, { ca: 'internal-ca.pem', cert: 'client.pem', key: 'client.key' }), '--json', json], { cwd: dir, env: { HTTPS_PROXY: '' }, timeoutMs: 120_000 });
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
    const r = await runCli(['load', '--profile', 'smoke', '--duration', '1', '--target', targetFile('none', { ca: 'internal-ca.pem' })], { cwd: dir, env: { HTTPS_PROXY: '' }, timeoutMs: 60_000 });
    expect(r.code).toBe(3);
    const lines = errorLines(r.stderr);
    expect(lines).toHaveLength(1);
    expect(lines[0]).toMatch(/SPGATE_ERR_TLS: .*client certificate/);
    expect(mtls.accepted).toBe(before);
  }, 90_000);

  it('a proxied target is refused for load in either model, naming the engine and not the credentials', () => {
    const env = { HTTPS_PROXY: 'http://user:secret@proxy.internal:3128' };
    for (const engine of ['the open model', 'the closed model']) {
      expect(() => refuseProxied('https://api.example.com/v1', engine, env)).toThrow(new RegExp(`${engine.replace(/[()]/g, '\\$&')} cannot go through the proxy http://proxy\\.internal:3128`));
      expect(() => refuseProxied('https://api.example.com/v1', engine, env)).not.toThrow(/secret/);
    }
    expect(() => refuseProxied('https://127.0.0.1:8443/v1', 'the open model', env)).not.toThrow();
  });
});
