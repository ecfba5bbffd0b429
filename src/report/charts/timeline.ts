/** Charts over a profile's per-second timeline: throughput, latency percentiles, status codes. */
import type { ProfileResult } from '../../results/schema.js';
import { answeredIn, coverageOf } from '../../fold/throughput.js';
import { COLORS, alpha, baseOptions, timeAxis, valueAxis, type ChartDataset, type ChartSpec } from './spec.js';

const line = (
  label: string,
  color: string,
  data: Array<{ x: number; y: number | null }>,
  extra: Record<string, unknown> = {},
): ChartDataset => ({
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

/**
 * Answered (non-429) and sent requests per second, 429 refusals as their own line (and dropped, when the
 * open model dropped any). The run's trailing partial second is scaled to a per-second rate when it covers
 * at least half a second and left out when less: drawn raw it would read as a collapse of the target.
 */
export function throughputChart(p: ProfileResult, id: string): ChartSpec {
  const seconds = p.durationMs / 1000;
  const tl = p.timeline.filter((pt) => coverageOf(pt.t, seconds) >= 0.5);
  const rate = (pt: ProfileResult['timeline'][number], n: number): { x: number; y: number } => ({
    x: pt.t,
    y: Math.round(n / coverageOf(pt.t, seconds)),
  });
  const datasets: ChartDataset[] = [
    line(
      'answered/s (not 429)',
      COLORS.blue,
      tl.map((pt) => rate(pt, answeredIn(pt))),
      { fill: 'origin' },
    ),
    line(
      'sent/s',
      COLORS.gray,
      tl.map((pt) => rate(pt, pt.sent)),
      { borderDash: [5, 4], borderWidth: 1.5 },
    ),
  ];
  if (tl.some((pt) => (pt.byFamily['429'] ?? 0) > 0))
    datasets.push(
      line(
        'refused/s (429)',
        COLORS.orange,
        tl.map((pt) => rate(pt, pt.byFamily['429'] ?? 0)),
      ),
    );
  if (tl.some((pt) => pt.dropped > 0))
    datasets.push(
      line(
        'dropped/s',
        COLORS.red,
        tl.map((pt) => rate(pt, pt.dropped)),
      ),
    );
  return {
    id,
    title: `${p.name}: throughput`,
    caption:
      'Answered requests (429 refusals apart: they are the rate limiter, not throughput) and sent requests in each second; dropped means the open model could not send on schedule. The last, partial second is scaled to a rate (left out when under half a second).',
    config: { type: 'line', data: { datasets }, options: baseOptions({ x: timeAxis(lastSecond(p)), y: valueAxis('requests per second') }) },
    ticks: { x: 'seconds', y: 'count' },
  };
}

/** p50, p95 and p99 latency of each second. */
export function latencyOverTimeChart(p: ProfileResult, id: string): ChartSpec {
  const tl = p.timeline;
  const datasets = [
    line(
      'p50',
      COLORS.green,
      tl.map((pt) => ({ x: pt.t, y: pt.p50 })),
    ),
    line(
      'p95',
      COLORS.amber,
      tl.map((pt) => ({ x: pt.t, y: pt.p95 })),
    ),
    line(
      'p99',
      COLORS.red,
      tl.map((pt) => ({ x: pt.t, y: pt.p99 })),
    ),
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
  const families = [...new Set(p.timeline.flatMap((pt) => Object.keys(pt.byFamily)))].sort(
    (a, b) => rank(a) - rank(b) || a.localeCompare(b),
  );
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
