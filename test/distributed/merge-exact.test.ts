import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startReferenceServer, type RunningReferenceServer } from '../../src/reference/index.js';
import { targetFromInput } from '../../src/target/resolve.js';
import { loadProfile } from '../../src/load/profile.js';
import { runProfile } from '../../src/load/run.js';
import { analyzeRateLimits } from '../../src/ratelimit/analyze.js';
import { decodeSummary } from '../../src/distributed/merge-hdr.js';
import { mergeShardFiles, type MergedFiles } from '../../src/distributed/merge-files.js';
import { shiftRecord } from '../../src/distributed/merge.js';
import { traceLatency } from '../../src/trace/latency.js';
import { ProfileResult } from '../../src/results/schema.js';
import { traceToSamples } from '../../src/trace/samples.js';
import type { Target } from '../../src/target/schema.js';
import type { TraceRecord } from '../../src/trace/record.js';
import { figures, histogramsOf, minMax, percentilesOf, readRecords, runShard, timelineOf } from './support/shards.js';

let ref: RunningReferenceServer;
let target: Target;
beforeAll(async () => {
  ref = await startReferenceServer({ port: 0, seed: 7, budgets: { read: 60, write: 20, windowSeconds: 1 } });
  target = targetFromInput(ref.target, 'embedded');
});
afterAll(async () => {
  await ref?.close();
});

/** Runs `count` shards of a profile one after another (the limiter is shared, as on a real target) and merges them. */
async function shardsAndMerge(
  profileName: string,
  count: number,
  durationS: number,
): Promise<{ merged: MergedFiles; records: Array<TraceRecord & { shard: number }> }> {
  const dir = mkdtempSync(join(tmpdir(), 'spgate-merge-'));
  const profile = loadProfile(profileName);
  // Concurrent, as the shards of a real run are: the limiter sees all of them at once.
  const paths = await Promise.all(Array.from({ length: count }, (_, i) => runShard(dir, target, profile, i, count, durationS)));
  const merged = await mergeShardFiles({ paths });
  const records = Array.from({ length: count }, (_, i) =>
    readRecords(join(dir, `shard-${i}.ndjson`)).map((r) => ({ ...r, shard: i })),
  ).flat();
  return { merged, records };
}

