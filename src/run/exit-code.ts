/**
 * The one exit-code rule of every command that writes a results document (run, conformance, load in one
 * process, in workers or as a shard, merge): the code follows the document's verdict (results/verdict.ts
 * decides what "failed" means, so the exit code and every report agree), and a reporter that failed
 * raises it to at least 1. Usage and configuration errors (2) are thrown before a run and never reach
 * here (errors.ts). docs/errors.md states the codes.
 */
import type { Results } from '../results/schema.js';
import type { Verdict } from '../results/verdict.js';

/** The process exit code for a verdict: 0 passed · 1 failed · 3 aborted or errored (unreachable, incomplete). */
export function exitCodeForVerdict(v: Verdict): number {
  switch (v) {
    case 'passed':
      return 0;
    case 'failed':
      return 1;
    case 'aborted':
    case 'error':
      return 3;
  }
}

export interface ExitOptions {
  /** 1 when a reporter failed (results.json is written first, so the data is safe), else 0. */
  renderCode: number;
  /**
   * A shard of a distributed run: its own thresholds see part of the load, so a shard that completed exits
   * with the reporters' code alone; the verdict is merge's. An aborted or errored shard still exits 3.
   */
  shard?: boolean;
}

/** The exit code of a command that wrote `results`. */
export function exitCode(results: Pick<Results, 'verdict'>, o: ExitOptions): number {
  const code = exitCodeForVerdict(results.verdict);
  if (code === 3) return 3;
  return Math.max(o.shard ? 0 : code, o.renderCode);
}
