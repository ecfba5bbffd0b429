/**
 * PNG charts rendered in Node with chartjs-node-canvas. The native `canvas` module is optional (it needs
 * cairo), so it is loaded with a dynamic import inside try/catch: without it this reporter writes nothing
 * and says so, and the HTML report still draws its charts in the browser.
 */
import { writeFile, mkdir } from 'node:fs/promises';
import { join } from 'node:path';
import type { ChartJSNodeCanvas } from 'chartjs-node-canvas';
import type { Results } from '../results/schema.js';
import { chartsForResults, type ChartSpec } from './charts/index.js';
import { hydrateChart } from './charts/hydrate.js';
import type { Reporter } from './reporter.js';

const WIDTH = 960;
const HEIGHT = 400;

/** Loads chartjs-node-canvas, or returns why it is unavailable. */
export async function loadChartRenderer(): Promise<{ ok: true; renderer: ChartJSNodeCanvas } | { ok: false; reason: string }> {
  try {
    // Typed by src/types/chartjs-node-canvas.d.ts, so the typecheck passes where the package is absent.
    const { ChartJSNodeCanvas } = await import('chartjs-node-canvas');
    return { ok: true, renderer: new ChartJSNodeCanvas({ width: WIDTH, height: HEIGHT, backgroundColour: 'white' }) };
  } catch (err) {
    return { ok: false, reason: (err instanceof Error ? err.message : String(err)).split('\n')[0]! };
  }
}

/** The Node-side configuration of a chart: the page's configuration, fixed size, title shown. */
export function pngConfig(spec: ChartSpec): Record<string, unknown> {
  const cfg = hydrateChart(spec) as { options: Record<string, unknown> & { plugins?: Record<string, unknown> } };
  cfg.options.responsive = false;
  cfg.options.devicePixelRatio = 1;
  cfg.options.plugins = {
    ...cfg.options.plugins,
    title: { display: true, text: spec.title, font: { size: 15, weight: 'bold' }, color: '#111827' },
  };
  return cfg;
}

export const pngReporter: Reporter = {
  name: 'png',
  async render(results: Results, outDir: string, ctx) {
    const charts = chartsForResults(results).flat();
    if (charts.length === 0) return [];
    const loaded = await loadChartRenderer();
    if (!loaded.ok) {
      ctx.notes.push(`PNG charts skipped: chartjs-node-canvas is unavailable (${loaded.reason})`);
      return [];
    }
    await mkdir(outDir, { recursive: true });
    const files: string[] = [];
    for (const spec of charts) {
      const name = `chart-${spec.id}.png`;
      const buf = await loaded.renderer.renderToBuffer(pngConfig(spec), 'image/png');
      const path = join(outDir, name);
      await writeFile(path, buf);
      ctx.pngs.set(spec.id, name);
      files.push(path);
    }
    return files;
  },
};
