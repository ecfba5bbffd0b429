/**
 * The closed engine hands responses to the recorder in batches of reused records: every response must
 * reach the recorder once, in order, with its own fields (none left over from the record's previous use),
 * when the batch fills and when it is flushed; and a real closed run must count every response it sent.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { LoadRecorder } from '../../src/load/load-recorder.js';
import { ResponseBatch } from '../../src/load/response-batch.js';
import type { SampleInput } from '../../src/load/samples.js';
import type { RouteClass } from '../../src/results/schema.js';

interface Given {
  cls: RouteClass;
  status: number;
  remaining?: string;
  error?: string;
}

/** Fills the batch's next record the way the closed engine does: every field set. */
function put(b: ResponseBatch, g: Given, i: number): void {
  const r = b.next();
  r.route = i % 3;
  r.sent = i;
  r.received = i + 0.5;
  r.status = g.status;
  r.limit = g.status === 0 ? undefined : '10';
  r.remaining = g.remaining;
  r.reset = undefined;
  r.retryAfter = g.status === 429 ? '1' : undefined;
  r.requestId = g.status === 0 ? undefined : `req_${i}`;
  r.errorCode = g.status === 429 ? 'rate_limited' : undefined;
  r.error = g.error;
  b.commit(g.cls);
}

const given = fc.record({
  cls: fc.constantFrom<RouteClass>('read', 'write'),
  status: fc.constantFrom(0, 200, 429, 503),
  remaining: fc.option(fc.constantFrom('0', '7', ' x'), { nil: undefined }),
  error: fc.option(fc.constant('ECONNRESET'), { nil: undefined }),
});

describe('ResponseBatch', () => {
  it('hands every response to the recorder once, in order, with its own fields, whatever the batch size', () => {
    fc.assert(
      fc.property(
        fc.array(given, { maxLength: 60 }),
        fc.integer({ min: 1, max: 9 }),
        fc.array(fc.nat(59), { maxLength: 5 }),
        (list, size, flushAt) => {
          const seen: SampleInput[] = [];
          const rec = new LoadRecorder({ add: (s) => seen.push({ ...s }) });
          const b = new ResponseBatch(rec, size);
          list.forEach((g, i) => {
            put(b, g, i);
            if (flushAt.includes(i)) b.flush();
            // Never more than a batch is held back.
            expect(b.pending).toBeLessThan(size);
          });
          b.flush();
          expect(b.pending).toBe(0);
          expect(seen).toHaveLength(list.length);
          seen.forEach((s, i) => {
            const g = list[i]!;
            expect(s).toMatchObject({
              route: i % 3,
              sent: i,
              received: i + 0.5,
              status: g.status,
              remaining: g.remaining,
              error: g.error,
              requestId: g.status === 0 ? undefined : `req_${i}`,
            });
            expect(s.errorCode).toBe(g.status === 429 ? 'rate_limited' : undefined);
          });
          // The recorder's own counts: refusals, transport failures. Sends are counted by the engines as they
          // go out, never a second time by the batch.
          expect(rec.sentTotal.read + rec.sentTotal.write).toBe(0);
          expect(rec.refused).toBe(list.filter((g) => g.status === 429).length);
          expect(rec.transportErrors).toBe(list.filter((g) => g.status === 0).length);
          expect(rec.completed).toBe(list.length);
        },
      ),
    );
  });

  it('holds a response back until the batch fills or is flushed', () => {
    const seen: number[] = [];
    const b = new ResponseBatch(new LoadRecorder({ add: (s) => seen.push(s.sent) }), 3);
    put(b, { cls: 'read', status: 200 }, 0);
    put(b, { cls: 'read', status: 200 }, 1);
    expect(seen).toEqual([]);
    put(b, { cls: 'read', status: 200 }, 2);
    expect(seen).toEqual([0, 1, 2]);
    put(b, { cls: 'write', status: 200 }, 3);
    expect(seen).toEqual([0, 1, 2]);
    b.flush();
    expect(seen).toEqual([0, 1, 2, 3]);
    b.flush();
    expect(seen).toEqual([0, 1, 2, 3]);
  });
});
