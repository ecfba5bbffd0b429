/**
 * The slice of autocannon 8's per-connection client that the closed engine hooks into, and nothing else:
 * autocannon's public API has no per-response hook that carries headers, so the engine replaces three
 * internals of each client as it is set up (`setupClient`):
 * - `requestIterator.recordBody`, called once per response with the raw header array: the engine's hook;
 * - `pipelinedRequests.terminateRequest`, which times the response: its duration goes to the hook, so no
 *   'response' event listener has to run per response to learn it;
 * - the parser's body callback, which decodes every body into a string: only bodies the hook reads (a 429's
 *   error code) are kept, the others are counted as bytes and skipped undecoded.
 * A client without these internals (another autocannon major) is refused with one clear line.
 */
import type autocannon from 'autocannon';

/** A request entry tagged with its route, so the response hook knows which route answered. */
export type TaggedRequest = autocannon.Request & { spgateRoute: number };

/** Receives each response: its request entry, status, body ('' unless kept), raw headers, and duration (ms). */
export type ResponseHook = (req: TaggedRequest | undefined, status: number, body: string, raw: string[] | undefined, durationMs: number) => void;

interface PendingResponse {
  headers: { statusCode?: number };
  body: string;
}

interface Client {
  requestIterator?: { recordBody?: (req: TaggedRequest | undefined, status: number, body: string, raw: string[] | undefined) => void };
  pipelinedRequests?: { terminateRequest?: () => { duration: number } | undefined; peek?: () => PendingResponse | undefined };
  parser?: Record<number, unknown> & { constructor: { kOnBody?: unknown } };
}

/** Hooks `onResponse` into one autocannon client; only bodies of statuses `keepBody` accepts are decoded. */
export function hookClient(c: unknown, onResponse: ResponseHook, keepBody: (status: number) => boolean): void {
  const client = c as Client;
  const iterator = client.requestIterator;
  const queue = client.pipelinedRequests;
  const terminate = queue?.terminateRequest;
  const peek = queue?.peek;
  const parser = client.parser;
  const kOnBody = parser?.constructor.kOnBody;
  if (!iterator || typeof iterator.recordBody !== 'function' || !queue || typeof terminate !== 'function' || typeof peek !== 'function' ||
    !parser || typeof kOnBody !== 'number') {
    throw new Error('autocannon client internals not found (requestIterator, pipelinedRequests, parser): the closed engine needs autocannon 8');
  }
  let duration = 0;
  queue.terminateRequest = () => {
    const done = terminate.call(queue);
    duration = done?.duration ?? 0;
    return done;
  };
  iterator.recordBody = (req, status, body, raw) => onResponse(req, status, body, raw, duration);
  // As autocannon's own callback (a chunk is decoded on its own and appended), for kept statuses only.
  const onBody = (chunk: Buffer, start: number, len: number): void => {
    const head = peek.call(queue);
    if (head && keepBody(head.headers.statusCode ?? 0)) head.body += chunk.toString('utf8', start, start + len);
  };
  // autocannon sets its own body callback after setupClient returns: that assignment is ignored.
  Object.defineProperty(parser, kOnBody, { configurable: true, enumerable: true, get: () => onBody, set: () => undefined });
}
