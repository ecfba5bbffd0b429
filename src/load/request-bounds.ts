/**
 * Bounds of one load request in the open model: a whole-request deadline (undici's own timeouts only bound
 * the idle time between chunks, so a server trickling one byte a second would hold a request forever), and
 * a body reader that reports a body cut short (reset mid-body) instead of swallowing it as `dump()` does.
 */

/** Cap on the bytes read from one load response; the rest is discarded by closing the connection. */
export const LOAD_BODY_LIMIT = 1024 * 1024;

/** Why a request ended early, recorded as its transport error. */
export class RequestDeadline extends Error {
  constructor(ms: number) {
    super(`timeout: no complete response within ${ms} ms`);
    this.name = 'RequestDeadline';
  }
}

/** A signal that fires when `parent` does or after `ms`; `clear()` releases the timer and the listener. */
export function deadlineSignal(parent: AbortSignal, ms: number): { signal: AbortSignal; clear: () => void } {
  const c = new AbortController();
  const onParent = (): void => c.abort(parent.reason);
  const timer = setTimeout(() => c.abort(new RequestDeadline(ms)), ms);
  if (parent.aborted) onParent();
  else parent.addEventListener('abort', onParent, { once: true });
  return {
    signal: c.signal,
    clear: () => {
      clearTimeout(timer);
      parent.removeEventListener('abort', onParent);
    },
  };
}

interface BodyStream extends AsyncIterable<Buffer> {
  destroy(err?: Error): unknown;
}

/**
 * Reads a response body to its end (keeping the text only when `keep`), up to LOAD_BODY_LIMIT bytes.
 * Resolves `{ error }` when the body failed (reset, deadline); a body above the limit is not an error.
 */
export async function readLoadBody(
  body: BodyStream,
  keep: boolean,
  contentLength?: string | string[],
): Promise<{ text?: string; error?: string }> {
  // A declared length above the limit is not worth reading at all (as undici's dump() decides).
  if (typeof contentLength === 'string' && Number(contentLength) > LOAD_BODY_LIMIT) {
    body.destroy();
    return {};
  }
  const chunks: Buffer[] = [];
  let bytes = 0;
  try {
    for await (const chunk of body) {
      bytes += chunk.length;
      if (bytes > LOAD_BODY_LIMIT) {
        body.destroy();
        break;
      }
      if (keep) chunks.push(chunk);
    }
  } catch (err) {
    return { error: describeBodyError(err) };
  }
  return keep ? { text: Buffer.concat(chunks).toString('utf8') } : {};
}

/** One line naming a transport failure: the deadline's message, an error code, or the first message line. */
export function describeBodyError(err: unknown): string {
  if (err instanceof RequestDeadline) return err.message;
  const e = err as { code?: unknown; message?: unknown; cause?: unknown };
  if (e?.cause instanceof RequestDeadline) return e.cause.message;
  if (typeof e?.code === 'string') return e.code;
  return typeof e?.message === 'string' ? (e.message.split('\n')[0] ?? 'transport error') : 'transport error';
}
