/**
 * The trace writer under a burst faster than the disk: its in-memory queue never exceeds the bound (the
 * writer drains synchronously instead), and every line lands in order. Regression for an unbounded
 * in-memory trace backlog on long full-speed runs.
 */
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { createTraceWriter, readTrace } from '../../src/trace/index.js';
import type { TraceRecord } from '../../src/trace/record.js';

const rec = (i: number): TraceRecord => ({
  t: i,
  latency: 1,
  class: 'read',
  method: 'GET',
  path: '/customers',
  status: 429,
  limit: '50',
  remaining: '0',
  reset: '1',
  retryAfter: '1',
  requestId: `req_${i}`,
  key: 'admin',
  errorCode: 'rate_limit.exceeded',
});

describe('trace writer backpressure', () => {
  it('holds at most its bound in memory during a burst, and writes every line in order', async () => {
    const path = join(mkdtempSync(join(tmpdir(), 'spgate-bp-')), 't.ndjson');
    const w = createTraceWriter(path, { flushBytes: 1024, maxQueuedBytes: 8 * 1024 });
    const n = 20_000;
    // One synchronous burst: the async writes cannot progress until it ends, so only the bound protects memory.
    for (let i = 0; i < n; i++) w.write(rec(i));
    const line = JSON.stringify(rec(n)).length + 1;
    expect(w.peakQueuedBytes).toBeLessThanOrEqual(8 * 1024 + 2 * (1024 + line));
    await w.close();
    const back = await readTrace(path);
    expect(back.length).toBe(n);
    back.forEach((r, i) => expect(r.requestId).toBe(`req_${i}`));
  });

  it('without a bound hit (slow trickle), writes asynchronously and still in order', async () => {
    const path = join(mkdtempSync(join(tmpdir(), 'spgate-bp-')), 't.ndjson');
    const w = createTraceWriter(path, { flushBytes: 512 });
    for (let i = 0; i < 200; i++) {
      w.write(rec(i));
      if (i % 20 === 0) await new Promise((r) => setImmediate(r));
    }
    await w.close();
    const back = await readTrace(path);
    expect(back.map((r) => r.requestId)).toEqual(Array.from({ length: 200 }, (_, i) => `req_${i}`));
  });
});
