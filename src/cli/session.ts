/**
 * What `conformance` and `load` share around their runner: the target (a target file, or the embedded
 * reference server), abort on SIGINT/SIGTERM, and writing the results document and reports.
 */
import { join } from 'node:path';
import { loadTarget } from '../target/load.js';
import { normaliseBaseUrl, targetFromInput } from '../target/resolve.js';
import type { Target } from '../target/schema.js';
import { startReferenceServer } from '../reference/index.js';
import { writeResults } from '../results/io.js';
import type { Results } from '../results/schema.js';
import { renderReports } from '../report/index.js';
import { printRenderSummary } from './render-summary.js';

export interface OpenTarget {
  target: Target;
  /** Stops the embedded server, if one was started (a no-op for a target file). */
  close(): Promise<void>;
}

/** Loads the target file, or starts the embedded reference server on a loopback port; prints warnings once. */
export async function openTarget(args: Record<string, unknown>): Promise<OpenTarget> {
  const baseUrlOverride = args.baseUrl === undefined ? undefined : String(args.baseUrl);
  // Checked before the embedded server starts, so a bad override cannot leave it running.
  if (baseUrlOverride !== undefined) normaliseBaseUrl(baseUrlOverride, '--base-url');
  let opened: OpenTarget;
  if (args.target !== undefined) {
    opened = { target: await loadTarget(String(args.target), { baseUrlOverride }), close: async () => {} };
  } else {
    const server = await startReferenceServer({ port: 0 });
    opened = { target: targetFromInput(server.target, 'embedded', { baseUrlOverride }), close: () => server.close() };
  }
  for (const w of opened.target.warnings) process.stderr.write(`warning: ${w}\n`);
  return opened;
}

export interface SignalAbort {
  signal: AbortSignal;
  /** "received SIGINT" once a signal came, else undefined. */
  reason(): string | undefined;
  /** Removes the handlers (call once the run is over). */
  dispose(): void;
}

/** Turns the first SIGINT/SIGTERM into an abort of the run, so partial results can still be written. */
export function abortOnSignals(): SignalAbort {
  const controller = new AbortController();
  let reason: string | undefined;
  const onSignal = (sig: NodeJS.Signals): void => {
    reason ??= `received ${sig}`;
    controller.abort();
  };
  process.once('SIGINT', onSignal);
  process.once('SIGTERM', onSignal);
  return {
    signal: controller.signal,
    reason: () => reason,
    dispose: () => {
      process.off('SIGINT', onSignal);
      process.off('SIGTERM', onSignal);
    },
  };
}

/** Writes --json and --out (results.json first, then the reports); returns 1 if a reporter failed, else 0. */
export async function writeOutputs(results: Results, args: Record<string, unknown>): Promise<number> {
  if (args.json !== undefined) await writeResults(String(args.json), results);
  if (args.out === undefined) return 0;
  const dir = String(args.out);
  await writeResults(join(dir, 'results.json'), results);
  const render = await renderReports(results, dir);
  process.stdout.write(`reports written to ${dir}\n`);
  // A reporter that failed is one line (results.json is already safe); the exit code says so.
  return printRenderSummary({ outcomes: render.outcomes.filter((o) => o.status === 'failed'), notes: render.notes }, process.stdout, process.stderr);
}
