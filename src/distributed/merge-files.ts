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
import { mergeSkewMs } from './clock.js';
import { TraceFold } from './merge-fold.js';
import { checkShardSet, mergedDurationMs, mergeProfile, offsetOf, shiftRecord, type ShardInput, type ShardSet } from './merge.js';
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
  const fold = new TraceFold(
    { expected: first.shard.expected, strict: first.shard.strict },
    mergedDurationMs(set),
    mergeSkewMs(set.shards.map((s) => s.shard.clock)),
  );
  const writer = opts.traceOut ? createTraceWriter(opts.traceOut) : undefined;
  const streams = set.shards.map((s) => ({
    index: s.shard.index,
    offset: offsetOf(set, s),
    horizonMs: latencyHorizonMs(s.result),
    lines: streamTrace(inputs.find((i) => i.shard.index === s.shard.index)!.tracePath),
  }));
  await kWayMerge(streams, (index, offset, r, seq, watermark) => {
    fold.add(index, offset, r, seq, watermark);
    writer?.write(shiftRecord(r, offset));
  });
  await writer?.close();
  const { result, findings } = mergeProfile(set, fold);
  if (opts.traceOut) result.trace = opts.traceOut;
  const finished = Math.max(...inputs.map((i) => Date.parse(i.doc.meta.finishedAt)).filter((n) => Number.isFinite(n)));
  const ids = new Set(inputs.map((i) => i.doc.meta.runId));
  const [runId] = ids;
  return {
    result,
    findings,
    first: first.doc,
    set,
    finishedAt: new Date(Number.isFinite(finished) ? finished : Date.now()),
    ...(ids.size === 1 && runId ? { runId } : {}),
  };
}

/**
 * The longest an answered response of the shard took (ms), from its results' latency summaries (the
 * uncorrected view: from the actual send, as its trace records it), with a margin for rounding: no answered
 * record arrives later than this after it was sent.
 */
function latencyHorizonMs(r: ProfileResult): number {
  let max = 0;
  for (const s of r.latency) if (!s.corrected && s.max > max) max = s.max;
  return max + 2;
}

interface Stream {
  index: number;
  offset: number;
  /** latencyHorizonMs of the shard. */
  horizonMs: number;
  lines: AsyncGenerator<TraceRecord>;
}

interface Pending {
  r: TraceRecord;
  seq: number;
  /** Response time on the merged clock. */
  at: number;
  /** Send time on the merged clock. */
  sent: number;
}

/**
 * One shard's records read ahead of the merge: a queue in trace order (response time), and beside it the
 * earliest send among its answered records (a monotonic queue: the minimum in O(1) as records leave).
 */
class Lookahead {
  private readonly queue: Pending[] = [];
  private head = 0;
  private readonly mins: Pending[] = [];
  private minHead = 0;
  private seq = 0;
  done = false;

  constructor(readonly s: Stream) {}

  /** The next record to feed, if any is read. */
  peek(): Pending | undefined {
    return this.queue[this.head];
  }

  /** Reads ahead until a record answered at or after `until` (merged clock) is held, or the trace ends. */
  async fill(until: number): Promise<void> {
    while (!this.done) {
      const last = this.queue[this.queue.length - 1];
      if (this.head < this.queue.length && last && last.at >= until) return;
      const n = await this.s.lines.next();
      if (n.done) {
        this.done = true;
        return;
      }
      const sent = this.s.offset + n.value.t;
      const p: Pending = { r: n.value, seq: ++this.seq, at: sent + n.value.latency, sent };
      this.queue.push(p);
      if (p.r.status !== 0) {
        while (this.mins.length > this.minHead && this.mins[this.mins.length - 1]!.sent >= sent) this.mins.pop();
        this.mins.push(p);
      }
    }
  }

  /** Takes the next record off the queue. */
  take(): Pending {
    const p = this.queue[this.head]!;
    this.queue[this.head++] = undefined as unknown as Pending;
    if (this.mins[this.minHead] === p) this.mins[this.minHead++] = undefined as unknown as Pending;
    if (this.head > 4096 && this.head * 2 > this.queue.length) {
      this.queue.splice(0, this.head);
      this.head = 0;
    }
    if (this.minHead > 4096 && this.minHead * 2 > this.mins.length) {
      this.mins.splice(0, this.minHead);
      this.minHead = 0;
    }
    return p;
  }

  /**
   * The earliest send among the shard's answered records not yet fed: those read ahead, and a bound for
   * the rest (read ahead up to `at`, they were answered at or after it, so sent at most horizonMs before).
   */
  earliestUnfed(): number {
    const held = this.mins[this.minHead]?.sent ?? Infinity;
    const last = this.queue[this.queue.length - 1];
    const rest = this.done ? Infinity : (last?.at ?? -Infinity) - this.s.horizonMs;
    return Math.min(held, rest);
  }
}

/**
 * Feeds every record of every stream in order of its response time on the merged clock, with the
 * watermark of the merged run at that moment: the earliest send among the answered records not fed yet.
 * Each shard is read ahead by its latency horizon (what is still in flight when a record is answered), so
 * memory holds the records of one horizon per shard.
 */
async function kWayMerge(
  streams: Stream[],
  onRecord: (index: number, offset: number, r: TraceRecord, seq: number, watermark: number) => void,
): Promise<void> {
  const ahead = streams.map((s) => new Lookahead(s));
  for (const a of ahead) await a.fill(-Infinity);
  for (;;) {
    let best: Lookahead | undefined;
    for (const a of ahead) {
      const h = a.peek();
      if (h && (!best || h.at < best.peek()!.at)) best = a;
    }
    if (!best) return;
    const p = best.take();
    // Every record answered up to a horizon past this one is read, so what is unread was sent after it.
    for (const a of ahead) await a.fill(p.at + a.s.horizonMs);
    let watermark = Infinity;
    for (const a of ahead) watermark = Math.min(watermark, a.earliestUnfed());
    onRecord(best.s.index, best.s.offset, p.r, p.seq, watermark);
  }
}
