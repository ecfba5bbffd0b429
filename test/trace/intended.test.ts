/**
 * The intended send time in trace records: written by the load run's trace hook only when the request had
 * one other than its send (open model), kept by the writer, optional for readers (older traces, other
 * tools, HAR), and read back into exactly the corrected latency the live run folds.
 */
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { SpgateError } from '../../src/errors.js';
import { createTraceWriter, readTrace } from '../../src/trace/index.js';
import { harToRecords } from '../../src/trace/har.js';
import { responseRecord } from '../../src/load/from-response.js';
import { traceLatency } from '../../src/trace/latency.js';
import { TraceRecord } from '../../src/trace/record.js';
import { correctedLatencyOf, latencyOf, type SampleInput } from '../../src/load/samples.js';
import type { PlannedRoute } from '../../src/load/plan.js';
import { scheduleOf } from '../../src/shrink/schedule.js';

const dir = mkdtempSync(join(tmpdir(), 'spgate-intended-'));
const route: PlannedRoute = {
  idx: 0,
  label: 'customers',
  class: 'read',
  method: 'GET',
  template: '/customers',
  path: '/customers?limit=25',
  idempotencyKey: false,
  keyRole: 'admin',
  keyName: 'admin',
  weight: 1,
};
const sample = (intended: number, sent: number, received: number, status = 200): SampleInput => ({
  route: 0,
  intended,
  sent,
  received,
  status,
  limit: '50',
  remaining: '49',
  reset: '1',
});

describe('trace records with an intended send time', () => {
  it('the trace hook writes `intended` only for an open-model request sent other than on time', () => {
    const queued = responseRecord(sample(100, 160.25, 171.5), route);
    expect(queued).toMatchObject({ t: 160.25, latency: 11.25, intended: 100, path: '/customers', class: 'read' });
    expect('intended' in responseRecord(sample(NaN, 160, 171), route)).toBe(false); // closed model
    expect('intended' in responseRecord(sample(160, 160, 171), route)).toBe(false); // on time: nothing to correct
    expect(responseRecord(sample(100, 160, 100, 0), route)).toMatchObject({ status: 0, latency: 0, intended: 100 });
  });

  it("property: the record read back gives the live run's latency view (corrected in the open model, from the send in the closed)", () => {
    const t = fc.double({ min: 0, max: 1e6, noNaN: true });
    fc.assert(
      fc.property(
        t,
        fc.double({ min: 0, max: 5000, noNaN: true }),
        fc.double({ min: 0, max: 5000, noNaN: true }),
        fc.boolean(),
        (intended, lag, service, open) => {
          const s = sample(open ? intended : NaN, intended + lag, intended + lag + service);
          const back = TraceRecord.parse(JSON.parse(JSON.stringify(responseRecord(s, route))));
          const want = open ? correctedLatencyOf(s) : latencyOf(s);
          expect(Math.abs(traceLatency(back) - want)).toBeLessThanOrEqual(1e-9 * Math.max(1, s.received));
        },
      ),
      { numRuns: 300 },
    );
  });

  it('the writer keeps it (sanitised copy) and the reader returns it; records without it still read', async () => {
    const path = join(dir, 'open.ndjson');
    const w = createTraceWriter(path);
    w.write(responseRecord(sample(1000, 1250, 1262), route));
    w.write(responseRecord(sample(NaN, 1300, 1304), route));
    await w.close();
    const back = await readTrace(path);
    expect(back.map((r) => [r.t, r.intended, traceLatency(r)])).toEqual([
      [1250, 1000, 262],
      [1300, undefined, 4],
    ]);
  });

  it('a negative or non-numeric intended time is a one-line trace error naming the line', async () => {
    const path = join(dir, 'bad.ndjson');
    writeFileSync(
      path,
      JSON.stringify({ t: 1, latency: 2, class: 'read', method: 'GET', path: '/', status: 200 }) +
        '\n' +
        JSON.stringify({ t: 1, latency: 2, class: 'read', method: 'GET', path: '/', status: 200, intended: -5 }) +
        '\n',
    );
    const err = await readTrace(path).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(SpgateError);
    expect((err as SpgateError).message).toMatch(/bad\.ndjson:2: not a trace record \(intended: /);
  });

  it('replay and shrink schedule at the recorded sends (what the limiter saw), not at the intended times', () => {
    const records = [responseRecord(sample(0, 40, 50), route), responseRecord(sample(10, 90, 100), route)];
    expect(scheduleOf(records).map((x) => x.t)).toEqual([0, 50]);
  });

  it('HAR entries have no intended time: their latency is from the send', () => {
    const har = {
      log: {
        version: '1.2',
        entries: [
          {
            startedDateTime: new Date(Date.UTC(2026, 0, 5, 10)).toISOString(),
            time: 12,
            request: { method: 'GET', url: 'https://api.example.test/v1/customers', headers: [] },
            response: { status: 200, headers: [], content: {} },
            timings: { blocked: 1, dns: -1, connect: -1, send: 1, wait: 8, receive: 2 },
          },
        ],
      },
    };
    const [r] = harToRecords(har, 'x.har').records;
    expect(r).toBeDefined();
    expect(r!.intended).toBeUndefined();
    expect(traceLatency(r!)).toBe(r!.latency);
  });
});
