import { describe, expect, it } from 'vitest';
import * as hdr from 'hdr-histogram-js';
import { compareResults, findingKey, pctChange } from '../../src/results/compare.js';
import { decodeHistogram, quantileRanks, rateInterval, samplesToBound } from '../../src/results/compare-stats.js';
import { summarize } from '../../src/fold/hdr.js';
import { comparisonText } from '../../src/report/compare-text.js';
import type { LatencySummary, ProfileResult, Results } from '../../src/results/schema.js';
import { makeResults } from '../report/fixtures.js';

const clone = (r: Results): Results => structuredClone(r);

/** The summary with every recorded latency multiplied by `factor` (optionally only the first `keep` samples). */
function scaled(s: LatencySummary, factor: number, keep = Infinity): LatencySummary {
  const from = decodeHistogram(s.hdr);
  const to = hdr.build({
    lowestDiscernibleValue: 1,
    highestTrackableValue: 60_000_000,
    numberOfSignificantValueDigits: 3,
    autoResize: true,
    useWebAssembly: false,
  });
  const n = from.totalCount;
  for (let r = 1; r <= Math.min(n, keep); r++) to.recordValue(Math.max(1, Math.round(from.getValueAtPercentile((100 * r) / n) * factor)));
  return summarize(to, s.class, s.family, s.corrected);
}

const generator = {
  processes: 1,
  wallMs: 30_000,
  cpuMs: 3000,
  cpuShare: 0.1,
  eventLoopDelayP99Ms: 0,
  eventLoopDelayMaxMs: 0,
  sends: 1,
  slipP50Ms: null,
  slipP99Ms: null,
  slipMaxMs: null,
  offered: 1,
  dropped: 0,
  saturated: false,
  reason: null,
  remedy: null,
} satisfies NonNullable<ProfileResult['generator']>;

