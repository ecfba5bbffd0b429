/**
 * `spgate replay` against a target that requires a client certificate: the trace's requests are re-sent
 * with the target file's tls block (every response recorded with a status), and without the client
 * certificate the run stops with one SPGATE_ERR_TLS line before a request is sent.
 */
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startReferenceServer, type RunningReferenceServer } from '../../src/reference/index.js';
import { errorLines, runCli, stackFrames } from '../support/cli.js';
import { makePki, type Pki } from './pki.js';
import { startTerminator, terminatedTargetFile, type Terminator } from './servers.js';

let dir: string;
let pki: Pki;
let ref: RunningReferenceServer;
let mtls: Terminator;

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'spgate-replay-tls-'));
  pki = makePki(dir);
  ref = await startReferenceServer({ seed: 25 });
  mtls = await startTerminator(pki, Number(new URL(ref.origin).port), { requireClientCert: true });
  const lines = [0, 20, 40, 60, 80].map((t) =>
    JSON.stringify({ t, latency: 2, class: 'read', method: 'GET', path: '/customers', status: 200, key: 'admin' }),
  );
  writeFileSync(join(dir, 'trace.ndjson'), lines.join('\n') + '\n');
}, 60_000);
afterAll(async () => {
  await mtls?.close();
  await ref?.close();
  rmSync(dir, { recursive: true, force: true });
});

function targetFile(name: string, tls: Record<string, unknown>): string {
  return terminatedTargetFile(dir, ref.target, mtls.port, name, tls);
}

describe('spgate replay against an mTLS target', () => {
  it('re-sends the trace with tls.cert and tls.key, every response answered', async () => {
    const out = join(dir, 'again.ndjson');
    const r = await runCli(
      [
        'replay',
        join(dir, 'trace.ndjson'),
        '--target',
        targetFile('ok', { ca: 'internal-ca.pem', cert: 'client.pem', key: 'client.key' }),
        '--trace-out',
        out,
      ],
      { cwd: dir, env: { HTTPS_PROXY: '' }, timeoutMs: 60_000 },
    );
    expect(r.code, r.stdout + r.stderr).toBe(0);
    const statuses = readFileSync(out, 'utf8')
      .trim()
      .split('\n')
      .map((l) => (JSON.parse(l) as { status: number }).status);
    expect(statuses).toEqual([200, 200, 200, 200, 200]);
    expect(stackFrames(r.stdout + r.stderr)).toEqual([]);
  });

  it('without the client certificate: one SPGATE_ERR_TLS line, no request sent', async () => {
    const before = mtls.accepted;
    const r = await runCli(['replay', join(dir, 'trace.ndjson'), '--target', targetFile('none', { ca: 'internal-ca.pem' })], {
      cwd: dir,
      env: { HTTPS_PROXY: '' },
      timeoutMs: 60_000,
    });
    expect(r.code).toBe(3);
    const lines = errorLines(r.stderr);
    expect(lines).toHaveLength(1);
    expect(lines[0]).toMatch(/SPGATE_ERR_TLS: .*client certificate/);
    expect(mtls.accepted).toBe(before);
  });
});
