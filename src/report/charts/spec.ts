/**
 * Chart specifications: plain JSON Chart.js configurations plus named tick formats. They are built by pure
 * functions, embedded as JSON in the HTML page and rendered to PNG in Node; functions (tick callbacks) are
 * attached on both sides by the same hydrate source (hydrate.ts), so the two renderings cannot drift.
 */

export type TickFormat = 'ms' | 'seconds' | 'count' | 'inversePercentile';

export interface ChartPoint {
  x: number;
  y: number | null;
}

export interface ChartDataset {
  label: string;
  data: ChartPoint[] | Array<number | null>;
  [option: string]: unknown;
}

export interface ChartConfig {
  type: 'line' | 'bar';
  data: { labels?: string[]; datasets: ChartDataset[] };
  options: Record<string, unknown> & { scales: Record<string, Record<string, unknown>> };
}

export interface ChartSpec {
  /** Unique in a report; also the PNG file stem. */
  id: string;
  title: string;
  /** One sentence under the chart saying how to read it. */
  caption: string;
  config: ChartConfig;
  /** Tick label format per scale id. */
  ticks: Partial<Record<string, TickFormat>>;
  /** Tooltip title format for the x value. */
  tooltipX?: TickFormat;
}

export const COLORS = {
  blue: '#2563eb',
  orange: '#ea580c',
  green: '#16a34a',
  red: '#dc2626',
  purple: '#7c3aed',
  gray: '#6b7280',
  teal: '#0d9488',
  amber: '#d97706',
} as const;

/** Semi-transparent variant of a #rrggbb colour. */
export function alpha(hex: string, a: number): string {
  const n = parseInt(hex.slice(1), 16);
  return `rgba(${(n >> 16) & 255}, ${(n >> 8) & 255}, ${n & 255}, ${a})`;
}

/** Options every chart shares: no animation (deterministic PNGs and screenshots), legend at the bottom. */
export function baseOptions(scales: ChartConfig['options']['scales']): ChartConfig['options'] {
  return {
    animation: false,
    responsive: true,
    maintainAspectRatio: false,
    interaction: { mode: 'nearest', axis: 'x', intersect: false },
    plugins: {
      legend: { position: 'bottom', labels: { boxWidth: 12, boxHeight: 12 } },
      title: { display: false, text: '' },
    },
    scales,
  };
}

/** A linear time axis in seconds since the profile started. */
export function timeAxis(maxSeconds?: number): Record<string, unknown> {
  return {
    type: 'linear',
    min: 0,
    ...(maxSeconds !== undefined ? { max: maxSeconds } : {}),
    title: { display: true, text: 'seconds since start' },
    grid: { color: '#eef0f3' },
  };
}

/** A linear value axis starting at zero. */
export function valueAxis(title: string, extra: Record<string, unknown> = {}): Record<string, unknown> {
  return { type: 'linear', beginAtZero: true, title: { display: true, text: title }, grid: { color: '#eef0f3' }, ...extra };
}
