/**
 * Running shards of a profile in-process (the same slicing and stamping `load --shard` does) and writing
 * their results and traces as a shard machine would, for the merge tests.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import * as hdr from 'hdr-histogram-js';
import { runProfile } from '../../../src/load/run.js';
import type { Profile } from '../../../src/load/profile.js';
import { clockId } from '../../../src/distributed/clock.js';
import { shardProfile, shardRecord, shardTarget } from '../../../src/distributed/shard.js';
import { newHistogram, toMicros } from '../../../src/fold/hdr.js';
import { familyOf } from '../../../src/fold/status-family.js';
import { RunFold } from '../../../src/fold/run-fold.js';
import type { TimelineRow } from '../../../src/fold/timeline.js';
import { buildResults } from '../../../src/results/build.js';
import { writeResults } from '../../../src/results/io.js';
import type { ProfileResult, Results } from '../../../src/results/schema.js';
import type { Target } from '../../../src/target/schema.js';
import { TraceRecord } from '../../../src/trace/record.js';

/** Runs shard index/count and writes shard-<index>.json and shard-<index>.ndjson into dir; returns the json path. */
export async function runShard(
  dir: string,
  target: Target,
  profile: Profile,
  index: number,
  count: number,
  durationS: number,
): Promise<string> {
  const shard = { index, count };
  const sliced = shardProfile(profile, shard);
  const tracePath = join(dir, `shard-${index}.ndjson`);
  const { result, findings, originEpochMs } = await runProfile({
    target: shardTarget(target, shard),
    profile: sliced.profile,
    durationOverride: durationS,
    tracePath,
  });
  result.shard = shardRecord(shard, originEpochMs, profile.name, target, clockId());
  const json = join(dir, `shard-${index}.json`);
  await writeResults(json, resultsOf(result, findings, target));
  return json;
}

/** A results document around one profile result, as `spgate load --json` writes it. */
export function resultsOf(result: ProfileResult, findings: Results['findings'], target: Target): Results {
  return buildResults({
    command: 'load',
    target: { name: target.name, baseUrl: target.baseUrl, embedded: false },
    startedAt: new Date(result.startedAt),
    finishedAt: new Date(),
    aborted: false,
    checks: [],
    findings,
    exchanges: [],
    load: [result],
    errors: [],
  });
}

/** Every record of an NDJSON trace. */
export function readRecords(path: string): TraceRecord[] {
  return readFileSync(path, 'utf8')
    .split('\n')
    .filter((l) => l.trim())
    .map((l) => TraceRecord.parse(JSON.parse(l)));
}

/**
 * HDR histograms (µs) of the records' latencies per class × family: what one process records for them
 * (`latency`: which view; the corrected one is traceLatency).
 */
export function histogramsOf(records: TraceRecord[], latency: (r: TraceRecord) => number = (r) => r.latency): Map<string, hdr.Histogram> {
  const out = new Map<string, hdr.Histogram>();
  for (const r of records) {
    const fam = familyOf(r.status);
    if (!fam) continue;
    const k = `${r.class}|${fam}`;
    let h = out.get(k);
    if (!h) out.set(k, (h = newHistogram()));
    h.recordValue(toMicros(latency(r)));
  }
  return out;
}

/**
 * The figures of a histogram that a summary reports, at the histogram's resolution. Min and max are left
 * out: a decoded histogram knows them only to their bucket, so summaries carry them exactly (see minMax).
 */
export function figures(h: hdr.Histogram): number[] {
  return [h.totalCount, h.mean, ...[1, 10, 25, 50, 75, 90, 95, 99, 99.9, 99.99, 100].map((p) => h.getValueAtPercentile(p))];
}

/** Exact min and max in ms, as a summary reports them. */
export function minMax(h: hdr.Histogram): { min: number; max: number } {
  return { min: Math.round(h.minNonZeroValue) / 1000, max: Math.round(h.maxValue) / 1000 };
}

/** The per-second timeline of one fold of the records (times on one clock), with the given latency view, as a single run folds them. */
export function timelineOf(records: TraceRecord[], latency: (r: TraceRecord) => number): TimelineRow[] {
  const fold = new RunFold({});
  const byReceived = [...records].sort((a, b) => a.t + a.latency - (b.t + b.latency));
  for (const r of byReceived) fold.add(r.class, r.status, r.t + r.latency, latency(r), r, undefined);
  return fold.timelineRows({ sentPerSecond: { read: [], write: [] }, droppedPerSecond: { read: [], write: [] } });
}

/** What a timeline says of latency per second: [second, responses, p50, p95, p99]. */
export function percentilesOf(rows: Array<Pick<TimelineRow, 't' | 'completed' | 'p50' | 'p95' | 'p99'>>): unknown[] {
  return rows.map((r) => [r.t, r.completed, r.p50, r.p95, r.p99]);
}
