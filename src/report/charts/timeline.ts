/** Charts over a profile's per-second timeline: throughput, latency percentiles, status codes. */
import type { ProfileResult } from '../../results/schema.js';
import { COLORS, alpha, baseOptions, timeAxis, valueAxis, type ChartDataset, type ChartSpec } from './spec.js';

const line = (label: string, color: string, data: Array<{ x: number; y: number | null }>, extra: Record<string, unknown> = {}): ChartDataset => ({
  label,
  data,
  borderColor: color,
  backgroundColor: alpha(color, 0.15),
  borderWidth: 2,
  pointRadius: 0,
  tension: 0,
  spanGaps: false,
  ...extra,
});

function lastSecond(p: ProfileResult): number {
  return Math.max(Math.ceil(p.durationMs / 1000), ...p.timeline.map((pt) => pt.t));
}

/** Completed and sent requests per second (and dropped, when the open model dropped any). */
export function throughputChart(p: ProfileResult, id: string): ChartSpec {
  const tl = p.timeline;
  const datasets: ChartDataset[] = [
    line('completed/s', COLORS.blue, tl.map((pt) => ({ x: pt.t, y: pt.completed })), { fill: 'origin' }),
    line('sent/s', COLORS.gray, tl.map((pt) => ({ x: pt.t, y: pt.sent })), { borderDash: [5, 4], borderWidth: 1.5 }),
  ];
  if (tl.some((pt) => pt.dropped > 0)) datasets.push(line('dropped/s', COLORS.red, tl.map((pt) => ({ x: pt.t, y: pt.dropped }))));
  return {
    id,
    title: `${p.name}: throughput`,
    caption: 'Requests sent and completed in each second of the run; dropped means the open model could not send on schedule.',
    config: { type: 'line', data: { datasets }, options: baseOptions({ x: timeAxis(lastSecond(p)), y: valueAxis('requests per second') }) },
    ticks: { x: 'seconds', y: 'count' },
  };
}

/** p50, p95 and p99 latency of each second. */
export function latencyOverTimeChart(p: ProfileResult, id: string): ChartSpec {
  const tl = p.timeline;
  const datasets = [
    line('p50', COLORS.green, tl.map((pt) => ({ x: pt.t, y: pt.p50 }))),
    line('p95', COLORS.amber, tl.map((pt) => ({ x: pt.t, y: pt.p95 }))),
    line('p99', COLORS.red, tl.map((pt) => ({ x: pt.t, y: pt.p99 }))),
  ];
  return {
    id,
    title: `${p.name}: latency percentiles over time`,
    caption: 'Latency percentiles of the responses completed in each second (gaps: no responses that second).',
    config: { type: 'line', data: { datasets }, options: baseOptions({ x: timeAxis(lastSecond(p)), y: valueAxis('latency') }) },
    ticks: { x: 'seconds', y: 'ms' },
  };
}

const FAMILY_COLORS: Record<string, string> = { '2xx': COLORS.green, '429': COLORS.orange, other: COLORS.red };

/** Responses per second stacked by status family (2xx, 429, other). */
export function statusCodesChart(p: ProfileResult, id: string): ChartSpec {
  const families = [...new Set(p.timeline.flatMap((pt) => Object.keys(pt.byFamily)))].sort((a, b) => rank(a) - rank(b) || a.localeCompare(b));
  const datasets: ChartDataset[] = families.map((fam) => ({
    label: fam,
    data: p.timeline.map((pt) => pt.byFamily[fam] ?? 0),
    backgroundColor: FAMILY_COLORS[fam] ?? COLORS.purple,
    borderWidth: 0,
    stack: 'status',
  }));
  const options = baseOptions({
    x: { type: 'category', stacked: true, title: { display: true, text: 'seconds since start' }, grid: { display: false } },
    y: valueAxis('responses per second', { stacked: true }),
  });
  return {
    id,
    title: `${p.name}: status codes over time`,
    caption: 'Responses per second by status family; 429 is the rate limiter refusing.',
    config: { type: 'bar', data: { labels: p.timeline.map((pt) => String(pt.t)), datasets }, options },
    ticks: { y: 'count' },
  };
}

function rank(family: string): number {
  return family === '2xx' ? 0 : family === '429' ? 1 : family === 'other' ? 3 : 2;
}
