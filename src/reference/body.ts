/**
 * Bounded request-body reading: the limit applies to the bytes actually streamed, not only to
 * Content-Length, and nothing beyond the limit is ever buffered.
 */
import type { IncomingMessage } from 'node:http';

export type BodyOutcome = { ok: true; body: Buffer | null } | { ok: false; reason: 'too_large' | 'aborted' };

/** True when the request announces a body (Content-Length > 0 or any Transfer-Encoding). */
export function hasBody(req: IncomingMessage): boolean {
  const len = req.headers['content-length'];
  return (len !== undefined && len !== '0') || req.headers['transfer-encoding'] !== undefined;
}

/** Reads the whole body up to `limit` bytes; stops reading as soon as the limit is passed. */
export function readBody(req: IncomingMessage, limit: number): Promise<BodyOutcome> {
  const declared = Number(req.headers['content-length']);
  if (Number.isFinite(declared) && declared > limit) return Promise.resolve({ ok: false, reason: 'too_large' });
  return new Promise((resolve) => {
    const chunks: Buffer[] = [];
    let size = 0;
    let done = false;
    const finish = (o: BodyOutcome): void => {
      if (done) return;
      done = true;
      req.off('data', onData);
      req.off('end', onEnd);
      req.off('error', onError);
      req.off('aborted', onError);
      resolve(o);
    };
    const onData = (chunk: Buffer): void => {
      size += chunk.length;
      if (size > limit) {
        chunks.length = 0;
        // stop the flow: the caller answers 413 and closes the connection
        req.pause();
        finish({ ok: false, reason: 'too_large' });
        return;
      }
      chunks.push(chunk);
    };
    const onEnd = (): void => finish({ ok: true, body: size === 0 ? null : Buffer.concat(chunks, size) });
    const onError = (): void => finish({ ok: false, reason: 'aborted' });
    req.on('data', onData);
    req.on('end', onEnd);
    req.on('error', onError);
    req.on('aborted', onError);
  });
}
