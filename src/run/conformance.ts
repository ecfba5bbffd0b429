/**
 * The run of `spgate conformance`, below the CLI (which parses, calls, prints and exits): the suites
 * against an open target, then the results document. A suite that crashes is the run's error, recorded
 * in the document before the CLI rethrows it, so what ran is still written.
 */
import { runConformance, type ConformanceOutcome } from '../conformance/run.js';
import { SUITES } from '../../suites/index.js';
import { buildResults } from '../results/build.js';
import type { Results } from '../results/schema.js';
import type { ProgressEvent } from '../conformance/progress.js';
import { resultsHeader } from './header.js';
import type { OpenTarget } from './target.js';

export interface ConformanceRunOptions {
  /** The open target (closed here once the suites are done). */
  opened: OpenTarget;
  suites: string[];
  checks: string[];
  runs: number;
  seed: number;
  failOnInconclusive: boolean;
  signal: AbortSignal;
  abortReason(): string | undefined;
  onProgress?: (e: ProgressEvent) => void;
}

/** How a conformance run ended: the outcome, its results document, and the error that cut it short, if one did. */
export interface ConformanceEnd {
  outcome: ConformanceOutcome;
  aborted: boolean;
  results: Results;
  /** Thrown by the run; the CLI rethrows it once the results are written. */
  failure?: unknown;
  /** How many of results.errors the run itself raised (the rest the results found: a run that judged nothing). */
  ownErrors: number;
}

/** Runs the selected suites and builds the results document; closes the target. */
export async function runConformanceCommand(o: ConformanceRunOptions): Promise<ConformanceEnd> {
  const { target } = o.opened;
  const startedAt = new Date();
  let outcome: ConformanceOutcome = { checks: [], findings: [], exchanges: [], aborted: false };
  const errors: string[] = [];
  let failure: unknown;
  let failed = false;
  try {
    outcome = await runConformance({
      target,
      catalogue: SUITES,
      suites: o.suites,
      checks: o.checks,
      runs: o.runs,
      seed: o.seed,
      signal: o.signal,
      ...(o.onProgress ? { onProgress: o.onProgress } : {}),
    });
  } catch (err) {
    failure = err;
    failed = true;
    errors.push(err instanceof Error ? err.message : String(err));
  } finally {
    await o.opened.close();
  }
  const aborted = outcome.aborted || o.signal.aborted;
  const abortReason = o.abortReason();
  const results = buildResults({
    command: 'conformance',
    ...resultsHeader(target),
    seed: o.seed,
    runs: o.runs,
    startedAt,
    finishedAt: new Date(),
    aborted,
    ...(abortReason ? { abortReason } : {}),
    checks: outcome.checks,
    findings: outcome.findings,
    exchanges: outcome.exchanges,
    load: [],
    errors,
    failOnInconclusive: o.failOnInconclusive,
  });
  return { outcome, aborted, results, ...(failed ? { failure } : {}), ownErrors: errors.length };
}
