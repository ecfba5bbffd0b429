/**
 * The exact merge of a distributed run's shards into one ProfileResult. Counts add; latency histograms
 * merge losslessly (merge-hdr); responses are placed on one clock (the earliest shard's start) from the
 * shards' trace records (merge-fold), where the rate-limit analysis runs over every shard's samples at
 * once; thresholds are evaluated on the merged figures, and the result is put together by the one
 * assembler a live run ends through (src/fold/profile-result.ts). A shard that is missing makes the result
 * incomplete and says which: a partial figure is never presented as the whole. Pure; merge-files does I/O.
 */
import { SpgateError } from '../errors.js';
import { compare, evaluateThreshold, parseThreshold, type ThresholdContext, type ThresholdOutcome } from '../fold/threshold.js';
import { combineGenerators } from '../fold/generator-verdict.js';
import { profileResult } from '../fold/profile-result.js';
import { MergedHistograms } from './merge-hdr.js';
import { violationFindings } from '../load/findings.js';
import type { TraceFold } from './merge-fold.js';
import type { TraceRecord } from '../trace/record.js';
import type { FindingRecord, ProfileResult, ShardRecord } from '../results/schema.js';

export interface ShardInput {
  /** Where the shard's results came from (for messages). */
  path: string;
  result: ProfileResult;
  shard: ShardRecord;
}

export interface ShardSet {
  count: number;
  /** Present shards, by index. */
  shards: ShardInput[];
  missing: number[];
  /** Why a missing shard is missing, when known (a crashed worker). */
  missingWhy: Map<number, string>;
  /** Epoch ms of the merged clock's origin: the earliest shard start. */
  originMs: number;
}

/** Checks that the shards belong to one run; throws SPGATE_ERR_SHARD_MISMATCH naming the first conflict. */
export function checkShardSet(inputs: ShardInput[], missingWhy = new Map<number, string>()): ShardSet {
  if (inputs.length === 0) throw new SpgateError('SPGATE_ERR_SHARD_INVALID', 'no shard results to merge');
  const first = inputs[0]!;
  const byIndex = new Map<number, ShardInput>();
  for (const s of inputs) {
    const mismatch = (what: string, a: string, b: string): never => {
      throw new SpgateError('SPGATE_ERR_SHARD_MISMATCH', `${s.path} is from a different run than ${first.path}: ${what} ${b} vs ${a}`);
    };
    // The profile's own name, not the path it was given by: machines may keep the same file in different places.
    if (s.result.name !== first.result.name) mismatch('profile', first.result.name, s.result.name);
    if (s.shard.target.name !== first.shard.target.name || s.shard.target.baseUrl !== first.shard.target.baseUrl) {
      mismatch('target', `${first.shard.target.name} ${first.shard.target.baseUrl}`, `${s.shard.target.name} ${s.shard.target.baseUrl}`);
    }
    if (s.shard.count !== first.shard.count) mismatch('shard count', String(first.shard.count), String(s.shard.count));
    if (s.shard.index >= s.shard.count)
      throw new SpgateError('SPGATE_ERR_SHARD_INVALID', `${s.path}: shard index ${s.shard.index} is out of range 0..${s.shard.count - 1}`);
    const dup = byIndex.get(s.shard.index);
    if (dup)
      throw new SpgateError(
        'SPGATE_ERR_SHARD_MISMATCH',
        `shard ${s.shard.index}/${s.shard.count} appears twice: ${dup.path} and ${s.path}`,
      );
    byIndex.set(s.shard.index, s);
  }
  const count = first.shard.count;
  const missing: number[] = [];
  for (let i = 0; i < count; i++) if (!byIndex.has(i)) missing.push(i);
  const shards = [...byIndex.values()].sort((a, b) => a.shard.index - b.shard.index);
  return { count, shards, missing, missingWhy, originMs: Math.min(...shards.map((s) => s.shard.startedAtEpochMs)) };
}

/** Milliseconds between the merged origin and this shard's start. */
export function offsetOf(set: ShardSet, s: ShardInput): number {
  return s.shard.startedAtEpochMs - set.originMs;
}

/** A shard's record on the merged clock: its send and intended send times moved by the shard's offset. */
export function shiftRecord(r: TraceRecord, offsetMs: number): TraceRecord {
  return r.intended === undefined ? { ...r, t: offsetMs + r.t } : { ...r, t: offsetMs + r.t, intended: offsetMs + r.intended };
}

/** The merged run's duration (ms): from the origin to the last shard's end. */
export function mergedDurationMs(set: ShardSet): number {
  return Math.max(...set.shards.map((s) => offsetOf(set, s) + s.result.durationMs));
}

