/** Trace writer, reader and conversion: round trip, secrets stripped, one-line errors with line numbers. */
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { SpgateError } from '../../src/errors.js';
import { createTraceWriter, readTrace, sanitizePath, sanitizeText, traceToSamples } from '../../src/trace/index.js';
import type { TraceRecord } from '../../src/trace/record.js';

const dir = mkdtempSync(join(tmpdir(), 'spgate-trace-'));

const rec = (i: number, extra: Partial<TraceRecord> = {}): TraceRecord => ({
  t: i * 10,
  latency: 3,
  class: 'read',
  method: 'GET',
  path: '/customers',
  status: 200,
  limit: '50',
  remaining: String(49 - i),
  reset: '1',
  requestId: `req_${i}`,
  key: 'admin',
  ...extra,
});

describe('trace writer and reader', () => {
  it('round-trips many records in order, across flushes', async () => {
    const path = join(dir, 'round.ndjson');
    const w = createTraceWriter(path);
    const n = 3000;
    for (let i = 0; i < n; i++) w.write(rec(i, { remaining: String(i) }));
    expect(w.count).toBe(n);
    await w.close();
    const back = await readTrace(path);
    expect(back).toHaveLength(n);
    expect(back[1234]).toEqual(rec(1234, { remaining: '1234' }));
  });

  it('never writes keys, bearer tokens or signed query strings', async () => {
    const path = join(dir, 'secrets.ndjson');
    const w = createTraceWriter(path);
    w.write(
      rec(1, {
        path: 'https://files.example/a/b?X-Amz-Signature=abc123&Expires=99',
        key: 'pk_live_SECRETSECRET',
        error: 'reset: GET https://api.example/v1/x?token=zzz failed with Bearer pk_test_ABCDEF',
      }),
    );
    await w.close();
    const text = readFileSync(path, 'utf8');
    for (const secret of ['abc123', 'SECRETSECRET', 'zzz', 'ABCDEF', 'files.example']) expect(text).not.toContain(secret);
    const [r] = await readTrace(path);
    expect(r!.path).toBe('/a/b');
    expect(r!.key).toBe('[redacted]');
  });

  it('sanitizes paths and text', () => {
    expect(sanitizePath('/conversations/{conversationId}/assign')).toBe('/conversations/{conversationId}/assign');
    expect(sanitizePath('/messages/m1/attachments/0/download?sig=1')).toBe('/messages/m1/attachments/0/download');
    expect(sanitizeText('key pk_abc and https://h/x?signature=s')).toBe('key [redacted] and https://h/x?[redacted]');
  });

  it('names the file and line of an invalid record', async () => {
    const path = join(dir, 'bad.ndjson');
    writeFileSync(path, JSON.stringify(rec(0)) + '\n\n' + JSON.stringify({ ...rec(1), class: 'admin' }) + '\n');
    const err = await readTrace(path).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(SpgateError);
    expect((err as SpgateError).code).toBe('SPGATE_ERR_TRACE_INVALID');
    expect((err as SpgateError).message).toMatch(/bad\.ndjson:3: not a trace record \(class: /);
    writeFileSync(path, '{not json\n');
    await expect(readTrace(path)).rejects.toThrow(/bad\.ndjson:1: not JSON/);
    await expect(readTrace(join(dir, 'missing.ndjson'))).rejects.toThrow(/cannot read trace file/);
  });

  it('refuses an uncreatable file up front', () => {
    expect(() => createTraceWriter(join(dir, 'no', 'such', 'dir.ndjson'))).toThrow(SpgateError);
  });

  it('converts records to samples, dropping transport failures', () => {
    const samples = traceToSamples([
      rec(0),
      rec(1, { status: 0, error: 'refused: ECONNREFUSED' }),
      rec(2, { status: 429, retryAfter: '1', errorCode: 'rate_limit.exceeded' }),
    ]);
    expect(samples).toHaveLength(2);
    expect(samples[1]).toMatchObject({
      sentAt: 20,
      receivedAt: 23,
      status: 429,
      retryAfter: '1',
      errorCode: 'rate_limit.exceeded',
      key: 'admin',
    });
  });
});
