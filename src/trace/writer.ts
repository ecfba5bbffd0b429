/**
 * Buffered NDJSON trace writer. The load engine calls `write` for every response as it arrives, so `write`
 * never throws: records are sanitised, serialised into a buffer and flushed in large chunks, one write in
 * flight at a time. Backpressure: when the disk falls behind and the queued chunks reach maxQueuedBytes,
 * `write` drains the queue synchronously, which pauses the caller (and so the load generator) until the
 * disk caught up: memory never holds more than that bound, however long the run. Chunks are written at
 * explicit file offsets, so the synchronous drain cannot reorder lines around the write in flight. The
 * file is opened synchronously so a bad path fails before a run starts, not in the middle of it.
 */
import { closeSync, openSync, write as fsWrite, writeSync } from 'node:fs';
import { SpgateError } from '../errors.js';
import type { TraceRecord } from './record.js';
import { sanitizeRecord } from './sanitize.js';

export interface TraceWriter {
  /** Queues one record; never throws (a failure is remembered and reported by close). */
  write(r: TraceRecord): void;
  /** Flushes everything and closes the file; rejects if any write failed. */
  close(): Promise<void>;
  /** Records accepted so far. */
  readonly count: number;
  /** The most bytes ever held in memory (buffer, queue and the write in flight). */
  readonly peakQueuedBytes: number;
}

export interface TraceWriterOptions {
  /** Buffered bytes that make a chunk (default 64 KiB). */
  flushBytes?: number;
  /** Queued bytes beyond which `write` drains the queue synchronously (default 4 MiB). */
  maxQueuedBytes?: number;
}

interface Chunk {
  data: Buffer;
  at: number;
}

/** Opens (truncates) `path` and returns a writer for it; throws SpgateError if the file cannot be created. */
export function createTraceWriter(path: string, opts: TraceWriterOptions = {}): TraceWriter {
  const flushBytes = opts.flushBytes ?? 64 * 1024;
  const maxQueued = opts.maxQueuedBytes ?? 4 * 1024 * 1024;
  let fd: number;
  try {
    fd = openSync(path, 'w');
  } catch (cause) {
    throw new SpgateError('SPGATE_ERR_FILE_NOT_FOUND', `cannot create trace file ${path}: ${(cause as Error).message}`, { cause });
  }
  let buffer: string[] = [];
  let buffered = 0;
  let count = 0;
  let failure: Error | undefined;
  let closed = false;
  // One write in flight at a time, without an unbounded promise chain; the next chunk's file offset.
  let inFlight = 0;
  let offset = 0;
  let queued = 0;
  let peak = 0;
  const queue: Chunk[] = [];
  const idle: Array<() => void> = [];

  const pump = (): void => {
    if (inFlight > 0) return;
    const chunk = queue.shift();
    if (!chunk) {
      for (const done of idle.splice(0)) done();
      return;
    }
    inFlight = chunk.data.length;
    queued -= chunk.data.length;
    writeAll(fd, chunk.data, 0, chunk.at, (err) => {
      inFlight = 0;
      if (err && !failure) failure = err;
      pump();
    });
  };

  /** Backpressure: writes every queued chunk now, blocking the caller until the disk took them. */
  const drainSync = (): void => {
    for (const chunk of queue.splice(0)) {
      queued -= chunk.data.length;
      if (failure) continue;
      try {
        let done = 0;
        while (done < chunk.data.length) done += writeSync(fd, chunk.data, done, chunk.data.length - done, chunk.at + done);
      } catch (err) {
        failure ??= err as Error;
      }
    }
  };

  const flush = (): void => {
    if (buffer.length === 0) return;
    const data = Buffer.from(buffer.join(''), 'utf8');
    queue.push({ data, at: offset });
    offset += data.length;
    queued += data.length;
    buffer = [];
    buffered = 0;
    peak = Math.max(peak, queued + inFlight);
    if (queued > maxQueued) drainSync();
    pump();
  };

  return {
    get count() {
      return count;
    },
    get peakQueuedBytes() {
      return Math.max(peak, buffered);
    },
    write(r: TraceRecord): void {
      if (closed || failure) return;
      try {
        const line = JSON.stringify(sanitizeRecord(r)) + '\n';
        buffer.push(line);
        buffered += line.length;
        count += 1;
        if (buffered >= flushBytes) flush();
      } catch (err) {
        failure ??= err as Error;
      }
    },
    close(): Promise<void> {
      if (closed) return Promise.resolve();
      closed = true;
      flush();
      return new Promise<void>((resolve, reject) => {
        const finish = (): void => {
          try {
            closeSync(fd);
          } catch (err) {
            failure ??= err as Error;
          }
          if (failure)
            reject(new SpgateError('SPGATE_ERR_FILE_NOT_FOUND', `cannot write trace file ${path}: ${failure.message}`, { cause: failure }));
          else resolve();
        };
        if (inFlight === 0 && queue.length === 0) finish();
        else idle.push(finish);
      });
    },
  };
}

function writeAll(fd: number, chunk: Buffer, offset: number, at: number, done: (err: Error | null) => void): void {
  fsWrite(fd, chunk, offset, chunk.length - offset, at + offset, (err, written) => {
    if (err) return done(err);
    if (offset + written < chunk.length) return writeAll(fd, chunk, offset + written, at, done);
    done(null);
  });
}
