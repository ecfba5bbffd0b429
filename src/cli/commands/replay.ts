/**
 * `spgate replay TRACE.ndjson|FILE.har` — re-send a trace with its timing, record, analyze and compare;
 * with `--times N`, N attempts, each from a full budget: how often the violation reproduced, and how
 * faithfully the sends kept the schedule.
 */
import { writeFile } from 'node:fs/promises';
import type { SpgateCommand } from '../command.js';
import { SpgateError } from '../../errors.js';
import { createClient } from '../../client/client.js';
import { analyzeRateLimits } from '../../ratelimit/analyze.js';
import { formatAnalysis, formatComparison } from '../../ratelimit/format.js';
import { openTarget, targetOptions, type OpenTarget } from '../../run/target.js';
import type { Target } from '../../target/schema.js';
import { clientTimeouts } from '../../target/timeouts.js';
import { readTraceInput } from '../../trace/input.js';
import { createAttemptRunner } from '../../shrink/attempts.js';
import { fidelityOf, formatFidelity } from '../../shrink/fidelity.js';
import { scheduleOf } from '../../shrink/schedule.js';
import { describeSignature, pickSignature, shows, type ViolationSignature } from '../../shrink/signature.js';
import type { RateLimitAnalysis } from '../../results/schema.js';
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
      .example("$0 replay burst.ndjson --target t.json --times 10", "send the recorded sequence again, with its timing, ten times")
      .positional('trace', { type: 'string', describe: 'NDJSON trace file', demandOption: true })
      .option('target', { type: 'string', describe: 'target file (default: the embedded reference server)' })
      .option('base-url', { type: 'string', describe: "override the target's base URL (needs --target)" })
      .option('speed', { type: 'number', default: 1, describe: 'timing multiplier (2 = twice as fast)' })
      .option('trace-out', { type: 'string', describe: 'write the new responses as a trace to FILE' })
      .option('max-duration', { type: 'number', default: 60, describe: 'refuse traces longer than this many seconds (after --speed)' })
      .option('times', { type: 'number', describe: 'replay N times, each from a full budget (waits read from the headers); reports "reproduced k/N"' })
      .option('rule', { type: 'string', describe: "with --times: the violation to count (default: the trace's first)" })
      .option('max-wait', { type: 'number', default: 60, describe: 'with --times: the longest wait for the budget to be full again, seconds' })
      .option('json', { type: 'string', describe: 'write the outcome (reproduction rate, fidelity, violations) as JSON to FILE' })
      .option('key-role', { type: 'string', default: 'admin', describe: 'HAR: the key role of its first API key' }),
  run: async (args) => {
    const speed = Number(args.speed);
    const maxDuration = Number(args.maxDuration);
    if (!(speed > 0) || !Number.isFinite(speed)) throw new SpgateError('SPGATE_ERR_USAGE', '--speed must be a positive number');
    if (!(maxDuration > 0)) throw new SpgateError('SPGATE_ERR_USAGE', '--max-duration must be a positive number');
    const baseUrl = typeof args.baseUrl === 'string' ? args.baseUrl : undefined;
    if (baseUrl !== undefined && typeof args.target !== 'string') {
      throw new SpgateError('SPGATE_ERR_USAGE', '--base-url needs --target (the keys and fixture ids come from the target file)');
    }
    const times = args.times === undefined ? undefined : Number(args.times);
    if (times !== undefined && !(Number.isInteger(times) && times >= 1 && times <= 1000)) throw new SpgateError('SPGATE_ERR_USAGE', '--times must be a whole number from 1 to 1000');
    const maxWait = Number(args.maxWait);
    if (!(maxWait > 0)) throw new SpgateError('SPGATE_ERR_USAGE', '--max-wait must be a positive number of seconds');
    if (times !== undefined && speed !== 1) throw new SpgateError('SPGATE_ERR_USAGE', '--times replays at the trace\'s own timing (--speed 1)');
    const { records } = await readTraceInput(String(args.trace), { keyRole: String(args.keyRole ?? 'admin') });
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
      if (times !== undefined) {
        try {
          const sig = before.violations.length > 0 ? pickSignature(before, typeof args.rule === 'string' ? args.rule : undefined).signature : undefined;
          const runner = createAttemptRunner({ client, target, maxWaitMs: maxWait * 1000, known: records });
          const rep = await repeatReplay(records, times, sig, (s) => runner.run(s));
          if (writer) {
            for (const r of rep.last.records) writer.write(r);
            await writer.close();
            writer = undefined;
          }
          const out = process.stdout;
          out.write(`Replayed ${records.length} requests ${times} time(s) against ${target.source === 'embedded' ? 'the embedded reference server' : target.baseUrl}, each from a full budget.\n`);
          out.write(`${rep.line}\n${formatFidelity(rep.fidelity)}\n`);
          out.write('\nLast attempt:\n' + formatAnalysis(rep.last.analysis) + '\n' + formatComparison(before, rep.last.analysis));
          if (typeof args.json === 'string') await writeJson(args.json, rep.json);
          return rep.withViolations > 0 ? 1 : 0;
        } finally {
          await client.close();
        }
      }
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
      out.write(formatFidelity(fidelityOf(outcome.sendErrors)) + '\n');
      out.write('\n' + formatAnalysis(after) + '\n' + formatComparison(before, after));
      if (typeof args.json === 'string') await writeJson(args.json, { attempts: 1, fidelity: fidelityOf(outcome.sendErrors), violations: after.violations });
      return after.violations.length > 0 ? 1 : 0;
    } finally {
      if (writer) await writer.close().catch(() => undefined);
      if (opened) await opened.close();
    }
  },
};

async function writeJson(path: string, value: unknown): Promise<void> {
  try {
    await writeFile(path, JSON.stringify(value, null, 2) + '\n');
  } catch (cause) {
    throw new SpgateError('SPGATE_ERR_FILE_NOT_FOUND', `cannot write ${path}`, { cause });
  }
}

/** N attempts of the trace's schedule: how many showed the violation (or any, when the trace shows none). */
async function repeatReplay(records: readonly TraceRecord[], times: number, sig: ViolationSignature | undefined, attempt: (s: ReturnType<typeof scheduleOf>) => Promise<{ records: TraceRecord[]; analysis: RateLimitAnalysis; sendErrors: number[]; waitedMs: number }>) {
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
  const line = sig ? `reproduced ${k}/${times} (${describeSignature(sig)})` : `the trace shows no violation; violations in ${k}/${times} attempt(s)`;
  return {
    last: last!,
    fidelity,
    line,
    withViolations: per.filter((p) => p.rules.length > 0).length,
    json: { attempts: times, reproduced: k, ...(sig ? { violation: sig } : {}), fidelity, perAttempt: per },
  };
}
