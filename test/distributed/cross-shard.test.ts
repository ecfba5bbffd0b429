import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { analyzeRateLimits } from '../../src/ratelimit/analyze.js';
import { mergeShardFiles } from '../../src/distributed/merge-files.js';
import { CROSS_MACHINE_SKEW_MS, mergeSkewMs } from '../../src/distributed/clock.js';
import { traceToSamples } from '../../src/trace/samples.js';
import { LIMIT, limiterTraces, writeShard } from './support/synthetic.js';
import { runShard } from './support/shards.js';
import { startReferenceServer, type RunningReferenceServer } from '../../src/reference/index.js';
import { targetFromInput } from '../../src/target/resolve.js';
import { loadProfile } from '../../src/load/profile.js';

async function merge(kind: 'shared' | 'per-shard', count: number) {
  const dir = mkdtempSync(join(tmpdir(), 'spgate-cross-'));
  const traces = limiterTraces(kind, count);
  const paths = await Promise.all(traces.map((recs, i) => writeShard(dir, i, count, recs)));
  return { traces, merged: await mergeShardFiles({ paths }) };
}

describe('rate-limit analysis across shards', () => {
  it('a limiter shared by every connection: the merged run passes with every threshold held', async () => {
    const { traces, merged } = await merge('shared', 3);
    expect(merged.result.rateLimit.violations).toEqual([]);
    expect(merged.findings).toEqual([]);
    expect(merged.result.thresholds.every((t) => t.ok)).toBe(true);
    expect(merged.result.status).toBe('passed');
    const admitted = traces.flat().filter((r) => r.status === 200).length;
    expect(merged.result.rateLimit.classes[0]!.admitted).toBe(admitted);
    expect(merged.result.totals.byStatus['200']).toBe(admitted);
  });

  it('shards on different machines: clocks that disagree by a few ms are tolerated, not read as counters jumping', async () => {
    // A shared limiter; the shards' sends alternate 20 ms apart. Shard 1's clock reads 25 ms late, so
    // placed by their start times, its responses land 25 ms after they happened, past shard 0's next one.
    const dir = mkdtempSync(join(tmpdir(), 'spgate-cross-'));
    const [a, b] = limiterTraces('shared', 2);
    const write = (clocks: [string, string]) =>
      Promise.all([
        writeShard(dir, 0, 2, a!, { originMs: 1_700_000_000_000, clock: clocks[0] }),
        writeShard(dir, 1, 2, b!, { originMs: 1_700_000_000_025, clock: clocks[1] }),
      ]);
    // Said to share one clock, the shards are taken at their word: Remaining seems to jump between counters.
    const oneClock = await mergeShardFiles({ paths: await write(['m1', 'm1']) });
    expect(oneClock.result.rateLimit.violations.map((v) => v.rule)).toContain('8.ratelimit.remaining-rises');
    // On two machines' clocks, each response's interval is widened by the clocks' assumed disagreement.
    const twoClocks = await mergeShardFiles({ paths: await write(['m1', 'm2']) });
    expect(twoClocks.result.rateLimit.violations).toEqual([]);
    expect(twoClocks.result.status).toBe('passed');
    expect(twoClocks.result.config.notes).toContainEqual(expect.stringContaining(`widened by ${CROSS_MACHINE_SKEW_MS} ms each way`));
    expect(oneClock.result.config.notes).not.toContainEqual(expect.stringContaining('widened'));
    // Shards written before they named their clock may be on any machine: widened too.
    expect(mergeSkewMs(['m1', undefined])).toBe(CROSS_MACHINE_SKEW_MS);
    expect(mergeSkewMs(['m1', 'm1', 'm1'])).toBe(0);
  });

  it('shards that started at different times are placed on one clock before the analysis', async () => {
    // A shared limiter; shard 1's clock started 700 ms after shard 0's, so its record times are 700 ms smaller.
    const dir = mkdtempSync(join(tmpdir(), 'spgate-cross-'));
    const [early, late] = limiterTraces('shared', 2, 3, 40, [0, 700]);
    const paths = [
      await writeShard(dir, 0, 2, early!, { originMs: 1_700_000_000_000 }),
      await writeShard(dir, 1, 2, late!, { originMs: 1_700_000_000_700 }),
    ];
    const merged = await mergeShardFiles({ paths });
    expect(merged.result.rateLimit.violations).toEqual([]);
    expect(merged.result.status).toBe('passed');
    // Taken as if both clocks started together, the same records break the limiter's rules.
    const unshifted = analyzeRateLimits(traceToSamples([...early!, ...late!].sort((x, y) => x.t - y.t)), {
      expected: { read: { limit: LIMIT, windowSeconds: 1 } },
    });
    expect(unshifted.violations.length).toBeGreaterThan(0);
  });
});

describe('a limiter that admits too much, seen by shards that each see only part of the traffic', () => {
  let ref: RunningReferenceServer;
  beforeAll(async () => {
    ref = await startReferenceServer({
      port: 0,
      seed: 3,
      budgets: { read: 60, write: 20, windowSeconds: 1 },
      faults: ['ratelimit-over-admit'],
    });
  });
  afterAll(async () => {
    await ref?.close();
  });

  it('the merge runs the analysis over every shard together and reports the over-admission; the run fails', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'spgate-cross-'));
    const target = targetFromInput(ref.target, 'embedded');
    const profile = loadProfile('read-budget');
    const paths = await Promise.all([0, 1].map((i) => runShard(dir, target, profile, i, 2, 2.5)));
    const merged = await mergeShardFiles({ paths });
    expect(merged.result.rateLimit.violations.map((v) => v.rule)).toContain('8.ratelimit.over-admission');
    expect(merged.findings.map((f) => f.clause)).toContain('8.ratelimit.over-admission');
    expect(merged.result.thresholds.find((t) => t.expression === 'ratelimit.violations == 0')!.ok).toBe(false);
    expect(merged.result.status).toBe('failed');
  });
});
