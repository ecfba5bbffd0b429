import { describe, expect, it } from 'vitest';
import { compareResults, findingKey, pctChange } from '../../src/results/compare.js';
import { comparisonText } from '../../src/report/compare-text.js';
import type { Results } from '../../src/results/schema.js';
import { makeResults } from '../report/fixtures.js';

const clone = (r: Results): Results => structuredClone(r);

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
    expect(c.fixedFindings.map((f) => f.key)).toEqual(base.findings.filter((f) => findingKey(f) === findingKey(gone)).length === 1 ? [findingKey(gone)] : []);
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
    expect(c.unjudged).toEqual([{ checkId: judged.checkId, suite: judged.suite, base: was, reason: 'the pool conversation was already resolved' }]);
    expect(c.regressions).toContain(`${judged.checkId} (${judged.suite}) was ${was} in base and could not judge in head: the pool conversation was already resolved`);
    expect(comparisonText(c)).toContain(`? [${was} → inconclusive] ${judged.checkId}`);
    // Inconclusive in both runs, or newly judged, is no regression.
    expect(compareResults(head, clone(head)).unjudged).toEqual([]);
    expect(compareResults(head, base).unjudged).toEqual([]);
  });

  it('flags p99 increases and throughput drops beyond the thresholds, and only those', () => {
    const head = clone(base);
    const p = head.load[0]!;
    const ok2xx = p.latency.find((s) => s.family === '2xx')!;
    const r429 = p.latency.find((s) => s.family === '429')!;
    ok2xx.p99 = base.load[0]!.latency.find((s) => s.family === '2xx')!.p99 * 1.25;
    r429.p99 *= 3; // 429 latency never gates
    p.throughput.meanRps = base.load[0]!.throughput.meanRps * 0.85;
    head.load[1]!.throughput.meanRps = base.load[1]!.throughput.meanRps * 0.95;
    const c = compareResults(base, head);
    expect(c.regressions.filter((r) => r.includes('p99'))).toHaveLength(1);
    expect(c.regressions.filter((r) => r.includes('throughput'))).toHaveLength(1);
    expect(c.profiles[0]!.latency.find((l) => l.series === 'read 2xx')!.changePct).toBeCloseTo(25);
    const lenient = compareResults(base, head, { p99RegressionPct: 30, throughputRegressionPct: 20 });
    expect(lenient.regressions).toEqual([]);
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
    expect(c.profiles.map((p) => `${p.name}:${p.status}`)).toEqual(['read-budget:compared', 'soak:only-in-head', 'class-isolation:only-in-base']);
    expect(c.regressions[0]).toMatch(/did not complete/);
  });

  it('computes percentage changes without dividing by zero', () => {
    expect(pctChange(0, 0)).toBe(0);
    expect(pctChange(0, 5)).toBeNull();
    expect(pctChange(200, 150)).toBe(-25);
  });
});