/** Merges a checked shard set, given the fold of all of its trace records. */
export function mergeProfile(set: ShardSet, fold: TraceFold): { result: ProfileResult; findings: FindingRecord[] } {
  const first = set.shards[0]!;
  for (const s of set.shards) {
    const expected = s.result.totals.completed + s.result.totals.errors;
    const seen = fold.perShard.get(s.shard.index) ?? 0;
    if (seen !== expected) {
      throw new SpgateError(
        'SPGATE_ERR_SHARD_INVALID',
        `shard ${s.shard.index}/${set.count}: its trace holds ${seen} responses but ${s.path} counts ${expected} (trace cut short or from another run)`,
      );
    }
  }
  // Responses are counted by the fold of every record (checked above against each shard's own count);
  // sends and drops, which have no record, add up from the shards' results.
  const tally = fold.tally;
  const counts = { sent: 0, dropped: 0, errors: tally.count('transport') };
  for (const { result: r } of set.shards) {
    counts.sent += r.totals.sent;
    counts.dropped += r.totals.dropped;
  }
  const hist = new MergedHistograms(set.shards.map((s) => s.result.latency));
  const points = fold.timeline(set.shards.map((s) => ({ offsetMs: offsetOf(set, s), timeline: s.result.timeline })));

  const analysis = fold.analysis();
  const strict = first.shard.strict;
  const verified = fold.verifier.findings(strict, first.result.name);
  const routes = routesOf(first.result.config);
  const findings = [
    ...verified,
    ...violationFindings(analysis.violations, verified, routes, strict, first.result.name, ' across all shards'),
  ];

  const singleClass = routes.every((r) => r.class === routes[0]?.class);
  // Each shard measured its own generator; the merged run's verdict is the worst of them (generator-verdict.ts).
  const generatorParts = set.shards.map((s) => s.result.generator);
  const generator = generatorParts.every((g) => g !== undefined) ? combineGenerators(generatorParts.map((g) => g!)) : undefined;
  const thresholds = (ctx: ThresholdContext): ThresholdOutcome[] =>
    first.result.thresholds.map((t) => {
      const parsed = parseThreshold(t.expression);
      if (!parsed.ok) return { expression: t.expression, ok: false, actual: parsed.error };
      const th = parsed.threshold;
      if (th.kind === 'count' && th.metric === 'dropped' && th.class && !singleClass) {
        // Results count drops per run, not per class; but each shard evaluated this very count, and its
        // outcome's `actual` is that count: drops add across shards.
        const perShard = set.shards.map((s) => Number(s.result.thresholds.find((x) => x.expression === t.expression)?.actual));
        if (perShard.some((n) => !Number.isInteger(n)))
          return { expression: t.expression, ok: false, actual: 'not known across shards (a shard did not count it)' };
        const v = perShard.reduce((a, b) => a + b, 0);
        return { expression: t.expression, ok: compare(v, th.op, th.value), actual: String(v) };
      }
      return evaluateThreshold(th, ctx);
    });

  const notes = [
    ...((first.result.config.notes as string[] | undefined) ?? []).filter((n) => !n.startsWith('shard ')),
    `merged from ${set.shards.length} of ${set.count} shards; the configuration shown is shard ${first.shard.index}'s (each ran its share)`,
  ];
  const skew = fold.skewMs;
  if (skew > 0)
    notes.push(
      `the shards ran on more than one machine's clock (or did not say which): for the rate-limit analysis every response's send-to-answer interval is widened by ${skew} ms each way (clocks assumed to agree within ${skew} ms)`,
    );
  const present = set.shards.map((s) => s.shard.index);
  let error: string | undefined;
  if (set.missing.length) {
    const why = set.missing.map((i) => `${i}/${set.count}${set.missingWhy.has(i) ? ` (${set.missingWhy.get(i)})` : ''}`);
    error = `incomplete: shard ${why.join(', ')} missing; every figure covers shards ${present.join(', ')} only`;
  } else {
    const failed = set.shards.find((s) => s.result.status === 'error');
    if (failed) error = `shard ${failed.shard.index}/${set.count}: ${failed.result.error ?? 'error'}`;
  }
  const capacity = set.shards.find((s) => s.result.capacity)?.result.capacity;
  // Connection churn adds up like the other counters; a shard that did not count it (results of an older
  // spgate) leaves it out rather than showing a part as the whole.
  const churn = set.shards.map((s) => s.result.connections);
  const connections = churn.every((c) => c !== undefined)
    ? { opened: churn.reduce((n, c) => n + c!.opened, 0), resent: churn.reduce((n, c) => n + c!.resent, 0) }
    : undefined;
  return profileResult({
    head: {
      name: first.result.name,
      description: first.result.description,
      model: first.result.model,
      config: { ...first.result.config, notes },
    },
    startedAt: new Date(set.originMs).toISOString(),
    durationMs: mergedDurationMs(set),
    tally,
    counts,
    figures: {
      histogram: (cls, family) => hist.merged(cls, family),
      range: (cls, family) => hist.range(cls, family),
      // Results count sends per run, not per class: a class's sends are its responses and transport failures.
      sent: (cls) => (cls ? tally.byClass[cls].records : counts.sent),
      // With one class, the run's drops are the class's (class-narrowed drops of two classes: see above).
      dropped: () => counts.dropped,
    },
    latency: hist.summaries(),
    points,
    analysis,
    rateLimitSeries: fold.rateLimitSeries(),
    findings,
    thresholds,
    error,
    aborted: set.shards.some((s) => s.result.status === 'aborted'),
    capacity: capacity ? { p95Ms: capacity.sloP95Ms, maxErrorPct: capacity.maxErrorPct } : undefined,
    generator,
    connections,
    merged: { count: set.count, shards: present, missing: set.missing },
  });
}

/** The routes a shard ran, from its config (class, method, path template), for reproduction lines. */
function routesOf(config: Record<string, unknown>): Array<{ class: string; method: string; path: string }> {
  const classes = (config.classes as Array<{ class: string; routes?: Array<{ method: string; path: string }> }> | undefined) ?? [];
  return classes.flatMap((c) => (c.routes ?? []).map((r) => ({ class: c.class, method: r.method, path: r.path })));
}
