/**
 * RateLimit-Remaining per route class over time, with 429s marked and the analyzer's inferred windows
 * shaded (alternate windows filled, so every boundary is visible).
 */
import type { ProfileResult, RouteClass } from '../../results/schema.js';
import { COLORS, alpha, baseOptions, timeAxis, valueAxis, type ChartDataset, type ChartSpec } from './spec.js';
import { ROUTE_CLASSES } from '../../spec/routes.js';

const CLASS_COLORS: Record<RouteClass, string> = { read: COLORS.blue, write: COLORS.purple };

/** True when the timeline carries RateLimit-Remaining for some class (else the chart has nothing to show). */
export function hasRateLimitData(p: ProfileResult): boolean {
  const series = p.rateLimitSeries;
  if (series && (series.read.some((b) => b[2] !== null) || series.write.some((b) => b[2] !== null))) return true;
  return p.timeline.some((pt) => pt.rateLimit.read?.remaining != null || pt.rateLimit.write?.remaining != null);
}

/** Datasets from the fine-grained series: the highest and lowest Remaining per bucket (band between) and 429s. */
function seriesDatasets(series: NonNullable<ProfileResult['rateLimitSeries']>, cls: RouteClass): ChartDataset[] {
  const buckets = series[cls];
  if (!buckets.some((b) => b[2] !== null)) return [];
  const color = CLASS_COLORS[cls];
  const out: ChartDataset[] = [
    {
      label: `Remaining (${cls}, highest)`,
      data: buckets.map((b) => ({ x: b[0] / 1000, y: b[2] })),
      borderColor: color,
      backgroundColor: color,
      borderWidth: 2,
      pointRadius: 0,
      stepped: 'after',
      spanGaps: false,
      yAxisID: 'y',
    },
    {
      label: `Remaining (${cls}, lowest)`,
      data: buckets.map((b) => ({ x: b[0] / 1000, y: b[1] })),
      borderColor: alpha(color, 0.5),
      backgroundColor: alpha(color, 0.15),
      borderWidth: 1,
      pointRadius: 0,
      stepped: 'after',
      spanGaps: false,
      fill: '-1',
      yAxisID: 'y',
    },
  ];
  const refused = buckets.filter((b) => b[3] > 0).map((b) => ({ x: b[0] / 1000, y: 0 }));
  if (refused.length > 0) {
    out.push({
      label: `429 (${cls})`,
      data: refused,
      showLine: false,
      pointStyle: 'crossRot',
      pointRadius: 4,
      pointBorderWidth: 2,
      borderColor: cls === 'read' ? COLORS.red : COLORS.orange,
      backgroundColor: COLORS.red,
      yAxisID: 'y',
    });
  }
  return out;
}

/** What the chart reads of a profile's result (a shrink page hands in a trace's, built the same way). */
export type RateLimitChartInput = Pick<ProfileResult, 'name' | 'durationMs' | 'timeline' | 'rateLimit' | 'rateLimitSeries'>;

/** Builds the chart; classes without samples are left out. */
export function rateLimitChart(p: RateLimitChartInput, id: string): ChartSpec {
  const datasets: ChartDataset[] = [];
  const classes = ROUTE_CLASSES;
  let maxLimit = 0;
  for (const cls of classes) {
    for (const pt of p.timeline) maxLimit = Math.max(maxLimit, pt.rateLimit[cls]?.limit ?? 0);
    if (p.rateLimitSeries) {
      datasets.push(...seriesDatasets(p.rateLimitSeries, cls));
      continue;
    }
    const pts = p.timeline.map((pt) => ({ x: pt.t, y: pt.rateLimit[cls]?.remaining ?? null }));
    if (!pts.some((pt) => pt.y !== null)) continue;
    for (const pt of p.timeline) maxLimit = Math.max(maxLimit, pt.rateLimit[cls]?.limit ?? 0, pt.rateLimit[cls]?.remaining ?? 0);
    const color = CLASS_COLORS[cls];
    datasets.push({
      label: `Remaining (${cls})`,
      data: pts,
      borderColor: color,
      backgroundColor: color,
      borderWidth: 2,
      pointRadius: 0,
      stepped: 'before',
      spanGaps: false,
      yAxisID: 'y',
    });
    const refused = p.timeline.filter((pt) => pt.refused[cls] > 0).map((pt) => ({ x: pt.t, y: 0 }));
    if (refused.length > 0) {
      datasets.push({
        label: `429 (${cls})`,
        data: refused,
        showLine: false,
        pointStyle: 'crossRot',
        pointRadius: 6,
        pointBorderWidth: 2,
        borderColor: cls === 'read' ? COLORS.red : COLORS.orange,
        backgroundColor: COLORS.red,
        yAxisID: 'y',
      });
    }
  }
  // Only one class's windows are shaded (the one the limiter refused most): two overlaid sets are unreadable.
  const shaded = [...p.rateLimit.classes]
    .filter((c) => c.windows.length > 0)
    .sort((a, b) => b.refused - a.refused)
    .slice(0, 1);
  for (const analysis of shaded) {
    const sorted = [...analysis.windows].sort((a, b) => a.start - b.start);
    const color = CLASS_COLORS[analysis.class];
    // Even and odd windows in two shades, each a stepped 0/1 line filled to the axis: adjacent windows stay
    // distinguishable and gaps between windows stay white.
    [0, 1].forEach((parity) => {
      const mine = sorted.filter((_, i) => i % 2 === parity);
      if (mine.length === 0) return;
      datasets.push({
        label: `inferred windows (${analysis.class})`,
        ...(parity === 1 ? { spgateHideInLegend: true } : {}),
        data: mine.flatMap((w) => [
          { x: w.start / 1000, y: 1 },
          { x: w.end / 1000, y: 0 },
        ]),
        yAxisID: 'band',
        fill: 'origin',
        stepped: 'after',
        borderWidth: 0,
        pointRadius: 0,
        borderColor: alpha(color, 0),
        backgroundColor: alpha(color, parity === 0 ? 0.1 : 0.2),
        order: 10,
      });
    });
  }
  const options = baseOptions({
    x: timeAxis(Math.max(Math.ceil(p.durationMs / 1000), ...p.timeline.map((pt) => pt.t))),
    y: valueAxis('RateLimit-Remaining', maxLimit > 0 ? { suggestedMax: maxLimit } : {}),
    band: { type: 'linear', display: false, min: 0, max: 1 },
  });
  return {
    id,
    title: `${p.name}: RateLimit-Remaining by class`,
    caption: p.rateLimitSeries
      ? `Highest and lowest RateLimit-Remaining per ${p.rateLimitSeries.bucketMs} ms per class; × marks 429s; shaded bands are the windows the analyzer inferred.`
      : 'RateLimit-Remaining last seen each second per class; × marks seconds with 429s; shaded bands are the windows the analyzer inferred.',
    config: { type: 'line', data: { datasets }, options },
    ticks: { x: 'seconds', y: 'count' },
  };
}
