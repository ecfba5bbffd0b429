/**
 * `spgate init` against a target that requires a client certificate: with --tls-* it probes, writes a
 * target file whose tls block (paths relative to the file) lets `spgate conformance` run;
 * without the client certificate it stops with one SPGATE_ERR_TLS line and writes nothing.
 */
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import YAML from 'yaml';
import { startReferenceServer, type RunningReferenceServer } from '../../src/reference/index.js';
import { errorLines, runCli, stackFrames } from '../support/cli.js';
import { makePki, type Pki } from './pki.js';
import { startTerminator, type Terminator } from './servers.js';

let dir: string;
let pki: Pki;
let ref: RunningReferenceServer;
let mtls: Terminator;
let env: NodeJS.ProcessEnv;

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'spgate-init-tls-'));
  pki = makePki(dir);
  ref = await startReferenceServer({ seed: 24 });
  mtls = await startTerminator(pki, Number(new URL(ref.origin).port), { requireClientCert: true });
  env = { SPGATE_ADMIN_KEY: String(ref.target.keys.admin.key), HTTPS_PROXY: '', https_proxy: '' };
  mkdirSync(join(dir, 'targets'));
}, 60_000);
afterAll(async () => {
  await mtls?.close();
  await ref?.close();
  rmSync(dir, { recursive: true, force: true });
});

describe('spgate init against an mTLS target', () => {
  it('probes with --tls-*, writes the tls block relative to the file, and the file runs conformance', async () => {
    const baseUrl = `https://127.0.0.1:${mtls.port}/v1`;
    const r = await runCli(
      [
        'init',
        '--base-url',
        baseUrl,
        '--out',
        'targets/t.yaml',
        '--tls-ca',
        'internal-ca.pem',
        '--tls-cert',
        'client.pem',
        '--tls-key',
        'client.key',
      ],
      { cwd: dir, env },
    );
    expect(r.code, r.stdout + r.stderr).toBe(0);
    const file = YAML.parse(readFileSync(join(dir, 'targets/t.yaml'), 'utf8')) as { tls: Record<string, unknown> };
    expect(file.tls).toEqual({ ca: '../internal-ca.pem', cert: '../client.pem', key: '../client.key' });
    expect(r.stdout + r.stderr).not.toContain('PRIVATE KEY');
    const c = await runCli(['conformance', '--suite', 'auth', '--target', join(dir, 'targets/t.yaml')], {
      cwd: tmpdir(),
      env,
      timeoutMs: 90_000,
    });
    expect(c.code, c.stdout + c.stderr).toBe(0);
    expect(c.stdout).toMatch(/checks: [1-9]\d* passed, 0 failed/);
  });

  it('without the client certificate: one SPGATE_ERR_TLS line, nothing written', async () => {
    const baseUrl = `https://127.0.0.1:${mtls.port}/v1`;
    const r = await runCli(['init', '--base-url', baseUrl, '--out', 'none.yaml', '--tls-ca', 'internal-ca.pem'], { cwd: dir, env });
    expect(r.code).toBe(3);
    const lines = errorLines(r.stderr);
    expect(lines).toHaveLength(1);
    expect(lines[0]).toMatch(/^spgate: SPGATE_ERR_TLS: 127\.0\.0\.1:\d+: .*client certificate.*tls\.cert and tls\.key/);
    expect(stackFrames(r.stderr)).toEqual([]);
    expect(existsSync(join(dir, 'none.yaml'))).toBe(false);
  });

  it('--tls-cert without --tls-key is a usage error', async () => {
    const r = await runCli(['init', '--base-url', `https://127.0.0.1:${mtls.port}/v1`, '--out', 'x.yaml', '--tls-cert', 'client.pem'], {
      cwd: dir,
      env,
    });
    expect(r.code).toBe(2);
    expect(errorLines(r.stderr)[0]).toMatch(/SPGATE_ERR_USAGE: --tls-cert and --tls-key go together/);
  });
});
