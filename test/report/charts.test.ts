import { describe, expect, it } from 'vitest';
import { chartsForProfile } from '../../src/report/charts/index.js';
import { inversePercentile } from '../../src/report/charts/distribution.js';
import { formatTick, hydrateChart } from '../../src/report/charts/hydrate.js';
import { makeResults } from './fixtures.js';

describe('chart configurations', () => {
  const p = makeResults().load[1]!;
  const charts = chartsForProfile(p, 1);

  it('builds the five charts of a profile with JSON-only configs', () => {
    expect(charts.map((c) => c.id)).toEqual([
      '2-class-isolation-throughput',
      '2-class-isolation-latency-time',
      '2-class-isolation-latency-distribution',
      '2-class-isolation-status-codes',
      '2-class-isolation-ratelimit',
    ]);
    for (const c of charts) expect(JSON.parse(JSON.stringify(c))).toEqual(c);
  });

  it('places percentiles on a 1/(1-p) axis and labels its decades', () => {
    expect(inversePercentile(0)).toBe(1);
    expect(inversePercentile(90)).toBeCloseTo(10);
    expect(inversePercentile(99.9)).toBeCloseTo(1000);
    expect(inversePercentile(100)).toBeNull();
    expect(['0%', '90%', '99%', '99.9%'].map((_, i) => formatTick('inversePercentile', 10 ** i))).toEqual(['0%', '90%', '99%', '99.9%']);
    expect(formatTick('inversePercentile', 20)).toBe('');
    const dist = charts.find((c) => c.id.endsWith('latency-distribution'))!;
    const xs = dist.config.data.datasets.flatMap((d) => (d.data as Array<{ x: number }>).map((pt) => pt.x));
    expect(Math.min(...xs)).toBe(1);
    expect(xs.every(Number.isFinite)).toBe(true);
    expect(dist.config.data.datasets).toHaveLength(p.latency.length);
  });

  it('marks 429 seconds and shades inferred windows per class', () => {
    const rl = charts.find((c) => c.id.endsWith('ratelimit'))!;
    const labels = rl.config.data.datasets.map((d) => d.label);
    expect(labels).toEqual([
      'Remaining (read)',
      '429 (read)',
      'Remaining (write)',
      '429 (write)',
      'inferred windows (read)',
      'inferred windows (read)',
    ]);
    expect(rl.config.data.datasets[5]!.spgateHideInLegend).toBe(true);
    const hydrated = hydrateChart(rl) as {
      options: { plugins: { legend: { labels: { filter: (i: { datasetIndex: number }) => boolean } } } };
    };
    expect([4, 5].map((i) => hydrated.options.plugins.legend.labels.filter({ datasetIndex: i }))).toEqual([true, false]);
    const marks = rl.config.data.datasets[1]!.data as Array<{ x: number }>;
    expect(marks.map((m) => m.x)).toEqual(p.timeline.filter((t) => t.refused.read > 0).map((t) => t.t));
    const band = rl.config.data.datasets[4]!.data as Array<{ x: number; y: number }>;
    // Windows 0 and 2 in one shade, window 1 in the other: each a 1 from its start, 0 from its end.
    expect(band).toEqual([
      { x: 0, y: 1 },
      { x: 10, y: 0 },
      { x: 20, y: 1 },
      { x: 30, y: 0 },
    ]);
    expect(rl.config.data.datasets[5]!.data).toEqual([
      { x: 10, y: 1 },
      { x: 20, y: 0 },
    ]);
  });

  it('hydration attaches tick callbacks without touching the spec', () => {
    const spec = charts[0]!;
    const cfg = hydrateChart(spec) as { options: { scales: { y: { ticks: { callback: (v: number) => string } } } } };
    expect(cfg.options.scales.y.ticks.callback(1200)).toBe('1,200');
    expect((spec.config.options.scales.y as { ticks?: unknown }).ticks).toBeUndefined();
    expect(formatTick('ms', 1500)).toBe('1.5 s');
  });
});
