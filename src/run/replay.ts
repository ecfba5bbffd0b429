/**
 * The run of `spgate replay`, below the CLI (which parses, calls, prints and exits): re-send a trace with
 * its timing against the target (the embedded server given the budgets the trace announced), record and
 * analyze the responses; with `times`, N attempts, each from a full budget. The outcome goes back to the
 * CLI to print; `--trace-out` and `--json` are written here.
 */
import { writeFile } from 'node:fs/promises';
import { SpgateError } from '../errors.js';
import { createClient } from '../client/client.js';
import { analyzeRateLimits } from '../ratelimit/analyze.js';
import type { Target } from '../target/schema.js';
import { clientTimeouts } from '../target/timeouts.js';
import { createAttemptRunner } from '../shrink/attempts.js';
import { fidelityOf, type Fidelity } from '../shrink/fidelity.js';
import { scheduleOf } from '../shrink/schedule.js';
import { describeSignature, pickSignature, shows, type ViolationSignature } from '../shrink/signature.js';
import type { RateLimitAnalysis } from '../results/schema.js';
import type { TraceRecord } from '../trace/record.js';
import { replayTrace, type ReplayOutcome } from '../trace/replay.js';
import { traceToSamples } from '../trace/samples.js';
import { createTraceWriter, type TraceWriter } from '../trace/writer.js';
import { openTarget, type TargetOptions } from './target.js';

/** Refuses traces that would run longer, faster or bigger than the limits allow (nothing is sent). */
export function checkReplayBounds(records: readonly TraceRecord[], target: Target, speed: number, maxDuration: number): void {
  if (records.length === 0) throw new SpgateError('SPGATE_ERR_TRACE_INVALID', 'the trace has no records to replay');
  let lo = Infinity;
  let hi = -Infinity;
  for (const r of records) {
    lo = Math.min(lo, r.t);
    hi = Math.max(hi, r.t);
  }
  const seconds = (hi - lo) / 1000 / speed;
  const limit = Math.min(maxDuration, target.caps.maxDuration ?? Infinity);
  if (seconds > limit) {
    throw new SpgateError(
      'SPGATE_ERR_USAGE',
      `the trace lasts ${seconds.toFixed(1)} s at speed ${speed}, above the ${limit} s limit (raise --max-duration${target.caps.maxDuration !== undefined ? " and the target's caps.maxDuration" : ''})`,
    );
  }
  if (target.caps.maxRequests !== undefined && records.length > target.caps.maxRequests) {
    throw new SpgateError(
      'SPGATE_ERR_USAGE',
      `the trace has ${records.length} requests, above the target's caps.maxRequests ${target.caps.maxRequests}`,
    );
  }
  if (target.caps.maxRps !== undefined) {
    const perSecond = new Map<number, number>();
    for (const r of records) {
      const k = Math.floor((r.t - lo) / 1000 / speed);
      perSecond.set(k, (perSecond.get(k) ?? 0) + 1);
    }
    const peak = Math.max(...perSecond.values());
    if (peak > target.caps.maxRps) {
      throw new SpgateError(
        'SPGATE_ERR_USAGE',
        `the trace peaks at ${peak} requests/s at speed ${speed}, above the target's caps.maxRps ${target.caps.maxRps}`,
      );
    }
  }
  if (!target.allowWrites && records.some((r) => r.class === 'write')) {
    throw new SpgateError(
      'SPGATE_ERR_WRITES_NOT_ALLOWED',
      'the trace has write requests but the target file does not set allowWrites: true',
    );
  }
}

export interface ReplayRunOptions {
  records: readonly TraceRecord[];
  /** The trace's own analysis (what the replay is compared with). */
  before: RateLimitAnalysis;
  /** --target / --base-url (the embedded server's budgets are set here, from the trace). */
  target: Omit<TargetOptions, 'server'>;
  speed: number;
  maxDuration: number;
  /** --times: N attempts, each from a full budget. */
  times?: number | undefined;
  /** --rule: with times, the violation to count (default: the trace's first). */
  rule?: string | undefined;
  maxWaitMs: number;
  traceOut?: string | undefined;
  json?: string | undefined;
  /** A progress line for stderr (with times: which keys the attempts take turns over). */
  note?: (line: string) => void;
}

/** How a replay ended: N attempts (`repeated`) or one pass at the trace's timing (`once`). */
export type ReplayEnd =
  | { kind: 'repeated'; target: Target; rep: Awaited<ReturnType<typeof repeatReplay>> }
  | { kind: 'once'; target: Target; outcome: ReplayOutcome; after: RateLimitAnalysis; fidelity: Fidelity };

