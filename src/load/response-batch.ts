/**
 * Responses handed to the recorder in batches rather than one at a time. At full speed a response's own
 * work (counters, histograms, timeline, verification, rate-limit analysis) runs between two rounds of
 * socket and HTTP-parser code that push it out of the CPU's caches, so each response paid for cold code
 * and data; a batch of a few hundred runs that work back to back while it is hot (about 5 % less CPU per
 * response for the closed engine at full speed, paired runs against a bare server). The engine fills one
 * of a fixed set of reused records per response (nothing is allocated per response); the batch goes to the
 * recorder when it is full, and the engine flushes it on a short timer (a slow run's responses are not
 * held back from the progress line) and when it ends.
 */
import type { RouteClass } from '../results/schema.js';
import type { LoadRecorder } from './load-recorder.js';
import type { SampleInput } from './samples.js';

/** A record with every field in place (one object shape for all of them). */
function emptyRecord(): SampleInput {
  return {
    route: 0,
    intended: NaN,
    sent: 0,
    received: 0,
    status: 0,
    limit: undefined,
    remaining: undefined,
    reset: undefined,
    retryAfter: undefined,
    requestId: undefined,
    errorCode: undefined,
    error: undefined,
  };
}

export class ResponseBatch {
  private readonly records: SampleInput[];
  private readonly classes: RouteClass[];
  private n = 0;

  constructor(
    private readonly recorder: LoadRecorder,
    private readonly size = 256,
  ) {
    this.records = Array.from({ length: size }, emptyRecord);
    this.classes = Array.from({ length: size }, (): RouteClass => 'read');
  }

  /** The record the next response is written into; every field must be set, then `commit` called. */
  next(): SampleInput {
    return this.records[this.n]!;
  }

  /** Responses waiting to be handed on. */
  get pending(): number {
    return this.n;
  }

  /** Adds the record `next` gave, sent by class `cls`; hands the batch on when it is full. */
  commit(cls: RouteClass): void {
    this.classes[this.n] = cls;
    if (++this.n === this.size) this.flush();
  }

  /** Hands every pending response to the recorder, in the order they came. */
  flush(): void {
    const n = this.n;
    // Reset first: the recorder's sink never calls back into the batch, but a throw must not replay records.
    this.n = 0;
    for (let i = 0; i < n; i++) {
      const r = this.records[i]!;
      this.recorder.response(r);
    }
  }
}
