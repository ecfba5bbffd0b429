/** Progress events of a conformance run, for the CLI's live lines and for `spgate run`. */
import type { CheckResult, FindingRecord } from '../results/schema.js';

/** Counters carried by every event, so a listener never has to keep its own. */
export interface ProgressCounters {
  requests: number;
  findings: number;
}

export type ProgressEvent =
  | ({ type: 'run-started'; suites: string[]; checks: number; seed: number; runs: number } & ProgressCounters)
  | ({ type: 'suite-started'; suite: string; checks: number } & ProgressCounters)
  | ({ type: 'check-started'; suite: string; checkId: string; clause: string } & ProgressCounters)
  | ({ type: 'request'; suite: string; checkId: string } & ProgressCounters)
  | ({ type: 'finding'; suite: string; finding: FindingRecord } & ProgressCounters)
  | ({ type: 'check-finished'; suite: string; result: CheckResult } & ProgressCounters)
  | ({ type: 'suite-finished'; suite: string; results: CheckResult[] } & ProgressCounters)
  | ({ type: 'run-finished'; aborted: boolean } & ProgressCounters);

export type ProgressListener = (e: ProgressEvent) => void;
