/**
 * Classification of transport failures into the few kinds the rest of spgate reasons about. Node and
 * undici report the same failure under several codes (and nest the real one in `cause`, or in an
 * AggregateError when both IPv4 and IPv6 were tried), so the whole chain is searched.
 */
import type { ClientError, ClientErrorKind } from './exchange.js';

/** Thrown inside the client to end a request early; carries the kind it should be recorded as. */
export class ClientAbort extends Error {
  readonly kind: ClientErrorKind;
  constructor(kind: ClientErrorKind, message: string) {
    super(message);
    this.name = 'ClientAbort';
    this.kind = kind;
  }
}

const KIND_BY_CODE: Record<string, ClientErrorKind> = {
  ECONNREFUSED: 'refused',
  // A name that does not resolve is a target that cannot be reached, like a refused connection.
  ENOTFOUND: 'refused',
  EAI_AGAIN: 'refused',
  ECONNRESET: 'reset',
  EPIPE: 'reset',
  ECONNABORTED: 'reset',
  UND_ERR_SOCKET: 'reset',
  UND_ERR_CLOSED: 'reset',
  UND_ERR_RES_CONTENT_LENGTH_MISMATCH: 'reset',
  ETIMEDOUT: 'timeout',
  UND_ERR_CONNECT_TIMEOUT: 'timeout',
  UND_ERR_HEADERS_TIMEOUT: 'timeout',
  UND_ERR_BODY_TIMEOUT: 'timeout',
  UND_ERR_RES_EXCEEDED_MAX_SIZE: 'too-large',
  UND_ERR_HEADERS_OVERFLOW: 'too-large',
};

/** Maps any error thrown by a request to a one-line ClientError (not yet redacted). */
export function classifyTransportError(err: unknown): ClientError {
  for (const e of errorChain(err)) {
    if (e instanceof ClientAbort) return { kind: e.kind, message: e.message };
  }
  for (const e of errorChain(err)) {
    const code = (e as { code?: unknown }).code;
    if (typeof code === 'string' && KIND_BY_CODE[code]) return { kind: KIND_BY_CODE[code], message: describe(e, code) };
  }
  const top = err instanceof Error ? err : new Error(String(err));
  const code = (top as { code?: unknown }).code;
  return { kind: 'other', message: describe(top, typeof code === 'string' ? code : undefined) };
}

function describe(e: Error, code: string | undefined): string {
  const msg = (e.message || e.name).split(/\r?\n/, 1)[0] ?? '';
  return code && !msg.includes(code) ? `${code}: ${msg}` : msg;
}

function errorChain(err: unknown): Error[] {
  const out: Error[] = [];
  const queue: unknown[] = [err];
  while (queue.length > 0 && out.length < 20) {
    const e = queue.shift();
    if (!(e instanceof Error) || out.includes(e)) continue;
    out.push(e);
    if (e.cause !== undefined) queue.push(e.cause);
    if (e instanceof AggregateError) queue.push(...(e.errors as unknown[]));
  }
  return out;
}
