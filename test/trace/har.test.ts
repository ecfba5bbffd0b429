/**
 * HAR 1.2 in. A HAR written by Chromium itself (playwright's recordHar, Chromium's own network log) of a
 * page calling the reference server with a limiter fault is analysed by `spgate analyze` and shrunk by
 * `spgate shrink`; the API key and a signed URL's credentials appear in no output. Edge cases of the reader
 * (not HAR, no usable entry, several keys, route templates) on small documents.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { startReferenceServer, type RunningReferenceServer } from '../../src/reference/index.js';
import { harToRecords, templateOf } from '../../src/trace/har.js';
import { analyzeRateLimits } from '../../src/ratelimit/analyze.js';
import { traceToSamples } from '../../src/trace/samples.js';
import { errorLines, runCli, stackFrames } from '../support/cli.js';
import { CHROMIUM, chromiumPart, need } from '../support/optional.js';
import { tempDir, writeJson } from '../support/target-file.js';

const SIGNATURE = 'sig_do_not_leak_4242';

describe('harToRecords', () => {
  const entry = (url: string, o: { status?: number; headers?: Record<string, string>; auth?: string; t?: number } = {}) => ({
    startedDateTime: new Date(Date.UTC(2026, 0, 5, 10, 0, 0, o.t ?? 0)).toISOString(),
    time: 12,
    request: { method: 'GET', url, headers: o.auth ? [{ name: 'Authorization', value: o.auth }] : [] },
    response: { status: o.status ?? 200, headers: Object.entries(o.headers ?? {}).map(([name, value]) => ({ name, value })), content: {} },
    timings: { blocked: 1, dns: -1, connect: -1, send: 1, wait: 8, receive: 2 },
  });

  it('keeps API entries, drops page noise, tells keys apart without keeping them, strips query strings', () => {
    const har = {
      log: {
        version: '1.2',
        entries: [
          entry('https://app.example.test/index.html'),
          entry(`https://api.example.test/v1/messages/msg_1/attachments/0/download?X-Amz-Signature=${SIGNATURE}`, {
            auth: 'Bearer pk_live_aaaa1111',
            headers: { 'RateLimit-Limit': '10', 'RateLimit-Remaining': '9', 'RateLimit-Reset': '1' },
            t: 5,
          }),
          entry('https://api.example.test/v1/customers/cus_42', {
            auth: 'Bearer pk_live_bbbb2222',
            headers: { 'RateLimit-Remaining': '8' },
            t: 20,
          }),
        ],
      },
    };
    const { records, ignored } = harToRecords(har, 'x.har', { keyRole: 'agent' });
    expect(ignored).toBe(1);
    expect(records.map((r) => [r.t, r.path, r.key, r.remaining, r.latency])).toEqual([
      [0, '/messages/{messageId}/attachments/{storedIndex}/download', 'agent', '9', 10],
      [15, '/customers/{customerId}', 'agent#2', '8', 10],
    ]);
    const text = JSON.stringify(records);
    expect(text).not.toContain(SIGNATURE);
    expect(text).not.toContain('pk_live');
  });

  it('does not judge the 429 code of a body the HAR did not keep, and reads it when it did', () => {
    const refused = (content: object, t: number) => ({
      ...entry('https://api.example.test/v1/me', {
        status: 429,
        t,
        headers: { 'RateLimit-Limit': '1', 'RateLimit-Remaining': '0', 'RateLimit-Reset': '1', 'Retry-After': '1' },
      }),
      response: {
        status: 429,
        headers: [
          { name: 'RateLimit-Limit', value: '1' },
          { name: 'RateLimit-Remaining', value: '0' },
          { name: 'RateLimit-Reset', value: '1' },
          { name: 'Retry-After', value: '1' },
        ],
        content,
      },
    });
    const { records } = harToRecords(
      {
        log: {
          entries: [
            refused({ size: 0 }, 0),
            refused({ text: Buffer.from('{"error":{"code":"too_many"}}').toString('base64'), encoding: 'base64' }, 10),
          ],
        },
      },
      'c.har',
    );
    expect(records.map((r) => [r.bodyRecorded, r.errorCode])).toEqual([
      [false, undefined],
      [undefined, 'too_many'],
    ]);
    const a = analyzeRateLimits(traceToSamples(records));
    expect(a.violations.filter((v) => v.rule === '8.ratelimit.429-code').map((v) => v.samples.map((x) => x.t))).toEqual([[10]]);
  });

  it('gives unknown routes {id} placeholders', () => {
    expect(templateOf('/widgets/wid_abc123/parts/42')).toBe('/widgets/{id}/parts/{id}');
    expect(templateOf('/me')).toBe('/me');
  });

  it('refuses what is not HAR, and a HAR without one API request, with one line', () => {
    expect(() => harToRecords({ entries: [] }, 'a.har')).toThrow(/SPGATE_ERR_HAR_INVALID|not a HAR 1.2 document/);
    expect(() => harToRecords({ log: { entries: [entry('https://app.example.test/'), { request: {} }] } }, 'b.har')).toThrow(
      'b.har: no usable entries (2 entries, none an http(s) request under /v1 or with rate-limit headers)',
    );
  });
});

// analyze reads the HAR offline and shrink sends to the server: side by side.
describe.concurrent('a HAR exported by Chromium', () => {
  const chromiumHere = chromiumPart();
  let server: RunningReferenceServer;
  let dir: string;
  let harPath: string;
  let targetPath: string;
  let key: string;
  beforeEach((ctx) => need(ctx, chromiumHere));

  beforeAll(async () => {
    if (chromiumHere.missing) return;
    server = await startReferenceServer({ faults: ['ratelimit-reset-ms'], budgets: { read: 10, write: 5, windowSeconds: 1 } });
    key = server.target.keys.admin!.key;
    dir = tempDir('spgate-har-');
    harPath = join(dir, 'devtools.har');
    targetPath = writeJson(dir, 'target.json', server.describe({ budgets: false }));
    const { chromium } = await import('playwright-core');
    const browser = await chromium.launch({ executablePath: CHROMIUM, headless: true, args: ['--no-sandbox'] });
    try {
      const context = await browser.newContext({ recordHar: { path: harPath } });
      const page = await context.newPage();
      // Same origin as the API: the page's own fetches, as an app's would be.
      await page.goto(`${server.origin}/v1/nothing-here`);
      await page.evaluate(
        async ({ key, sig }) => {
          for (let i = 0; i < 14; i++) {
            await fetch(`/v1/me?sig=${sig}`, { headers: { Authorization: `Bearer ${key}` } });
            await new Promise((r) => setTimeout(r, 40));
          }
        },
        { key, sig: SIGNATURE },
      );
      await context.close();
    } finally {
      await browser.close();
    }
  }, 60_000);
  afterAll(async () => {
    await server?.close();
  });

  it('is read and analysed: the fault is named, the key and the signed URL are nowhere', async () => {
    const raw = readFileSync(harPath, 'utf8');
    expect(raw).toContain(key);
    expect(raw).toContain(SIGNATURE);
    const json = join(dir, 'analysis.json');
    const run = await runCli(['analyze', harPath, '--json', json], { timeoutMs: 30_000 });
    expect({ code: run.code, errors: errorLines(run.stderr), frames: stackFrames(run.stdout + run.stderr) }).toEqual({
      code: 1,
      errors: [],
      frames: [],
    });
    expect(run.stdout).toMatch(/HAR: 15 API request\(s\) read/);
    expect(run.stdout).toContain('8.ratelimit.reset-plausible');
    for (const text of [run.stdout, run.stderr, readFileSync(json, 'utf8')]) {
      expect(text).not.toContain(key);
      expect(text).not.toContain(SIGNATURE);
    }
  });

  it('is shrunk against the live target, and the minimal trace holds no secret', async () => {
    const min = join(dir, 'min.ndjson');
    const run = await runCli(
      ['shrink', harPath, '--target', targetPath, '--trace-out', min, '--attempts', '2', '--times', '5', '--max-time', '60'],
      { timeoutMs: 150_000 },
    );
    expect({ code: run.code, errors: errorLines(run.stderr) }).toEqual({ code: 1, errors: [] });
    expect(run.stdout).toMatch(/showing 8\.ratelimit\.reset-plausible on read/);
    expect(run.stdout).toMatch(/minimal reproduced [45]\/5/);
    for (const text of [run.stdout, run.stderr, readFileSync(min, 'utf8'), readFileSync(join(dir, 'min.html'), 'utf8')]) {
      expect(text).not.toContain(key);
      expect(text).not.toContain(SIGNATURE);
    }
  }, 160_000);
});
