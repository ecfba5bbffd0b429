/**
 * Attaches the function-valued options (tick and tooltip formatters) to a JSON chart spec. The source is a
 * plain JavaScript string so the HTML page inlines exactly the code Node evaluates for the PNGs.
 */
import type { ChartSpec } from './spec.js';

export const HYDRATE_JS = `
function spgateFormat(kind, v) {
  if (typeof v !== 'number' || !isFinite(v)) return String(v);
  switch (kind) {
    case 'ms': return v >= 1000 ? (v / 1000).toFixed(v >= 10000 ? 0 : 1) + ' s' : (Math.round(v * 100) / 100) + ' ms';
    case 'seconds': return Math.round(v * 10) / 10 + ' s';
    case 'count': return Number.isInteger(v) ? v.toLocaleString('en-US') : '';
    case 'inversePercentile': {
      var l = Math.log10(v);
      if (Math.abs(l - Math.round(l)) > 1e-9) return '';
      var p = 100 * (1 - 1 / v);
      return (p === 0 ? '0' : String(Number(p.toFixed(5)))) + '%';
    }
  }
  return String(v);
}
function spgateTooltipValue(kind, v) {
  if (kind === 'inversePercentile') return 'p' + Number((100 * (1 - 1 / v)).toFixed(5));
  return spgateFormat(kind, v);
}
function spgateHydrate(spec) {
  var cfg = JSON.parse(JSON.stringify(spec.config));
  var scales = cfg.options.scales || {};
  Object.keys(spec.ticks || {}).forEach(function (axis) {
    var kind = spec.ticks[axis];
    var scale = scales[axis];
    if (!scale) return;
    scale.ticks = scale.ticks || {};
    scale.ticks.callback = function (value) { return spgateFormat(kind, Number(value)); };
    if (kind === 'inversePercentile') scale.ticks.autoSkip = false;
  });
  var hidden = (cfg.data.datasets || []).map(function (d) { return !!d.spgateHideInLegend; });
  if (hidden.some(Boolean)) {
    cfg.options.plugins = cfg.options.plugins || {};
    cfg.options.plugins.legend = cfg.options.plugins.legend || {};
    cfg.options.plugins.legend.labels = cfg.options.plugins.legend.labels || {};
    cfg.options.plugins.legend.labels.filter = function (item) { return !hidden[item.datasetIndex]; };
  }
  if (spec.tooltipX) {
    cfg.options.plugins = cfg.options.plugins || {};
    cfg.options.plugins.tooltip = { callbacks: { title: function (items) { return items.length ? spgateTooltipValue(spec.tooltipX, items[0].parsed.x) : ''; } } };
  }
  return cfg;
}
`;

type Hydrate = (spec: ChartSpec) => Record<string, unknown>;

// The string is our own constant; evaluating it once gives Node the very functions the page runs.
const runtime = new Function(`${HYDRATE_JS}; return { spgateHydrate: spgateHydrate, spgateFormat: spgateFormat };`)() as {
  spgateHydrate: Hydrate;
  spgateFormat: (kind: string, v: number) => string;
};

/** Returns a Chart.js configuration with formatter functions attached (a deep copy). */
export function hydrateChart(spec: ChartSpec): Record<string, unknown> {
  return runtime.spgateHydrate(spec);
}

/** Formats a tick value the way the charts do (exposed for tests). */
export function formatTick(kind: string, v: number): string {
  return runtime.spgateFormat(kind, v);
}
