/**
 * Bounded request-body reading: the limit applies to the bytes actually streamed, not only to
 * Content-Length, and nothing beyond the limit is ever buffered.
 */
import type { IncomingMessage } from 'node:http';
import type { FaultSet } from './fault-set.js';
import { READ_BODY_LIMIT, WRITE_BODY_LIMIT } from './routes.js';

/** With a write-limit fault the server still stops somewhere: it is a bug, not an unbounded buffer. */
const FAULTY_WRITE_LIMIT = 8 << 20;
const COLLECTION_PATH = /^\/authoring\/collections\/[^/]+$/;

/** The body limit of one /v1 request and the error code its 413 answer carries. */
export interface BodyLimit {
  bytes: number;
  code: string;
}

/**
 * The limit of a request's route class (8: 1 KB reads, 64 KB writes; 4.9: 64 KiB for the collection update),
 * as the faults bend it: a limit missing on a whole class, a limit enforced on one route of its class only,
 * or the collection route's own limit answering another code.
 */
export function bodyLimitOf(cls: 'read' | 'write', method: string, path: string, f: FaultSet): BodyLimit {
  const code = 'request.body_too_large';
  if (cls === 'read') {
    const lax = f.has('body-limit-ignored') || (f.has('read-body-limit-customers-only') && path !== '/customers');
    return { bytes: lax ? WRITE_BODY_LIMIT : READ_BODY_LIMIT, code };
  }
  if (f.has('write-body-limit-ignored')) return { bytes: FAULTY_WRITE_LIMIT, code };
  if (f.has('write-body-limit-assign-only') && !(method === 'POST' && path.endsWith('/assign'))) return { bytes: FAULTY_WRITE_LIMIT, code };
  if (f.has('collection-body-limit-code') && method === 'PUT' && COLLECTION_PATH.test(path))
    return { bytes: WRITE_BODY_LIMIT, code: 'help.payload_too_large' };
  // collection-limit-64000: "64 KiB" read as 64,000 bytes on the collection update
  if (f.has('collection-limit-64000') && method === 'PUT' && COLLECTION_PATH.test(path)) return { bytes: 64_000, code };
  return { bytes: WRITE_BODY_LIMIT, code };
}

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