describe('compareResults', () => {
  const base = makeResults();

  it('finds nothing when a run is compared with itself', () => {
    const c = compareResults(base, clone(base));
    expect(c.newFindings).toEqual([]);
    expect(c.fixedFindings).toEqual([]);
    expect(c.regressions).toEqual([]);
    expect(c.profiles.every((p) => p.status === 'compared' && p.latency.every((l) => l.changePct === 0))).toBe(true);
  });

  it('keys findings by check, clause and source: new errors regress, fixed ones are listed, message changes are ignored', () => {
    const head = clone(base);
    const gone = head.findings.shift()!;
    head.findings.forEach((f) => (f.actual = `${f.actual} (request req_other)`));
    head.findings.push({ ...head.findings[0]!, checkId: 'brand.new', source: 'auth' });
    head.findings.push({ ...head.findings[0]!, checkId: 'brand.warning', severity: 'warning' });
    const c = compareResults(base, head);
    expect(c.fixedFindings.map((f) => f.key)).toEqual(
      base.findings.filter((f) => findingKey(f) === findingKey(gone)).length === 1 ? [findingKey(gone)] : [],
    );
    expect(c.newFindings.map((f) => f.finding.checkId).sort()).toEqual(['brand.new', 'brand.warning']);
    // A new warning is reported but does not fail the gate.
    expect(c.regressions).toHaveLength(1);
    expect(c.regressions[0]).toMatch(/^new finding .* brand\.new \(auth\)/);
  });

  it('a check judged in base and inconclusive in head is a regression: its findings vanished unfixed', () => {
    const head = clone(base);
    const judged = head.checks.find((c) => c.status === 'failed' || c.status === 'passed')!;
    const was = judged.status;
    Object.assign(judged, { status: 'inconclusive', reason: 'the pool conversation was already resolved' });
    const c = compareResults(base, head);
    expect(c.unjudged).toEqual([
      { checkId: judged.checkId, suite: judged.suite, base: was, reason: 'the pool conversation was already resolved' },
    ]);
    expect(c.regressions).toContain(
      `${judged.checkId} (${judged.suite}) was ${was} in base and could not judge in head: the pool conversation was already resolved`,
    );
    expect(comparisonText(c)).toContain(`? [${was} → inconclusive] ${judged.checkId}`);
    // Inconclusive in both runs, or newly judged, is no regression.
    expect(compareResults(head, clone(head)).unjudged).toEqual([]);
    expect(compareResults(head, base).unjudged).toEqual([]);
  });

  it('flags a p99 rise and a throughput fall only when the intervals and the floor support them', () => {
    const head = clone(base);
    const p = head.load[0]!;
    const ok2xx = p.latency.find((s) => s.family === '2xx')!;
    const r429 = p.latency.find((s) => s.family === '429')!;
    Object.assign(ok2xx, scaled(ok2xx, 3));
    Object.assign(r429, scaled(r429, 3)); // 429 latency never gates
    p.totals.byStatus['200'] = Math.round(p.totals.byStatus['200']! * 0.4);
    head.load[1]!.totals.byStatus['200'] = Math.round(head.load[1]!.totals.byStatus['200']! * 0.97);
    const c = compareResults(base, head);
    expect(c.regressions.filter((r) => r.includes('p99 of read 2xx'))).toHaveLength(1);
    expect(
      c.regressions.filter((r) => r.includes('throughput')),
      JSON.stringify(c.profiles[0]!.throughput),
    ).toHaveLength(1);
    expect(c.regressions.some((r) => r.includes('429'))).toBe(false);
    const d = c.profiles[0]!.latency.find((l) => l.series === 'read 2xx' && l.percentile === 'p99')!;
    expect(d.verdict).toBe('regression');
    expect(d.head.lower!).toBeGreaterThan(d.base.upper! * 1.2);
    expect(c.profiles[0]!.throughput!.verdict).toBe('regression');
    expect(c.profiles[1]!.throughput!.verdict).toBe('no-change');
    const lenient = compareResults(base, head, { p50RegressionPct: 300, p99RegressionPct: 80, throughputRegressionPct: 70 });
    expect(lenient.regressions).toEqual([]);
    // The absolute floor: a rise the intervals support but smaller than --min-delta-ms is no regression.
    const floored = compareResults(base, head, { minDeltaMs: 10_000, minDeltaRps: 10_000 });
    expect(floored.regressions).toEqual([]);
    expect(comparisonText(c)).toMatch(/p99 read 2xx: [\d.]+ \[[\d.]+–[\d.]+\] → [\d.]+ \[[\d.]+–[\d.]+\] ms \(\+[\d.]+ %\)  REGRESSION/);
  });

  it('a figure with too few samples is "not enough data": named, neither a regression nor a pass', () => {
    const head = clone(base);
    const ok2xx = head.load[0]!.latency.find((s) => s.family === '2xx')!;
    Object.assign(ok2xx, scaled(ok2xx, 5, 80)); // the case: a p99 five times higher from 80 answers
    const c = compareResults(base, head);
    const d = c.profiles[0]!.latency.find((l) => l.series === 'read 2xx' && l.percentile === 'p99')!;
    expect(d.verdict).toBe('not-enough-data');
    expect(d.reason).toBe('80 responses in the head run; 578 are needed to bound it (--min-samples 100)');
    expect(c.regressions.filter((r) => r.includes('p99'))).toEqual([]);
    expect(c.notEnoughData).toContain(`read-budget: p99 of read 2xx: ${d.reason}`);
    expect(comparisonText(c)).toContain('not judged (not enough data; neither a pass nor a regression)');
    // --min-samples above both runs' counts makes every figure unjudged.
    const strict = compareResults(base, clone(base), { minSamples: 1_000_000 });
    expect(strict.profiles.every((p) => p.latency.every((l) => l.verdict === 'not-enough-data'))).toBe(true);
  });

  it('a short head run that bounds only the near side of its p99 still shows a rise, its far side printed as unbounded', () => {
    const head = clone(base);
    const ok2xx = head.load[0]!.latency.find((s) => s.family === '2xx')!;
    // 300 answers spread over the base's distribution, each five times slower: a p99 lower bound, no upper one
    const from = decodeHistogram(ok2xx.hdr);
    const to = hdr.build({ lowestDiscernibleValue: 1, highestTrackableValue: 60_000_000, numberOfSignificantValueDigits: 3 });
    for (let k = 1; k <= 300; k++) to.recordValue(Math.round(from.getValueAtPercentile((100 * k) / 300) * 5));
    Object.assign(ok2xx, summarize(to, ok2xx.class, ok2xx.family, ok2xx.corrected));
    const c = compareResults(base, head);
    const d = c.profiles[0]!.latency.find((l) => l.series === 'read 2xx' && l.percentile === 'p99')!;
    expect({ verdict: d.verdict, upper: d.head.upper }).toEqual({ verdict: 'regression', upper: null });
    expect(c.regressions.find((r) => r.includes('p99 of read 2xx'))).toMatch(/→ [\d.]+ \[[\d.]+–\?\] ms/);
  });

  it("a change inside the generator's own event-loop delay is the machine, not the server", () => {
    const head = clone(base);
    const p = head.load[0]!;
    const ok2xx = p.latency.find((s) => s.family === '2xx')!;
    Object.assign(ok2xx, scaled(ok2xx, 3));
    const rise = ok2xx.p99 - base.load[0]!.latency.find((s) => s.family === '2xx')!.p99;
    p.generator = { ...generator, eventLoopDelayP99Ms: rise + 1 };
    expect(compareResults(base, head).regressions.filter((r) => r.includes('p99'))).toEqual([]);
    p.generator = { ...generator, eventLoopDelayP99Ms: rise / 2 };
    expect(compareResults(base, head).regressions.filter((r) => r.includes('p99'))).toHaveLength(1);
  });

  it('a base whose own event loop stalled hides no rise: its delay only makes the base read high', () => {
    // CI: a clean base whose loop stalled once (p99 331 ms) against a slow-tail head (loop 20 ms), 4.7 → 202 ms.
    const stalled = clone(base);
    const head = clone(base);
    const ok2xx = head.load[0]!.latency.find((s) => s.family === '2xx')!;
    Object.assign(ok2xx, scaled(ok2xx, 3));
    const rise = ok2xx.p99 - base.load[0]!.latency.find((s) => s.family === '2xx')!.p99;
    stalled.load[0]!.generator = { ...generator, eventLoopDelayP99Ms: rise * 10 };
    head.load[0]!.generator = { ...generator, eventLoopDelayP99Ms: rise / 2 };
    const p99 = (c: ReturnType<typeof compareResults>) =>
      c.profiles[0]!.latency.find((l) => l.series === 'read 2xx' && l.percentile === 'p99');
    const up = compareResults(stalled, head);
    expect(up.regressions.filter((r) => r.includes('p99'))).toHaveLength(1);
    // The floor it states is the head's delay, not the base's.
    expect(up.regressions.find((r) => r.includes('p99'))).toContain(`change above the ${Math.floor(rise / 2)}.`);
    // The other way round the stalled run is the head: the same change is no regression (nor an improvement
    // of the base it now is: read high by up to its delay, it shows no real fall either).
    expect(compareResults(head, stalled).regressions.filter((r) => r.includes('p99'))).toEqual([]);
    const down = compareResults(head, stalled);
    expect(p99(down)?.verdict).toBe('improvement');
    const stalledHead = clone(head);
    stalledHead.load[0]!.generator = { ...generator, eventLoopDelayP99Ms: rise * 10 };
    expect(p99(compareResults(stalledHead, base))?.verdict).toBe('no-change');
  });

  it('refuses runs of different profiles and warns in one line about a different duration, target or engine', () => {
    const other = clone(base);
    other.load = other.load.map((p) => ({ ...p, name: `${p.name}-x` }));
    expect(compareResults(base, other).refused).toMatch(/^the runs share no load profile/);
    const mix = clone(base);
    (mix.load[0]!.config as { classes: Array<{ routes: Array<{ route: string }> }> }).classes = [
      { class: 'read', routes: [{ route: 'me' }] },
    ] as never;
    expect(compareResults(base, mix).refused).toMatch(/^profile read-budget differs between the runs/);
    const longer = clone(base);
    longer.load[0]!.config['durationSeconds'] = 60;
    longer.meta.target = { name: 'staging', baseUrl: 'https://staging.example/v1', embedded: false };
    const c = compareResults(base, longer);
    expect(c.refused).toBeUndefined();
    expect(c.warning).toMatch(/^the runs differ: target .* vs staging \(https:\/\/staging\.example\/v1\); read-budget duration/);
    expect(
      comparisonText(c)
        .split('\n')
        .filter((l) => l.startsWith('warning:')),
    ).toHaveLength(1);
    expect(compareResults(base, clone(base)).warning).toBeUndefined();
  });

  it('reports rate-limit changes, more violations and newly breached thresholds', () => {
    const head = clone(base);
    const p = head.load[1]!;
    p.rateLimit.classes[0]!.observedLimit = 60;
    p.rateLimit.classes[0]!.windowSeconds = 5;
    p.rateLimit.violations.push({ rule: '8.ratelimit.over-admission', message: 'x', samples: [] });
    p.thresholds[0]!.ok = false;
    const c = compareResults(base, head);
    const d = c.profiles.find((x) => x.name === p.name)!;
    expect(d.rateLimit).toEqual([
      { class: 'read', field: 'observedLimit', base: 50, head: 60 },
      { class: 'read', field: 'windowSeconds', base: 10, head: 5 },
    ]);
    expect(d.violations).toEqual({ base: 0, head: 1, regression: true });
    expect(d.thresholds!.newlyBreached).toEqual([p.thresholds[0]!.expression]);
    expect(c.regressions).toHaveLength(2);
    expect(comparisonText(c)).toContain('rate limit read observedLimit: 50 → 60');
  });

  it('lists profiles present on one side only and fails an aborted head', () => {
    const head = clone(base);
    head.load = [head.load[0]!, { ...head.load[1]!, name: 'soak' }];
    head.meta.aborted = true;
    head.verdict = 'aborted';
    const c = compareResults(base, head);
    expect(c.profiles.map((p) => `${p.name}:${p.status}`)).toEqual([
      'read-budget:compared',
      'soak:only-in-head',
      'class-isolation:only-in-base',
    ]);
    expect(c.regressions[0]).toMatch(/did not complete/);
  });

  it('bounds a percentile by order statistics and needs 578 samples for a p99', () => {
    expect(samplesToBound(0.99)).toBe(578);
    expect(quantileRanks(1000, 0.99)).toEqual({ lo: 983, hi: 998 });
    const i = rateInterval(400, 4);
    expect(i.value).toBe(100);
    expect(i.lower!).toBeCloseTo(90.2, 1);
    expect(i.upper!).toBeCloseTo(109.8, 1);
  });

  it('computes percentage changes without dividing by zero', () => {
    expect(pctChange(0, 0)).toBe(0);
    expect(pctChange(0, 5)).toBeNull();
    expect(pctChange(200, 150)).toBe(-25);
  });
});
