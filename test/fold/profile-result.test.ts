/**
 * The one ProfileResult assembler (src/fold/profile-result.ts), which a live run and a merge both end
 * through: the status rule (aborted, then error, then a breached threshold or an error finding), totals
 * from the tally, thresholds judged on the context of the run's own figures, and capacity marked a lower
 * bound when the generator was saturated.
 */
import { describe, expect, it } from 'vitest';
import { profileResult, type ProfileParts } from '../../src/fold/profile-result.js';
import { StatusTally } from '../../src/fold/tally.js';
import { judgeGenerator, type GeneratorFigures } from '../../src/fold/generator-verdict.js';
import { evaluateThreshold, parseThreshold } from '../../src/fold/threshold.js';
import { newHistogram } from '../../src/fold/hdr.js';
import type { FindingRecord } from '../../src/results/schema.js';
import type { TimelineRow } from '../../src/fold/timeline.js';

function row(t: number, ok: number, p95: number): TimelineRow {
  return {
    t,
    sent: ok,
    completed: ok,
    dropped: 0,
    byFamily: { '2xx': ok },
    p50: p95 / 2,
    p95,
    p99: p95,
    rateLimit: {},
    refused: { read: 0, write: 0 },
    errors: 0,
  };
}

function parts(over: Partial<ProfileParts> = {}, thresholds: string[] = []): ProfileParts {
  const tally = new StatusTally();
  for (let i = 0; i < 8; i++) tally.add('read', 200);
  tally.add('read', 429);
  tally.add('write', 500);
  const parsed = thresholds.map((e) => {
    const p = parseThreshold(e);
    if (!p.ok) throw new Error(p.error);
    return p.threshold;
  });
  return {
    head: { name: 'p', description: 'd', model: 'closed', config: {} },
    startedAt: '2026-01-01T00:00:00.000Z',
    durationMs: 2000.4,
    tally,
    counts: { sent: 11, dropped: 1, errors: 1 },
    figures: { histogram: () => newHistogram(), sent: () => 11, dropped: () => 1 },
    latency: [],
    points: [row(0, 4, 10), row(1, 4, 10)],
    analysis: { classes: [], violations: [] },
    rateLimitSeries: { bucketMs: 1000, read: [], write: [] },
    findings: [],
    thresholds: (ctx) => parsed.map((t) => evaluateThreshold(t, ctx)),
    aborted: false,
    ...over,
  };
}

const errorFinding = { severity: 'error', clause: '8.ratelimit.over-admission' } as FindingRecord;
const warningFinding = { severity: 'warning', clause: '8.ratelimit.reset-window' } as FindingRecord;

describe('profileResult', () => {
  it('totals come from the tally and the counts; throughput and the timeline from the rows', () => {
    const { result } = profileResult(parts());
    expect(result.totals).toEqual({
      sent: 11,
      completed: 10,
      dropped: 1,
      errors: 1,
      byStatus: { 200: 8, 429: 1, 500: 1 },
      byClass: { read: 9, write: 1 },
    });
    expect(result.durationMs).toBe(2000);
    expect(result.throughput).toEqual({ meanRps: 4, peakRps: 4 });
    expect(result.timeline[0]).not.toHaveProperty('errors');
    expect(result.status).toBe('passed');
  });

  it('judges the status: aborted beats an error, an error beats a failure, a warning fails nothing', () => {
    expect(profileResult(parts({}, ['completed == 10'])).result.status).toBe('passed');
    expect(profileResult(parts({}, ['completed > 10'])).result.status).toBe('failed');
    expect(profileResult(parts({ findings: [errorFinding] })).result.status).toBe('failed');
    expect(profileResult(parts({ findings: [warningFinding] })).result.status).toBe('passed');
    const errored = profileResult(parts({ error: 'shard 1/2: boom', findings: [errorFinding] })).result;
    expect([errored.status, errored.error]).toEqual(['error', 'shard 1/2: boom']);
    expect(profileResult(parts({ error: 'x', aborted: true })).result.status).toBe('aborted');
  });

  it("evaluates thresholds on the run's own figures, findings included", () => {
    const { result } = profileResult(parts({ findings: [warningFinding] }, ['ratelimit.violations == 0', '429 == 1']));
    expect(result.thresholds.map((t) => [t.ok, t.actual])).toEqual([
      [false, '1'],
      [true, '1'],
    ]);
    expect(result.status).toBe('failed');
  });

  it('a capacity found with a saturated generator is a lower bound; with one that kept up, it is not', () => {
    const figures: GeneratorFigures = {
      processes: 1,
      wallMs: 2000,
      cpuMs: 1000,
      cpuShare: 0.5,
      eventLoopDelayP99Ms: 1,
      eventLoopDelayMaxMs: 2,
      sends: 0,
      slipP50Ms: null,
      slipP99Ms: null,
      slipMaxMs: null,
      offered: 8,
      dropped: 0,
    };
    const capacity = { p95Ms: 50, maxErrorPct: 5 };
    const calm = profileResult(parts({ capacity, generator: judgeGenerator(figures) })).result;
    expect(calm.capacity?.lowerBound).toBeFalsy();
    const busy = profileResult(parts({ capacity, generator: judgeGenerator({ ...figures, cpuShare: 0.99 }) })).result;
    expect(busy.capacity?.lowerBound).toBe(true);
    expect(busy.generator?.saturated).toBe(true);
  });

  it('a merge names its shards before the status, as the results always showed it', () => {
    const { result } = profileResult(parts({ merged: { count: 2, shards: [0, 1], missing: [] } }));
    expect(Object.keys(result).slice(-2)).toEqual(['merged', 'status']);
  });
});
