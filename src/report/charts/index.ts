/** Every chart of a results document, in page order. */
import type { ProfileResult, Results } from '../../results/schema.js';
import { slug } from '../format.js';
import { latencyDistributionChart } from './distribution.js';
import { hasRateLimitData, rateLimitChart } from './ratelimit.js';
import type { ChartSpec } from './spec.js';
import { latencyOverTimeChart, statusCodesChart, throughputChart } from './timeline.js';

export type { ChartSpec } from './spec.js';

/** The charts of one profile; `index` keeps ids unique when two profiles share a name. */
export function chartsForProfile(p: ProfileResult, index: number): ChartSpec[] {
  const stem = `${index + 1}-${slug(p.name)}`;
  const charts: ChartSpec[] = [];
  if (p.timeline.length > 0) {
    charts.push(throughputChart(p, `${stem}-throughput`));
    charts.push(latencyOverTimeChart(p, `${stem}-latency-time`));
  }
  if (p.latency.some((s) => s.count > 0 && s.curve.length > 0)) charts.push(latencyDistributionChart(p, `${stem}-latency-distribution`));
  if (p.timeline.length > 0) charts.push(statusCodesChart(p, `${stem}-status-codes`));
  if (hasRateLimitData(p)) charts.push(rateLimitChart(p, `${stem}-ratelimit`));
  return charts;
}

/** All charts of a run, grouped by profile index. */
export function chartsForResults(r: Results): ChartSpec[][] {
  return r.load.map((p, i) => chartsForProfile(p, i));
}
