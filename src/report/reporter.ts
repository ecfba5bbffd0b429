/**
 * The reporter interface and the loop that runs reporters in isolation: each one is wrapped in try/catch,
 * so one crashing reporter neither stops the others nor touches results.json (written before any of them).
 */
import type { Results } from '../results/schema.js';

export const REPORT_FORMATS = ['png', 'html', 'junit', 'ctrf', 'markdown', 'json'] as const;
export type ReportFormat = (typeof REPORT_FORMATS)[number];

/** What reporters share during one rendering: PNG files written so far (chart id → file name). */
export interface RenderContext {
  pngs: Map<string, string>;
  /** Informational lines for the user (e.g. why PNGs were skipped). */
  notes: string[];
}

export interface Reporter {
  name: ReportFormat;
  /** Writes its files into outDir and returns their paths. */
  render(results: Results, outDir: string, ctx: RenderContext): Promise<string[]>;
}

export type ReporterOutcome =
  | { reporter: ReportFormat; status: 'written'; files: string[] }
  | { reporter: ReportFormat; status: 'failed'; message: string };

export interface RenderSummary {
  outcomes: ReporterOutcome[];
  notes: string[];
}

/** Runs reporters in order (PNG first, so the Markdown summary can link its charts); never throws. */
export async function runReporters(results: Results, outDir: string, reporters: Reporter[]): Promise<RenderSummary> {
  const ctx: RenderContext = { pngs: new Map(), notes: [] };
  const outcomes: ReporterOutcome[] = [];
  for (const r of reporters) {
    try {
      const files = await r.render(results, outDir, ctx);
      outcomes.push({ reporter: r.name, status: 'written', files });
    } catch (err) {
      const message = (err instanceof Error ? err.message : String(err)).split('\n')[0]!;
      outcomes.push({ reporter: r.name, status: 'failed', message });
    }
  }
  return { outcomes, notes: ctx.notes };
}

/** Parses a --format list ("html,junit"); unknown names are returned separately for a usage error. */
export function parseFormats(
  list: string | string[] | undefined,
  fallback: readonly ReportFormat[],
): { formats: ReportFormat[]; unknown: string[] } {
  if (list === undefined) return { formats: [...fallback], unknown: [] };
  const names = (Array.isArray(list) ? list : [list])
    .flatMap((s) => s.split(','))
    .map((s) => s.trim().toLowerCase())
    .filter(Boolean);
  const alias: Record<string, ReportFormat> = { md: 'markdown', xml: 'junit' };
  const formats: ReportFormat[] = [];
  const unknown: string[] = [];
  for (const n of names) {
    const f = alias[n] ?? ((REPORT_FORMATS as readonly string[]).includes(n) ? (n as ReportFormat) : undefined);
    if (f === undefined) unknown.push(n);
    else if (!formats.includes(f)) formats.push(f);
  }
  // Keep the canonical order so PNGs exist before Markdown links them.
  formats.sort((a, b) => REPORT_FORMATS.indexOf(a) - REPORT_FORMATS.indexOf(b));
  return { formats, unknown };
}
