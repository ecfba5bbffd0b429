/**
 * Synthetic shards: trace records of reads answered by a fixed-window limiter that is either shared by
 * every shard (a correct deployment) or kept per connection (each shard gets the whole budget: the
 * deployment admits N × the budget), written as shard results + traces, for the cross-shard tests.
 */
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { newHistogram, summarize, toMicros } from '../../../src/fold/hdr.js';
import { familyOf } from '../../../src/fold/status-family.js';
import { analyzeRateLimits } from '../../../src/ratelimit/analyze.js';

import { writeResults } from '../../../src/results/io.js';
import type { ProfileResult, ShardRecord, StatusFamily } from '../../../src/results/schema.js';
import type { TraceRecord } from '../../../src/trace/record.js';
import { traceToSamples } from '../../../src/trace/samples.js';
import { resultsOf } from './shards.js';
import { targetFromInput } from '../../../src/target/resolve.js';

export const LIMIT = 10;
const WINDOW_MS = 1000;

/**
 * Records of `count` shards sending a read every `gapMs` for `seconds`, shard i offset by i·gapMs/count and
 * starting at `startMs[i]` (its own clock starts then: its record times are relative to it).
 */
export function limiterTraces(
  kind: 'shared' | 'per-shard',
  count: number,
  seconds = 3,
  gapMs = 40,
  startMs: number[] = [],
): TraceRecord[][] {
  const sends: Array<{ shard: number; t: number }> = [];
  for (let s = 0; s < count; s++)
    for (let t = (s * gapMs) / count + 1 + (startMs[s] ?? 0); t < seconds * 1000; t += gapMs) sends.push({ shard: s, t });
  sends.sort((a, b) => a.t - b.t);
  const used = new Map<string, number>();
  const out: TraceRecord[][] = Array.from({ length: count }, () => []);
  let id = 0;
  for (const { shard, t } of sends) {
    const w = Math.floor(t / WINDOW_MS);
    const k = kind === 'shared' ? `${w}` : `${w}|${shard}`;
    const n = used.get(k) ?? 0;
    const admitted = n < LIMIT;
    if (admitted) used.set(k, n + 1);
    const remaining = admitted ? LIMIT - n - 1 : 0;
    const reset = String(Math.max(1, Math.ceil(((w + 1) * WINDOW_MS - t) / 1000)));
    const r: TraceRecord = {
      t: t - (startMs[shard] ?? 0),
      latency: 2,
      class: 'read',
      method: 'GET',
      path: '/customers',
      status: admitted ? 200 : 429,
      limit: String(LIMIT),
      remaining: String(remaining),
      reset,
      requestId: `req_${shard}_${++id}`,
      key: 'admin',
    };
    if (!admitted) {
      r.retryAfter = reset;
      r.errorCode = 'rate_limit.exceeded';
    }
    out[shard]!.push(r);
  }
  return out;
}

/** Writes shard i's results and trace into dir (its clock starts at `originMs`); returns the results path. */
export async function writeShard(
  dir: string,
  index: number,
  count: number,
  records: TraceRecord[],
  opts: { originMs?: number; profile?: string; baseUrl?: string; name?: string; clock?: string } = {},
): Promise<string> {
  const trace = join(dir, `shard-${index}.ndjson`);
  writeFileSync(trace, records.map((r) => JSON.stringify(r)).join('\n') + '\n');
  const hists = new Map<StatusFamily, ReturnType<typeof newHistogram>>();
  const byStatus: Record<string, number> = {};
  for (const r of records) {
    byStatus[String(r.status)] = (byStatus[String(r.status)] ?? 0) + 1;
    const fam = familyOf(r.status)!;
    if (!hists.has(fam)) hists.set(fam, newHistogram());
    hists.get(fam)!.recordValue(toMicros(r.latency));
  }
  const baseUrl = opts.baseUrl ?? 'http://127.0.0.1:9/v1';
  const shard: ShardRecord = {
    index,
    count,
    startedAtEpochMs: opts.originMs ?? 1_700_000_000_000,
    // One machine's clock unless a test says otherwise (shards on several clocks merge with a tolerance).
    clock: opts.clock ?? 'synthetic-clock',
    profile: opts.profile ?? 'synthetic',
    target: { name: opts.name ?? 'synthetic', baseUrl },
    expected: { read: { limit: LIMIT, windowSeconds: 1 } },
    strict: false,
  };
  const result: ProfileResult = {
    name: opts.profile ?? 'synthetic',
    description: 'synthetic shard',
    model: 'closed',
    startedAt: new Date(shard.startedAtEpochMs).toISOString(),
    durationMs: Math.ceil(Math.max(...records.map((r) => r.t + r.latency))),
    config: {
      classes: [{ class: 'read', routes: [{ route: 'customers', method: 'GET', path: '/customers' }] }],
      notes: [`shard ${index}/${count}: connections split`],
    },
    totals: {
      sent: records.length,
      completed: records.length,
      dropped: 0,
      errors: 0,
      byStatus,
      byClass: { read: records.length, write: 0 },
    },
    throughput: { meanRps: 0, peakRps: 0 },
    latency: [...hists.entries()].map(([fam, h]) => summarize(h, 'read', fam, false)),
    timeline: [],
    thresholds: [
      { expression: 'ratelimit.violations == 0', ok: true, actual: '0' },
      { expression: 'read.429 > 0', ok: true, actual: '1' },
    ],
    rateLimit: analyzeRateLimits(traceToSamples(records), { expected: shard.expected }),
    trace: trace,
    shard,
    status: 'passed',
  };
  const json = join(dir, `shard-${index}.json`);
  const target = targetFromInput({ name: shard.target.name, baseUrl, keys: { admin: { key: 'pk_test_synthetic' } } }, 'test');
  await writeResults(json, resultsOf(result, [], target));
  return json;
}