/** Replays the trace against the target (opened and closed here); refuses one beyond the bounds before sending. */
export async function runReplay(o: ReplayRunOptions): Promise<ReplayEnd> {
  const { records, before, speed } = o;
  let opened;
  let writer: TraceWriter | undefined;
  try {
    // Replaying into the embedded server: give it the budgets the trace announced, so it limits alike.
    const budget = (cls: 'read' | 'write') => before.classes.find((c) => c.class === cls)?.observedLimit ?? undefined;
    const windowSeconds = before.classes.map((c) => c.windowSeconds).find((w): w is number => w !== null && Number.isInteger(w) && w > 0);
    opened = await openTarget({ ...o.target, server: { budgets: { read: budget('read'), write: budget('write'), windowSeconds } } });
    const target = opened.target;
    checkReplayBounds(records, target, speed, o.maxDuration);
    if (o.traceOut !== undefined) writer = createTraceWriter(o.traceOut);
    const client = createClient({ baseUrl: target.baseUrl, secrets: target.secrets, tls: target.tls, ...clientTimeouts(target) });
    if (o.times !== undefined) {
      try {
        const sig = before.violations.length > 0 ? pickSignature(before, o.rule).signature : undefined;
        const runner = createAttemptRunner({ client, target, maxWaitMs: o.maxWaitMs, known: records, ...(o.note ? { note: o.note } : {}) });
        const rep = await repeatReplay(records, o.times, sig, (s) => runner.run(s));
        if (writer) {
          for (const r of rep.last.records) writer.write(r);
          await writer.close();
          writer = undefined;
        }
        if (o.json !== undefined) await writeJson(o.json, rep.json);
        return { kind: 'repeated', target, rep };
      } finally {
        await client.close();
      }
    }
    let outcome;
    try {
      outcome = await replayTrace(records, {
        client,
        target,
        speed,
        ...(writer ? { onRecord: (r: TraceRecord) => writer!.write(r) } : {}),
      });
    } finally {
      await client.close();
    }
    if (writer) await writer.close();
    writer = undefined;
    const answered = outcome.records.filter((r) => r.status > 0).length;
    if (outcome.records.length > 0 && answered === 0) {
      throw new SpgateError(
        'SPGATE_ERR_TARGET_UNREACHABLE',
        `${target.baseUrl} answered none of ${outcome.records.length} requests (${outcome.records[0]!.error ?? 'no response'})`,
      );
    }
    const after = analyzeRateLimits(traceToSamples(outcome.records));
    const fidelity = fidelityOf(outcome.sendErrors);
    if (o.json !== undefined) await writeJson(o.json, { attempts: 1, fidelity, violations: after.violations });
    return { kind: 'once', target, outcome, after, fidelity };
  } finally {
    if (writer) await writer.close().catch(() => undefined);
    if (opened) await opened.close();
  }
}

async function writeJson(path: string, value: unknown): Promise<void> {
  try {
    await writeFile(path, JSON.stringify(value, null, 2) + '\n');
  } catch (cause) {
    throw new SpgateError('SPGATE_ERR_FILE_NOT_FOUND', `cannot write ${path}`, { cause });
  }
}

/** N attempts of the trace's schedule: how many showed the violation (or any, when the trace shows none). */
async function repeatReplay(
  records: readonly TraceRecord[],
  times: number,
  sig: ViolationSignature | undefined,
  attempt: (
    s: ReturnType<typeof scheduleOf>,
  ) => Promise<{ records: TraceRecord[]; analysis: RateLimitAnalysis; sendErrors: number[]; waitedMs: number }>,
) {
  const schedule = scheduleOf(records);
  const errors: number[] = [];
  const per: Array<{ reproduced: boolean; rules: string[]; waitedMs: number }> = [];
  let last: { records: TraceRecord[]; analysis: RateLimitAnalysis } | undefined;
  for (let i = 0; i < times; i++) {
    const a = await attempt(schedule);
    errors.push(...a.sendErrors);
    const rules = [...new Set(a.analysis.violations.map((v) => v.rule))];
    per.push({ reproduced: sig ? shows(a.analysis, sig) : rules.length > 0, rules, waitedMs: Math.round(a.waitedMs) });
    last = a;
  }
  const k = per.filter((p) => p.reproduced).length;
  const fidelity = fidelityOf(errors);
  const line = sig
    ? `reproduced ${k}/${times} (${describeSignature(sig)})`
    : `the trace shows no violation; violations in ${k}/${times} attempt(s)`;
  return {
    last: last!,
    fidelity,
    line,
    withViolations: per.filter((p) => p.rules.length > 0).length,
    json: { attempts: times, reproduced: k, ...(sig ? { violation: sig } : {}), fidelity, perAttempt: per },
  };
}
