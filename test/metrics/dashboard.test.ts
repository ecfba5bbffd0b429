/**
 * examples/grafana-dashboard.json is valid JSON whose every query names only metrics and labels the
 * exporter writes (taken from its own name table, src/metrics/names.ts), shows every metric the exporter
 * writes, and has a panel for each figure issue 25 asks for. (Its queries run against a real Prometheus in
 * prometheus.test.ts.)
 */
import { describe, expect, it } from 'vitest';
import { METRICS, promLabelNames, promSeriesNames } from '../../src/metrics/names.js';
import { namesIn, panelQueries, readDashboard, variableQueries } from './dashboard-queries.js';

describe('examples/grafana-dashboard.json', () => {
  const d = readDashboard();
  const queries = [...panelQueries(d).map((q) => q.expr), ...variableQueries(d)];

  it('has queries, each naming only metrics and labels the exporter writes', () => {
    expect(queries.length).toBeGreaterThan(10);
    const series = new Set(promSeriesNames());
    const labels = new Set(promLabelNames());
    for (const q of queries) {
      const used = namesIn(q);
      expect(used.metrics.length, q).toBeGreaterThan(0);
      for (const m of used.metrics) expect(series, `${m} in ${q}`).toContain(m);
      for (const l of used.labels) expect(labels, `${l} in ${q}`).toContain(l);
    }
  });

  it('shows every metric the exporter writes', () => {
    const used = new Set(queries.flatMap((q) => namesIn(q).metrics));
    for (const m of Object.values(METRICS)) {
      const names = m.kind === 'histogram' ? [`${m.prom}_bucket`, `${m.prom}_count`] : [m.prom];
      for (const n of names) expect(used, n).toContain(n);
    }
  });

  it('filters every panel by run id, profile and shard, and computes percentiles from buckets only', () => {
    for (const { title, expr } of panelQueries(d)) {
      for (const v of ['spgate_run_id=~"$run_id"', 'spgate_profile=~"$profile"', 'spgate_shard=~"$shard"'])
        expect(expr, title).toContain(v);
      if (/quantile/.test(expr)) expect(expr, title).toMatch(/^histogram_quantile\(0\.\d+, sum by \(le[,)]/);
    }
    const titles = panelQueries(d)
      .map((q) => q.title.toLowerCase())
      .join('\n');
    for (const want of ['requests / s', 'p95', '429', 'dropped', 'remaining', 'violations', 'lag']) expect(titles).toContain(want);
  });

  it('the reader finds what a query names (and would catch a name the exporter does not write)', () => {
    expect(
      namesIn(
        'sum by (spgate_route_class, le) (rate(http_client_request_durations_bucket{spgate_run_id=~"$run_id", x="a,b"}[$__rate_interval]))',
      ),
    ).toEqual({
      metrics: ['http_client_request_durations_bucket'],
      labels: ['spgate_run_id', 'x', 'spgate_route_class', 'le'],
      functions: ['sum', 'rate'],
    });
    expect(new Set(promSeriesNames())).not.toContain('http_client_request_durations_bucket');
  });
});
