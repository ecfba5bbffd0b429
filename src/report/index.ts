/** Rendering a results document into report files: the reporter registry and the one entry point. */
import type { Results } from '../results/schema.js';
import { ctrfReporter } from './ctrf.js';
import { htmlReporter } from './html.js';
import { jsonReporter } from './json.js';
import { junitReporter } from './junit.js';
import { markdownReporter } from './markdown.js';
import { pngReporter } from './png.js';
import { REPORT_FORMATS, runReporters, type RenderSummary, type ReportFormat, type Reporter } from './reporter.js';

export { REPORT_FORMATS, parseFormats, type ReportFormat, type RenderSummary, type ReporterOutcome } from './reporter.js';

const REGISTRY: Record<ReportFormat, Reporter> = {
  png: pngReporter,
  html: htmlReporter,
  junit: junitReporter,
  ctrf: ctrfReporter,
  markdown: markdownReporter,
  json: jsonReporter,
};

/** Renders the chosen formats into outDir (each reporter isolated; failures come back as outcomes). */
export async function renderReports(
  results: Results,
  outDir: string,
  formats: readonly ReportFormat[] = REPORT_FORMATS,
): Promise<RenderSummary> {
  const chosen = REPORT_FORMATS.filter((f) => formats.includes(f)).map((f) => REGISTRY[f]);
  return runReporters(results, outDir, chosen);
}
