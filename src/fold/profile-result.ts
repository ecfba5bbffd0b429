/**
 * The one assembler of a load run's ProfileResult (autocannon's lib/aggregateResult.js is the model): a
 * live run (src/load/aggregate.ts) and a merge of shards or local workers (src/distributed/merge.ts) each
 * fold their responses, then hand the folded figures here, so totals, throughput, thresholds, the status
 * rule, capacity and the generator's mark on it are put together one way whatever the run's shape. What
 * differs stays with the caller: where sends and drops are counted, how the findings were verified, what
 * the run-level error is. Pure.
 */
import type { FindingRecord, ProfileResult, RateLimitAnalysis } from '../results/schema.js';
import type { ThresholdContext, ThresholdOutcome } from './threshold.js';
import { findCapacity, type TimelineRow } from './timeline.js';
import { markLowerBound, type GeneratorVerdict } from './generator-verdict.js';
import { thresholdContext, type FoldFigures } from './threshold-context.js';
import { keysBudget, throughputOf } from './throughput.js';
import type { StatusTally } from './tally.js';

/** The folded figures of one run (live, or merged), as the assembler takes them. */
export interface ProfileParts {
  /** The plan's name, description, model and configuration (a merge: the first shard's, with its notes). */
  head: Pick<ProfileResult, 'name' | 'description' | 'model' | 'config'>;
  /** ISO time the run (a merge: its earliest shard) started. */
  startedAt: string;
  /** The run's length, ms (unrounded). */
  durationMs: number;
  /** Responses per class × status. */
  tally: StatusTally;
  /** Sends, drops and transport failures of the whole run. */
  counts: { sent: number; dropped: number; errors: number };
  /** Latency views, sends and drops per class, for the thresholds (see FoldFigures). */
  figures: Pick<FoldFigures, 'histogram' | 'range' | 'sent' | 'dropped'>;
  latency: ProfileResult['latency'];
  /** Per-second rows of the timeline (with their error counts, which the results leave out). */
  points: TimelineRow[];
  analysis: RateLimitAnalysis;
  rateLimitSeries: NonNullable<ProfileResult['rateLimitSeries']>;
  /** Every finding of the run: the per-response verification's and the rate-limit violations'. */
  findings: FindingRecord[];
  /** Evaluates the run's thresholds on the context of its figures. */
  thresholds(ctx: ThresholdContext): ThresholdOutcome[];
  /** The run-level error, if any (an engine error, an unreachable target, a missing shard). */
  error?: string | undefined;
  aborted: boolean;
  /** The capacity profile's SLO, when the run looks for capacity. */
  capacity?: { p95Ms: number; maxErrorPct: number } | undefined;
  /** The generator's own lag and verdict (a merge: the worst of the shards'). */
  generator?: GeneratorVerdict | undefined;
  trace?: string | undefined;
  /** Connections the engines opened and requests they re-sent on a fresh one (a merge: summed over its shards). */
  connections?: { opened: number; resent: number } | undefined;
  /** Which shards a merge covers. */
  merged?: ProfileResult['merged'];
}

/** The ProfileResult of a run's folded figures, thresholds evaluated and status judged. */
export function profileResult(p: ProfileParts): { result: ProfileResult; findings: FindingRecord[] } {
  const { tally, findings, points } = p;
  const seconds = Math.max(p.durationMs / 1000, 1e-3);
  const ctx = thresholdContext({
    ...p.figures,
    tally,
    findings,
    seconds,
    rateLimitSeries: p.rateLimitSeries,
    ...(p.generator ? { generator: p.generator } : {}),
  });
  const thresholds = p.thresholds(ctx);
  const status: ProfileResult['status'] = p.aborted
    ? 'aborted'
    : p.error
      ? 'error'
      : thresholds.some((t) => !t.ok) || findings.some((f) => f.severity === 'error')
        ? 'failed'
        : 'passed';
  const result: ProfileResult = {
    name: p.head.name,
    description: p.head.description,
    model: p.head.model,
    startedAt: p.startedAt,
    durationMs: Math.round(p.durationMs),
    config: p.head.config,
    totals: {
      sent: p.counts.sent,
      completed: tally.count('completed'),
      dropped: p.counts.dropped,
      errors: p.counts.errors,
      byStatus: tally.byStatusRecord(),
      byClass: { read: tally.byClass.read.records, write: tally.byClass.write.records },
    },
    throughput: throughputOf(points, seconds),
    latency: p.latency,
    timeline: points.map(({ errors: _e, ...row }) => row),
    thresholds,
    rateLimit: p.analysis,
    rateLimitSeries: p.rateLimitSeries,
    ...(p.merged ? { merged: p.merged } : {}),
    status,
  };
  if (p.trace) result.trace = p.trace;
  if (p.error) result.error = p.error;
  if (p.capacity) result.capacity = findCapacity(points, p.capacity, Math.floor(seconds), keysBudget(p.analysis.classes));
  if (p.generator) {
    result.generator = p.generator;
    if (result.capacity) result.capacity = markLowerBound(result.capacity, p.generator);
  }
  if (p.connections) {
    const { opened, resent } = p.connections;
    result.connections = { opened, resent, perSecond: p.durationMs > 0 ? Math.round((opened / (p.durationMs / 1000)) * 10) / 10 : 0 };
  }
  return { result, findings };
}