describe('spgate merge of shards run against the reference server', () => {
  it('one process: its histograms are exactly the HDR histograms of its own trace records (the yardstick below)', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'spgate-merge-'));
    const tracePath = join(dir, 'one.ndjson');
    const { result } = await runProfile({ target, profile: loadProfile('read-budget'), durationOverride: 1.5, tracePath });
    const fromTrace = histogramsOf(readRecords(tracePath));
    expect(result.latency.length).toBeGreaterThan(0);
    for (const s of result.latency) {
      const h = fromTrace.get(`${s.class}|${s.family}`)!;
      expect(figures(decodeSummary(s))).toEqual(figures(h));
      expect({ min: s.min, max: s.max }).toEqual(minMax(h));
    }
  });

  it('one process, open model: its corrected histograms and per-second percentiles are those of its trace records read with their intended times', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'spgate-merge-'));
    const tracePath = join(dir, 'one.ndjson');
    const { result } = await runProfile({ target, profile: loadProfile('smoke'), durationOverride: 1.5, tracePath });
    const records = readRecords(tracePath);
    // Open model: (nearly) every request went out after its intended time, and says so.
    expect(records.filter((r) => r.intended !== undefined).length).toBeGreaterThan(records.length / 2);
    const fromTrace = histogramsOf(records, traceLatency);
    const corrected = result.latency.filter((s) => s.corrected);
    expect(corrected.length).toBeGreaterThan(0);
    for (const s of corrected) {
      const h = fromTrace.get(`${s.class}|${s.family}`)!;
      expect(figures(decodeSummary(s))).toEqual(figures(h));
      expect({ min: s.min, max: s.max }).toEqual(minMax(h));
    }
    expect(percentilesOf(result.timeline)).toEqual(percentilesOf(timelineOf(records, traceLatency)));
  });

  it('closed model, 3 shards: merged counts and histograms equal those of every shard response seen by one process', async () => {
    const { merged, records } = await shardsAndMerge('read-budget', 3, 1.5);
    const r = merged.result;
    expect(ProfileResult.safeParse(r).success).toBe(true);
    expect(r.merged).toEqual({ count: 3, shards: [0, 1, 2], missing: [] });
    // Counts: the same as tallying every response of every shard.
    const byStatus: Record<string, number> = {};
    for (const x of records)
      byStatus[x.status === 0 ? 'error' : String(x.status)] = (byStatus[x.status === 0 ? 'error' : String(x.status)] ?? 0) + 1;
    expect(r.totals.byStatus).toEqual(byStatus);
    expect(r.totals.completed + r.totals.errors).toBe(records.length);
    expect(r.totals.byStatus['429']).toBeGreaterThan(0);
    // Histograms: lossless, the same as one histogram fed every shard's responses.
    const union = histogramsOf(records);
    expect(r.latency.map((s) => `${s.class}|${s.family}`).sort()).toEqual([...union.keys()].sort());
    for (const s of r.latency) {
      const h = union.get(`${s.class}|${s.family}`)!;
      expect(figures(decodeSummary(s))).toEqual(figures(h));
      expect({ min: s.min, max: s.max }).toEqual(minMax(h));
      expect(s.count).toBe(h.totalCount);
    }
    // The timeline accounts for every response exactly once, on one clock.
    expect(r.timeline.reduce((a, p) => a + p.completed, 0)).toBe(records.length);
    // Thresholds are judged on the merged figures.
    const t429 = r.thresholds.find((t) => t.expression === 'read.429 > 0')!;
    expect(t429).toEqual({ expression: 'read.429 > 0', ok: true, actual: String(byStatus['429']) });
  });

  it('the rate-limit analysis runs over every shard sample together, on the merged clock', async () => {
    const { merged, records } = await shardsAndMerge('read-budget', 2, 1.5);
    const origin = merged.set.originMs;
    const starts = merged.set.shards.map((s) => s.shard.startedAtEpochMs - origin);
    const shifted = records.map((x) => ({ ...x, t: x.t + starts[x.shard]! }));
    const expected = analyzeRateLimits(traceToSamples(shifted.sort((a, b) => a.t + a.latency - (b.t + b.latency))), {
      expected: target.assumptions.rateLimit,
    });
    // Exact, every window row included. Regression: a run of identical refusals is folded into its first
    // and last response, and when shards' responses interleaved across a window's start, a refusal of the
    // new window answered before that window's admissions were took the run's place: the run counted one
    // row late (1,629 refusals under a full suite's load). The merge's watermark (the earliest send of a
    // record not fed yet) lets a refusal fold only once every response sent within its run's span is in.
    expect(merged.result.rateLimit).toEqual(expected);
    const admitted = merged.result.rateLimit.classes.reduce((a, c) => a + c.admitted, 0);
    expect(admitted).toBe(records.filter((x) => x.status >= 200 && x.status < 300).length);
    // The clean reference server's shared limiter: no violation across shards, no finding.
    expect(merged.result.rateLimit.violations.map((v) => `${v.rule}: ${v.message}`)).toEqual([]);
    expect(merged.findings).toEqual([]);
    expect(merged.result.status).toBe('passed');
  });

  it('open model, 2 shards: corrected and uncorrected histograms both merge; every response counted once', async () => {
    const { merged, records } = await shardsAndMerge('smoke', 2, 1.5);
    const r = merged.result;
    const uncorrected = r.latency.filter((s) => !s.corrected).reduce((a, s) => a + s.count, 0);
    const corrected = r.latency.filter((s) => s.corrected).reduce((a, s) => a + s.count, 0);
    expect(uncorrected).toBe(records.filter((x) => x.status !== 0).length);
    expect(corrected).toBe(uncorrected);
    for (const s of r.latency.filter((x) => !x.corrected)) {
      const h = histogramsOf(records).get(`${s.class}|${s.family}`)!;
      expect(figures(decodeSummary(s))).toEqual(figures(h));
      expect({ min: s.min, max: s.max }).toEqual(minMax(h));
    }
    // Corrected: lossless too, from the intended send times the records carry.
    for (const s of r.latency.filter((x) => x.corrected)) {
      const h = histogramsOf(records, traceLatency).get(`${s.class}|${s.family}`)!;
      expect(figures(decodeSummary(s))).toEqual(figures(h));
    }
    // The per-second percentiles (and so the capacity judgement) are one fold's of every shard's corrected latency.
    const starts = merged.set.shards.map((s) => s.shard.startedAtEpochMs - merged.set.originMs);
    const onOneClock = records.map((x) => shiftRecord(x, starts[x.shard]!));
    expect(percentilesOf(r.timeline)).toEqual(percentilesOf(timelineOf(onOneClock, traceLatency)));
    expect(merged.findings.map((f) => f.actual)).toEqual([]);
    // Judged on the merged figures: every threshold but smoke's `p95 < 250ms` and `dropped == 0` holds (those two
    // measure the shared machine: a starved one answers late and its open model drops arrivals while every
    // connection waits), and the status follows the thresholds.
    const machine = /^(p95 < 250ms|dropped == 0)$/;
    expect(r.thresholds.filter((t) => !t.ok && !machine.test(t.expression)).map((t) => `${t.expression} (actual ${t.actual})`)).toEqual([]);
    expect(r.status).toBe(r.thresholds.every((t) => t.ok) ? 'passed' : 'failed');
    // Connection churn adds up over the shards, as the other counters do.
    const churn = merged.set.shards.map((s) => s.result.connections!);
    for (const c of churn) expect(c.opened).toBeGreaterThan(0);
    expect({ opened: r.connections!.opened, resent: r.connections!.resent }).toEqual({
      opened: churn.reduce((n, c) => n + c.opened, 0),
      resent: churn.reduce((n, c) => n + c.resent, 0),
    });
  });
});
