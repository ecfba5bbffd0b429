/** `spgate replay TRACE.ndjson` — re-send a trace with its timing, record, analyze and compare. */
import type { SpgateCommand } from '../command.js';
import { SpgateError } from '../../errors.js';
import { createClient } from '../../client/client.js';
import { analyzeRateLimits } from '../../ratelimit/analyze.js';
import { formatAnalysis, formatComparison } from '../../ratelimit/format.js';
import { openTarget, targetOptions, type OpenTarget } from '../../run/target.js';
import type { Target } from '../../target/schema.js';
import { clientTimeouts } from '../../target/timeouts.js';
import { readTrace } from '../../trace/reader.js';
import type { TraceRecord } from '../../trace/record.js';
import { replayTrace } from '../../trace/replay.js';
import { traceToSamples } from '../../trace/samples.js';
import { createTraceWriter, type TraceWriter } from '../../trace/writer.js';

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
    throw new SpgateError('SPGATE_ERR_USAGE', `the trace lasts ${seconds.toFixed(1)} s at speed ${speed}, above the ${limit} s limit (raise --max-duration${target.caps.maxDuration !== undefined ? ' and the target\'s caps.maxDuration' : ''})`);
  }
  if (target.caps.maxRequests !== undefined && records.length > target.caps.maxRequests) {
    throw new SpgateError('SPGATE_ERR_USAGE', `the trace has ${records.length} requests, above the target's caps.maxRequests ${target.caps.maxRequests}`);
  }
  if (target.caps.maxRps !== undefined) {
    const perSecond = new Map<number, number>();
    for (const r of records) {
      const k = Math.floor((r.t - lo) / 1000 / speed);
      perSecond.set(k, (perSecond.get(k) ?? 0) + 1);
    }
    const peak = Math.max(...perSecond.values());
    if (peak > target.caps.maxRps) {
      throw new SpgateError('SPGATE_ERR_USAGE', `the trace peaks at ${peak} requests/s at speed ${speed}, above the target's caps.maxRps ${target.caps.maxRps}`);
    }
  }
  if (!target.allowWrites && records.some((r) => r.class === 'write')) {
    throw new SpgateError('SPGATE_ERR_WRITES_NOT_ALLOWED', 'the trace has write requests but the target file does not set allowWrites: true');
  }
}

export const replayCommand: SpgateCommand = {
  command: 'replay <trace>',
  describe: 're-send a trace with its timing, record the responses, and compare rate-limit violations',
  builder: (y) =>
    y
      .positional('trace', { type: 'string', describe: 'NDJSON trace file', demandOption: true })
      .option('target', { type: 'string', describe: 'target file (default: the embedded reference server)' })
      .option('base-url', { type: 'string', describe: "override the target's base URL (needs --target)" })
      .option('speed', { type: 'number', default: 1, describe: 'timing multiplier (2 = twice as fast)' })
      .option('trace-out', { type: 'string', describe: 'write the new responses as a trace to FILE' })
      .option('max-duration', { type: 'number', default: 60, describe: 'refuse traces longer than this many seconds (after --speed)' }),
  run: async (args) => {
    const speed = Number(args.speed);
    const maxDuration = Number(args.maxDuration);
    if (!(speed > 0) || !Number.isFinite(speed)) throw new SpgateError('SPGATE_ERR_USAGE', '--speed must be a positive number');
    if (!(maxDuration > 0)) throw new SpgateError('SPGATE_ERR_USAGE', '--max-duration must be a positive number');
    const baseUrl = typeof args.baseUrl === 'string' ? args.baseUrl : undefined;
    if (baseUrl !== undefined && typeof args.target !== 'string') {
      throw new SpgateError('SPGATE_ERR_USAGE', '--base-url needs --target (the keys and fixture ids come from the target file)');
    }
    const records = await readTrace(String(args.trace));
    const before = analyzeRateLimits(traceToSamples(records));

    let opened: OpenTarget | undefined;
    let writer: TraceWriter | undefined;
    try {
      // Replaying into the embedded server: give it the budgets the trace announced, so it limits alike.
      const budget = (cls: 'read' | 'write') => before.classes.find((c) => c.class === cls)?.observedLimit ?? undefined;
      const windowSeconds = before.classes.map((c) => c.windowSeconds).find((w): w is number => w !== null && Number.isInteger(w) && w > 0);
      opened = await openTarget(targetOptions(args, { server: { budgets: { read: budget('read'), write: budget('write'), windowSeconds } } }));
      const target = opened.target;
      checkReplayBounds(records, target, speed, maxDuration);
      if (typeof args.traceOut === 'string') writer = createTraceWriter(args.traceOut);
      const client = createClient({ baseUrl: target.baseUrl, secrets: target.secrets, tls: target.tls, ...clientTimeouts(target) });
      let outcome;
      try {
        outcome = await replayTrace(records, { client, target, speed, ...(writer ? { onRecord: (r: TraceRecord) => writer!.write(r) } : {}) });
      } finally {
        await client.close();
      }
      if (writer) await writer.close();
      writer = undefined;
      const answered = outcome.records.filter((r) => r.status > 0).length;
      if (outcome.records.length > 0 && answered === 0) {
        throw new SpgateError('SPGATE_ERR_TARGET_UNREACHABLE', `${target.baseUrl} answered none of ${outcome.records.length} requests (${outcome.records[0]!.error ?? 'no response'})`);
      }
      const after = analyzeRateLimits(traceToSamples(outcome.records));
      const out = process.stdout;
      out.write(`Replayed ${outcome.records.length} of ${records.length} requests against ${target.source === 'embedded' ? 'the embedded reference server' : target.baseUrl} at speed ${speed}.\n`);
      if (outcome.skipped.length > 0) out.write(`Skipped ${outcome.skipped.length}: ${outcome.skipped[0]!.path} (${outcome.skipped[0]!.reason})${outcome.skipped.length > 1 ? ' and others' : ''}\n`);
      out.write('\n' + formatAnalysis(after) + '\n' + formatComparison(before, after));
      return after.violations.length > 0 ? 1 : 0;
    } finally {
      if (writer) await writer.close().catch(() => undefined);
      if (opened) await opened.close();
    }
  },
};
