/**
 * A merged open-model run judges latency as one process would: its per-second percentiles and capacity
 * verdict come from the corrected latency (from each request's intended send time), which the shards'
 * trace records carry. Regression: the merge folded the latency from the actual send, so a run whose
 * requests queued in the generators showed a p95 without the queue and judged the SLO met past the knee.
 */
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { mergeShardFiles } from '../../src/distributed/merge-files.js';
import { RunFold } from '../../src/fold/run-fold.js';
import { correctedLatencyOf, type SampleInput } from '../../src/load/samples.js';
import { findCapacity, type TimelineRow } from '../../src/fold/timeline.js';
import { responseRecord } from '../../src/load/from-response.js';
import { traceLatency } from '../../src/trace/latency.js';
import { percentilesOf, readRecords } from './support/shards.js';
import { queuedShard, ROUTE, SLO, writeQueuedShard } from './support/queued.js';

const ORIGIN = 1_700_000_000_000;
/** Shard 1's clock starts this long after shard 0's. */
const OFFSET = 300;

/** Two shards: each ramps 50 → 400 arrivals/s over 6 s onto 2 connections of 10 ms (200/s each): they queue from about 2.6 s. */
function shards(): SampleInput[][] {
  const o = { fromRps: 50, toRps: 400, seconds: 6, connections: 2, serviceMs: 10 };
  return [queuedShard(o), queuedShard({ ...o, phaseMs: 1.5 })];
}

/** One process's fold of every response (the live aggregator's view: corrected latency), on the merged clock. */
function singleFold(parts: SampleInput[][]): { rows: TimelineRow[]; lastFullSecond: number } {
  const all = parts.flatMap((p, i) =>
    p.map((s) => ({ ...s, intended: s.intended + i * OFFSET, sent: s.sent + i * OFFSET, received: s.received + i * OFFSET })),
  );
  all.sort((a, b) => a.received - b.received);
  const fold = new RunFold({});
  for (const s of all) fold.add('read', s.status, s.received, correctedLatencyOf(s), s, undefined);
  const durationMs = Math.max(...parts.map((p, i) => i * OFFSET + Math.ceil(Math.max(...p.map((s) => s.received)))));
  return {
    rows: fold.timelineRows({ sentPerSecond: { read: [], write: [] }, droppedPerSecond: { read: [], write: [] } }),
    lastFullSecond: Math.floor(Math.round(durationMs) / 1000),
  };
}

async function merge(
  parts: SampleInput[][],
  toRecord?: (s: SampleInput) => ReturnType<typeof responseRecord>,
): Promise<Awaited<ReturnType<typeof mergeShardFiles>> & { traceOut: string }> {
  const dir = mkdtempSync(join(tmpdir(), 'spgate-intended-'));
  const paths = await Promise.all(parts.map((p, i) => writeQueuedShard(dir, i, parts.length, p, ORIGIN + i * OFFSET, toRecord)));
  const traceOut = join(dir, 'merged.ndjson');
  return { ...(await mergeShardFiles({ paths, traceOut })), traceOut };
}

describe('merged open-model runs: latency from the intended send time', () => {
  it("2 shards whose requests queued: the merged per-second percentiles and capacity verdict are the single fold's", async () => {
    const parts = shards();
    // The scenario is what it claims: requests went out well after their intended times.
    const lag = Math.max(...parts.flat().map((s) => s.sent - s.intended));
    expect(lag).toBeGreaterThan(SLO.p95Ms * 5);
    const { result } = await merge(parts);
    const yard = singleFold(parts);
    expect(percentilesOf(result.timeline)).toEqual(percentilesOf(yard.rows));
    const truth = findCapacity(yard.rows, SLO, yard.lastFullSecond);
    expect(truth.firstBreachAt).not.toBeNull();
    expect(result.capacity).toEqual(truth);
    // The merged latency summaries (lossless histogram merge) hold the same corrected view.
    const corrected = result.latency.find((s) => s.corrected && s.family === '2xx')!;
    expect(corrected.max).toBeGreaterThan(SLO.p95Ms * 5);
  });

  it('without intended times (a trace of an older version) the merge judges from the send: the queue is invisible and the verdict differs', async () => {
    const parts = shards();
    const { result } = await merge(parts, (s) => {
      const { intended: _dropped, ...r } = responseRecord(s, ROUTE);
      return r;
    });
    const yard = singleFold(parts);
    const truth = findCapacity(yard.rows, SLO, yard.lastFullSecond);
    // Still read and merged (the field is optional), but every second's p95 is the 10 ms service time.
    expect(result.timeline.every((r) => r.p95 === null || r.p95 < 11)).toBe(true);
    expect(result.capacity!.firstBreachAt).toBeNull();
    expect(result.capacity).not.toEqual(truth);
    expect(result.capacity!.rps!).toBeGreaterThanOrEqual(truth.rps ?? 0);
  });

  it("the merged trace carries each intended time on the merged clock: read back, its corrected latencies are the responses'", async () => {
    const parts = shards();
    const { traceOut } = await merge(parts);
    const merged = readRecords(traceOut);
    expect(merged).toHaveLength(parts[0]!.length + parts[1]!.length);
    const want = parts
      .flatMap((p, i) => p.map((s) => [s.intended + i * OFFSET, s.sent + i * OFFSET, correctedLatencyOf(s)]))
      .sort((a, b) => a[1]! - b[1]!);
    const got = merged.map((r) => [r.intended, r.t, traceLatency(r)]).sort((a, b) => a[1]! - b[1]!);
    expect(got).toEqual(want);
  });
});
