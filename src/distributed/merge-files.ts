/**
 * The I/O side of `spgate merge` (and of `load --workers`): reads the shards' results files, finds each
 * shard's trace (beside its results file first, as CI artifacts and shared volumes put them, then at the
 * path the shard recorded), streams the traces in a k-way merge on the merged clock into the fold — one
 * record per trace in memory besides what the analyzer keeps — and optionally writes the merged trace.
 */
import { existsSync } from 'node:fs';
import { basename, dirname, isAbsolute, join, resolve } from 'node:path';
import { SpgateError } from '../errors.js';
import { streamTrace } from '../trace/reader.js';
import type { TraceRecord } from '../trace/record.js';
import { createTraceWriter } from '../trace/writer.js';
import { readResults } from '../results/io.js';
import { TraceFold } from './merge-fold.js';
import { checkShardSet, mergedDurationMs, mergeProfile, offsetOf, seriesBucketMs, type ShardInput, type ShardSet } from './merge.js';
import type { FindingRecord, ProfileResult, Results } from '../results/schema.js';

export interface MergeFilesOptions {
  paths: string[];
  /** Write the merged trace (times on the merged clock) here. */
  traceOut?: string;
  /** Shards known to be missing and why (a worker that crashed), for the incomplete verdict. */
  missingWhy?: Map<number, string>;
}

export interface MergedFiles {
  result: ProfileResult;
  findings: FindingRecord[];
  /** The first shard's results document (meta: target, command line). */
  first: Results;
  set: ShardSet;
  finishedAt: Date;
  /** The run id every shard carries, when they share one (CTRF: one report for the run). */
  runId?: string;
}

/** Reads one shard's results file; it must hold exactly one profile with a shard record. */
export async function readShard(path: string): Promise<ShardInput & { doc: Results; tracePath: string }> {
  const doc = await readResults(path);
  const sharded = doc.load.filter((p) => p.shard);
  if (sharded.length !== 1) {
    throw new SpgateError('SPGATE_ERR_SHARD_INVALID', `${path} is not a shard's results (written by spgate load --shard i/N --json FILE)`);
  }
  const result = sharded[0]!;
  if (!result.trace) throw new SpgateError('SPGATE_ERR_SHARD_INVALID', `${path} names no trace; shard runs write one (--trace)`);
  return { path, result, shard: result.shard!, doc, tracePath: locateTrace(path, result.trace) };
}

/** The shard's trace: beside its results file first, then where the shard wrote it. */
function locateTrace(resultsPath: string, recorded: string): string {
  const beside = join(dirname(resultsPath), basename(recorded));
  if (existsSync(beside)) return beside;
  const asRecorded = isAbsolute(recorded) ? recorded : resolve(recorded);
  if (existsSync(asRecorded)) return asRecorded;
  throw new SpgateError('SPGATE_ERR_SHARD_INVALID', `the trace of ${resultsPath} is missing: looked for ${beside} and ${asRecorded}`);
}

/** Reads, checks and merges shard results files. */
export async function mergeShardFiles(opts: MergeFilesOptions): Promise<MergedFiles> {
  const inputs: Array<Awaited<ReturnType<typeof readShard>>> = [];
  for (const p of opts.paths) inputs.push(await readShard(p));
  const set = checkShardSet(inputs, opts.missingWhy);
  const first = inputs.find((i) => i.shard.index === set.shards[0]!.shard.index)!;
  const fold = new TraceFold({ expected: first.shard.expected, strict: first.shard.strict }, seriesBucketMs(mergedDurationMs(set)));
  const writer = opts.traceOut ? createTraceWriter(opts.traceOut) : undefined;
  const streams = set.shards.map((s) => ({ index: s.shard.index, offset: offsetOf(set, s), lines: streamTrace(inputs.find((i) => i.shard.index === s.shard.index)!.tracePath) }));
  await kWayMerge(streams, (index, offset, r, seq) => {
    fold.add(index, offset, r, seq);
    writer?.write({ ...r, t: offset + r.t });
  });
  await writer?.close();
  const { result, findings } = mergeProfile(set, fold);
  if (opts.traceOut) result.trace = opts.traceOut;
  const finished = Math.max(...inputs.map((i) => Date.parse(i.doc.meta.finishedAt)).filter((n) => Number.isFinite(n)));
  const ids = new Set(inputs.map((i) => i.doc.meta.runId));
  const [runId] = ids;
  return { result, findings, first: first.doc, set, finishedAt: new Date(Number.isFinite(finished) ? finished : Date.now()), ...(ids.size === 1 && runId ? { runId } : {}) };
}

interface Stream {
  index: number;
  offset: number;
  lines: AsyncGenerator<TraceRecord>;
}

/** Feeds every record of every stream in order of its response time on the merged clock. */
async function kWayMerge(streams: Stream[], onRecord: (index: number, offset: number, r: TraceRecord, seq: number) => void): Promise<void> {
  const heads: Array<{ s: Stream; r: TraceRecord; seq: number } | undefined> = [];
  for (const s of streams) {
    const n = await s.lines.next();
    heads.push(n.done ? undefined : { s, r: n.value, seq: 1 });
  }
  for (;;) {
    let best = -1;
    let bestAt = Infinity;
    heads.forEach((h, i) => {
      if (!h) return;
      const at = h.s.offset + h.r.t + h.r.latency;
      if (at < bestAt) {
        bestAt = at;
        best = i;
      }
    });
    if (best < 0) return;
    const h = heads[best]!;
    onRecord(h.s.index, h.s.offset, h.r, h.seq);
    const n = await h.s.lines.next();
    heads[best] = n.done ? undefined : { s: h.s, r: n.value, seq: h.seq + 1 };
  }
}
