/**
 * One POST of a metrics push, retried within a bound: a transport failure, a 5xx or a 429 is tried again
 * (at most MAX_ATTEMPTS times, with a growing pause, never past the push's deadline); any other 4xx is
 * final (the same body would be refused again). A failure rejects with a one-line reason that names the
 * status and the start of the answer, never the URL's credentials (the URL carries none: options.ts moved
 * them into a header). A retry the deadline cuts short tells nothing new: the reason is then what the
 * endpoint answered before (an endpoint answering 503, retried on a loaded machine, was reported as giving
 * no answer in time when its last retry had a quarter of a second left).
 */
import { Agent, request } from 'undici';

/** Attempts of one push, the first included. */
export const MAX_ATTEMPTS = 3;
const FIRST_PAUSE_MS = 250;
/** The most of an answer's body quoted in a reason. */
const QUOTED = 160;

const sleep = (ms: number): Promise<void> => new Promise((resolve) => setTimeout(resolve, ms));

/** A push that failed for good: `reason` is one line. */
export class PushError extends Error {
  constructor(
    readonly reason: string,
    readonly retryable: boolean,
  ) {
    super(reason);
    this.name = 'PushError';
  }
}

/** One line of a transport error: its code when it has one, else the first line of its message. */
function transportReason(err: unknown): string {
  const e = err as { code?: unknown; message?: unknown; name?: unknown };
  if (e?.name === 'TimeoutError' || e?.name === 'AbortError') return 'no answer in time';
  if (typeof e?.code === 'string') return e.code === 'ECONNREFUSED' ? 'connection refused (ECONNREFUSED)' : e.code;
  return typeof e?.message === 'string' ? e.message.split('\n')[0]! : 'transport error';
}

/** POSTs to one endpoint, reusing its connection between pushes; `close()` when done. */
export class MetricsPoster {
  private readonly agent = new Agent({ connections: 1, keepAliveTimeout: 10_000 });

  constructor(
    private readonly url: string,
    private readonly headers: Record<string, string>,
  ) {}

  /** Sends `body` until it is accepted (2xx) or the bound is reached; rejects with a PushError. */
  async post(body: Uint8Array, extraHeaders: Record<string, string>, deadline: number): Promise<void> {
    let pause = FIRST_PAUSE_MS;
    let before: PushError | undefined;
    for (let attempt = 1; ; attempt++) {
      const left = deadline - Date.now();
      if (left <= 0) throw before ?? new PushError('no answer in time', true);
      let failure: PushError;
      try {
        const res = await request(this.url, {
          method: 'POST',
          body,
          headers: { ...this.headers, ...extraHeaders },
          dispatcher: this.agent,
          signal: AbortSignal.timeout(left),
          headersTimeout: left,
          bodyTimeout: left,
        });
        const text = await res.body.text();
        if (res.statusCode >= 200 && res.statusCode < 300) return;
        const quoted = text.replace(/\s+/g, ' ').trim().slice(0, QUOTED);
        const retryable = res.statusCode >= 500 || res.statusCode === 429;
        failure = new PushError(`HTTP ${res.statusCode}${quoted ? `: ${quoted}` : ''}`, retryable);
      } catch (err) {
        const reason = transportReason(err);
        if (before && reason === 'no answer in time') throw before;
        failure = new PushError(reason, true);
      }
      if (!failure.retryable || attempt >= MAX_ATTEMPTS || Date.now() + pause >= deadline) throw failure;
      before = failure;
      await sleep(pause);
      pause *= 2;
    }
  }

  /** Closes the connection (a pending request is dropped). */
  async close(): Promise<void> {
    await this.agent.destroy();
  }
}
