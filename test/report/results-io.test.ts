import { mkdtemp, readdir, writeFile, readFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { readResults, writeResults } from '../../src/results/io.js';
import { buildResults, scrubSecrets, stripUserInfo } from '../../src/results/build.js';
import { computeVerdict } from '../../src/results/verdict.js';
import { exitCodeForVerdict } from '../../src/run/exit-code.js';
import { SpgateError } from '../../src/errors.js';
import { makeResults } from './fixtures.js';

const dir = (): Promise<string> => mkdtemp(join(tmpdir(), 'spgate-results-'));

describe('results I/O', () => {
  it('round-trips a document and leaves no temp file behind', async () => {
    const d = await dir();
    const r = makeResults();
    await writeResults(join(d, 'nested', 'results.json'), r);
    expect(await readdir(join(d, 'nested'))).toEqual(['results.json']);
    expect(await readResults(join(d, 'nested', 'results.json'))).toEqual(r);
  });

  it('rejects non-JSON, wrong schema versions and invalid documents with one-line coded errors', async () => {
    const d = await dir();
    const cases: Array<[string, RegExp]> = [
      ['{"schemaVersion": 1, "meta"', /not JSON/],
      ['{"schemaVersion": 99}', /schemaVersion 99; this spgate reads version 1/],
      [JSON.stringify({ ...makeResults(), verdict: 'maybe' }), /verdict: Invalid option/],
    ];
    for (const [text, msg] of cases) {
      const p = join(d, 'bad.json');
      await writeFile(p, text);
      const err = await readResults(p).catch((e: unknown) => e);
      expect(err).toBeInstanceOf(SpgateError);
      expect((err as SpgateError).code).toBe('SPGATE_ERR_RESULTS_INVALID');
      expect((err as SpgateError).message).toMatch(msg);
      expect((err as SpgateError).message).not.toContain('\n');
    }
    const missing = await readResults(join(d, 'nope.json')).catch((e: unknown) => e);
    expect((missing as SpgateError).code).toBe('SPGATE_ERR_FILE_NOT_FOUND');
  });
});

describe('buildResults', () => {
  it('keeps only the exchanges findings refer to', () => {
    const r = makeResults();
    expect(r.exchanges.map((x) => x.id)).not.toContain('x999');
    expect(new Set(r.exchanges.map((x) => x.id))).toEqual(new Set(r.findings.flatMap((f) => f.exchangeIds)));
  });

  it('scrubs secrets everywhere and strips credentials from the base URL', async () => {
    const secret = 'pk_live_SUPERSECRET123';
    const base = makeResults();
    const r = buildResults({
      command: 'spgate run',
      target: { name: 't', baseUrl: 'https://user:pw@api.example.com/v1', embedded: false },
      startedAt: new Date(0),
      finishedAt: new Date(1000),
      aborted: false,
      checks: base.checks,
      findings: base.findings.map((f) => ({ ...f, actual: `echoed ${secret}` })),
      exchanges: [],
      load: [],
      errors: [`boom ${secret}`],
      secrets: [secret],
    });
    const text = JSON.stringify(r);
    expect(text).not.toContain(secret);
    expect(text).toContain('[redacted]');
    expect(r.meta.target.baseUrl).toBe('https://api.example.com/v1');
    const d = await dir();
    await writeResults(join(d, 'r.json'), r);
    expect(await readFile(join(d, 'r.json'), 'utf8')).not.toContain(secret);
    expect(stripUserInfo('not a url')).toBe('not a url');
    expect(scrubSecrets({ a: ['xx abcd yy'] }, ['abcd', 'ab'])).toEqual({ a: ['xx [redacted] yy'] });
  });
});

describe('verdict', () => {
  it('is failed with findings, passed when clean, aborted beats everything, errors make it error', () => {
    const failed = makeResults();
    expect(failed.verdict).toBe('failed');
    const clean = makeResults({ clean: true });
    expect(clean.verdict).toBe('passed');
    expect(computeVerdict({ ...clean, meta: { ...clean.meta, aborted: true } })).toBe('aborted');
    expect(computeVerdict({ ...clean, errors: ['target unreachable'] })).toBe('error');
    const warnOnly = { ...clean, checks: clean.checks.map((c) => ({ ...c, status: 'warned' as const })) };
    expect(computeVerdict(warnOnly)).toBe('passed');
    const breached = {
      ...clean,
      load: clean.load.map((p) => ({ ...p, thresholds: [{ expression: 'p99 < 1', ok: false, actual: '5 ms' }] })),
    };
    expect(computeVerdict(breached)).toBe('failed');
    expect([
      exitCodeForVerdict('passed'),
      exitCodeForVerdict('failed'),
      exitCodeForVerdict('aborted'),
      exitCodeForVerdict('error'),
    ]).toEqual([0, 1, 3, 3]);
  });
});
