/**
 * Synthetic open-model shards whose requests queue in the generator: each shard's arrivals ramp up past
 * what its few connections can carry to a station that holds every request a fixed time, so requests go out
 * after their intended send times and the lag grows — the case where the corrected latency (from the
 * intended time) and the latency from the send disagree. Times are multiples of 1/1024 ms, so every sum is
 * exact in floating point. Written as shard results + traces through the load run's own trace hook.
 */
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { FoldHistograms } from '../../../src/fold/histograms.js';
import type { PlannedRoute } from '../../../src/load/plan.js';
import type { SampleInput } from '../../../src/load/samples.js';
import { analyzeRateLimits } from '../../../src/ratelimit/analyze.js';
import { writeResults } from '../../../src/results/io.js';
import type { ProfileResult, ShardRecord } from '../../../src/results/schema.js';
import { targetFromInput } from '../../../src/target/resolve.js';
import { responseRecord } from '../../../src/load/from-response.js';
import type { TraceRecord } from '../../../src/trace/record.js';
import { resultsOf } from './shards.js';

export const ROUTE: PlannedRoute = {
  idx: 0,
  label: 'customers',
  class: 'read',
  method: 'GET',
  template: '/customers',
  path: '/customers',
  idempotencyKey: false,
  keyRole: 'admin',
  keyName: 'admin',
  weight: 1,
};
export const SLO = { p95Ms: 100, maxErrorPct: 1 };
const dyadic = (ms: number): number => Math.round(ms * 1024) / 1024;

/**
 * One shard's responses on its own clock: arrivals ramp from `fromRps` to `toRps` over `seconds`; each is
 * sent on the first of `connections` connections free at or after its intended time (plus a send slip of
 * 1/8 ms), and answered `serviceMs` later.
 */
export function queuedShard(o: {
  fromRps: number;
  toRps: number;
  seconds: number;
  connections: number;
  serviceMs: number;
  phaseMs?: number;
}): SampleInput[] {
  const free = new Array<number>(o.connections).fill(0);
  const out: SampleInput[] = [];
  for (let t = o.phaseMs ?? 0; t < o.seconds * 1000; ) {
    const intended = dyadic(t);
    let c = 0;
    for (let i = 1; i < free.length; i++) if (free[i]! < free[c]!) c = i;
    const sent = Math.max(intended, free[c]!) + 0.125;
    const received = sent + o.serviceMs;
    free[c] = received;
    out.push({ route: 0, intended, sent, received, status: 200, limit: '100000', remaining: '99999', reset: '1' });
    const rps = o.fromRps + ((o.toRps - o.fromRps) * t) / (o.seconds * 1000);
    t += 1000 / rps;
  }
  return out.sort((a, b) => a.received - b.received);
}

/**
 * Writes shard `index`'s results and trace into dir, its clock starting at `startedAtEpochMs`; the trace
 * records go through `toRecord` (the load run's hook by default), histograms and results as a live
 * open-model shard would hold them. Returns the results path.
 */
export async function writeQueuedShard(
  dir: string,
  index: number,
  count: number,
  samples: SampleInput[],
  startedAtEpochMs: number,
  toRecord: (s: SampleInput) => TraceRecord = (s) => responseRecord(s, ROUTE),
): Promise<string> {
  const trace = join(dir, `shard-${index}.ndjson`);
  writeFileSync(trace, samples.map((s) => JSON.stringify(toRecord(s))).join('\n') + '\n');
  const hist = new FoldHistograms([{ class: 'read', method: 'GET' }], true);
  for (const s of samples) hist.record(0, 'read', s.status, s.received - s.sent, s.received - s.intended);
  const shard: ShardRecord = {
    index,
    count,
    startedAtEpochMs,
    profile: 'queued',
    target: { name: 'station', baseUrl: 'http://127.0.0.1:9/v1' },
    expected: {},
    strict: false,
  };
  const result: ProfileResult = {
    name: 'queued',
    description: 'synthetic open-model shard whose requests queue',
    model: 'open',
    startedAt: new Date(startedAtEpochMs).toISOString(),
    durationMs: Math.ceil(Math.max(...samples.map((s) => s.received))),
    config: {
      classes: [{ class: 'read', routes: [{ route: 'customers', method: 'GET', path: '/customers' }] }],
      notes: [`shard ${index}/${count}: arrival rates split`],
    },
    totals: {
      sent: samples.length,
      completed: samples.length,
      dropped: 0,
      errors: 0,
      byStatus: { '200': samples.length },
      byClass: { read: samples.length, write: 0 },
    },
    throughput: { meanRps: 0, peakRps: 0 },
    latency: hist.summaries(),
    timeline: [],
    thresholds: [],
    rateLimit: analyzeRateLimits([], {}),
    capacity: { rps: null, sloP95Ms: SLO.p95Ms, maxErrorPct: SLO.maxErrorPct, firstBreachAt: null, explanation: 'this shard alone' },
    trace,
    shard,
    status: 'passed',
  };
  const json = join(dir, `shard-${index}.json`);
  const target = targetFromInput(
    { name: shard.target.name, baseUrl: shard.target.baseUrl, keys: { admin: { key: 'pk_test_synthetic' } } },
    'test',
  );
  await writeResults(json, resultsOf(result, [], target));
  return json;
}
