/** The HDR latency distribution: latency against percentile on a log axis of 1/(1-p), as HdrHistogram plots it. */
import type { LatencySummary, ProfileResult } from '../../results/schema.js';
import { COLORS, baseOptions, valueAxis, type ChartDataset, type ChartSpec } from './spec.js';

const SERIES_COLORS: Record<string, string> = {
  'read 2xx': COLORS.blue,
  'read 429': COLORS.orange,
  'read other': COLORS.red,
  'write 2xx': COLORS.purple,
  'write 429': COLORS.amber,
  'write other': COLORS.gray,
};

/** x position of a percentile (0..100) on the distribution axis: 1/(1-p); 100 has no finite position. */
export function inversePercentile(p: number): number | null {
  if (!(p >= 0) || p >= 100) return null;
  return 1 / (1 - p / 100);
}

/** A label for one latency series: class, status family, and whether it is coordinated-omission corrected. */
export function seriesLabel(s: Pick<LatencySummary, 'class' | 'family' | 'corrected'>): string {
  return `${s.class} ${s.family}${s.corrected ? '' : ' (uncorrected)'}`;
}

/** One line per latency summary with at least one finite curve point. */
export function latencyDistributionChart(p: ProfileResult, id: string): ChartSpec {
  const datasets: ChartDataset[] = [];
  let maxX = 10;
  // Corrected series solid, uncorrected dashed in the same colour: the gap between them is coordinated omission.
  p.latency
    .filter((s) => s.count > 0)
    .forEach((s) => {
      const data = s.curve
        .map(([pct, ms]) => ({ x: inversePercentile(pct), y: ms }))
        .filter((pt): pt is { x: number; y: number } => pt.x !== null && Number.isFinite(pt.y));
      if (data.length === 0) return;
      maxX = Math.max(maxX, ...data.map((d) => d.x));
      const color = SERIES_COLORS[`${s.class} ${s.family}`] ?? COLORS.teal;
      datasets.push({
        label: seriesLabel(s),
        data,
        borderColor: color,
        backgroundColor: color,
        borderWidth: s.corrected ? 2 : 1.5,
        pointRadius: s.corrected ? 1.5 : 0,
        tension: 0,
        ...(s.corrected ? {} : { borderDash: [5, 4] }),
      });
    });
  const xMax = Math.pow(10, Math.ceil(Math.log10(maxX)));
  const options = baseOptions({
    x: {
      type: 'logarithmic',
      min: 1,
      max: xMax,
      title: { display: true, text: 'percentile' },
      grid: { color: '#eef0f3' },
      ticks: { maxRotation: 0 },
    },
    y: valueAxis('latency'),
  });
  return {
    id,
    title: `${p.name}: latency distribution`,
    caption: 'Latency at each percentile (HDR histogram); the x axis stretches the tail: 90 %, 99 %, 99.9 % are equally spaced.',
    config: { type: 'line', data: { datasets }, options },
    ticks: { x: 'inversePercentile', y: 'ms' },
    tooltipX: 'inversePercentile',
  };
}
