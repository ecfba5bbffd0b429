/**
 * Buffered NDJSON trace writer. The load engine calls `write` for every response, so `write` never throws
 * and never waits: records are sanitised, serialised into a buffer and flushed in large chunks. The file is
 * opened synchronously so a bad path fails before a run starts, not in the middle of it.
 */
import { closeSync, openSync, write as fsWrite } from 'node:fs';
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
}

const FLUSH_BYTES = 64 * 1024;

/** Opens (truncates) `path` and returns a writer for it; throws SpgateError if the file cannot be created. */
export function createTraceWriter(path: string): TraceWriter {
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
  // One write in flight at a time keeps lines in order without an unbounded promise chain.
  let inFlight = false;
  const queue: Buffer[] = [];
  const idle: Array<() => void> = [];

  const pump = (): void => {
    if (inFlight) return;
    const chunk = queue.shift();
    if (!chunk) {
      for (const done of idle.splice(0)) done();
      return;
    }
    inFlight = true;
    writeAll(fd, chunk, 0, (err) => {
      inFlight = false;
      if (err && !failure) failure = err;
      pump();
    });
  };

  const flush = (): void => {
    if (buffer.length === 0) return;
    queue.push(Buffer.from(buffer.join(''), 'utf8'));
    buffer = [];
    buffered = 0;
    pump();
  };

  return {
    get count() {
      return count;
    },
    write(r: TraceRecord): void {
      if (closed || failure) return;
      try {
        const line = JSON.stringify(sanitizeRecord(r)) + '\n';
        buffer.push(line);
        buffered += line.length;
        count += 1;
        if (buffered >= FLUSH_BYTES) flush();
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
          if (failure) reject(new SpgateError('SPGATE_ERR_FILE_NOT_FOUND', `cannot write trace file ${path}: ${failure.message}`, { cause: failure }));
          else resolve();
        };
        if (!inFlight && queue.length === 0) finish();
        else idle.push(finish);
      });
    },
  };
}

function writeAll(fd: number, chunk: Buffer, offset: number, done: (err: Error | null) => void): void {
  fsWrite(fd, chunk, offset, chunk.length - offset, null, (err, written) => {
    if (err) return done(err);
    if (offset + written < chunk.length) return writeAll(fd, chunk, offset + written, done);
    done(null);
  });
}
