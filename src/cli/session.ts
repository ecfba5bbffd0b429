/**
 * What every command shares around its runner on the command line: the target's warnings on stderr, abort
 * on SIGINT/SIGTERM, and writing the results document and reports. Opening the target is src/run/target.ts.
 */
import { join } from 'node:path';
import type { Target } from '../target/schema.js';
import { writeResults } from '../results/io.js';
import type { Results } from '../results/schema.js';
import { printRenderSummary } from './render-summary.js';

/** The target's warnings on stderr, one line each (once per command). */
export function printTargetWarnings(target: Target): void {
  for (const w of target.warnings) process.stderr.write(`warning: ${w}\n`);
}

export interface SignalAbort {
  signal: AbortSignal;
  /** "received SIGINT" once a signal came, else undefined. */
  reason(): string | undefined;
  /** Removes the handlers (call once the run is over). */
  dispose(): void;
}

/**
 * Turns the first SIGINT/SIGTERM into an abort of the run, so partial results can still be written; a
 * second one exits at once with code 3. `onFirst` lets a command say what happens.
 */
export function abortOnSignals(onFirst?: (sig: NodeJS.Signals) => void): SignalAbort {
  const controller = new AbortController();
  let reason: string | undefined;
  const onSignal = (sig: NodeJS.Signals): void => {
    if (reason !== undefined) process.exit(3);
    reason = `received ${sig}`;
    onFirst?.(sig);
    controller.abort(`interrupted by ${sig}`);
  };
  process.on('SIGINT', onSignal);
  process.on('SIGTERM', onSignal);
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
  const { renderReports } = await import('../report/index.js');
  const render = await renderReports(results, dir);
  process.stdout.write(`reports written to ${dir}\n`);
  // A reporter that failed is one line (results.json is already safe); the exit code says so.
  return printRenderSummary(
    { outcomes: render.outcomes.filter((o) => o.status === 'failed'), notes: render.notes },
    process.stdout,
    process.stderr,
  );
}
