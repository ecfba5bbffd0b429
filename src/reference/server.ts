/**
 * The reference server's HTTP layer on plain node:http: request id, authentication, rate limiting, bounded
 * body reading, routing and scope checks, then the handler. Order matters: refused requests (429) consume no
 * budget, and every /v1 response carries the rate-limit headers of the bucket it was counted in.
 */
import { createServer, type IncomingHttpHeaders, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Scope } from '../target/schema.js';
import type { App, Call, RouteDef } from './app.js';
import { authenticate } from './auth.js';
import { bodyLimitOf, hasBody, readBody } from './body.js';
import type { Connection } from './connections.js';
import type { FaultSet } from './fault-set.js';
import { FILES_PREFIX, filesOrigin, serveFile } from './files.js';
import { handleFixtures } from './fixtures-api.js';
import type { RateDecision } from './rate-limiter.js';
import { fail, notFound, send, type Reply, type SendOptions } from './reply.js';
import { slowTailHold } from './slow-tail.js';

/** The fixtures API takes bigger bodies (bulk customer seeds) but is still bounded. */
const FIXTURES_BODY_LIMIT = 1 << 20;
/** How much of an oversize body is read and discarded after a 413 before the socket is dropped. */
const DISCARD_LIMIT = 4 << 20;

/** Creates the node:http server for an app (not yet listening). */
export function createHttpServer(app: App): Server {
  const server = createServer({ keepAliveTimeout: 10_000 }, (req, res) => {
    handle(app, req, res).catch((err: unknown) => {
      // a handler bug must not kill the server: answer 500 and keep serving
      if (!res.headersSent) {
        const requestId = newRequestId(app);
        send(res, fail(500, 'internal', err instanceof Error ? err.message : 'internal error'), sendOpts(app, requestId, null));
      } else res.destroy();
    });
  });
  return server;
}

/** Starts listening and resolves with the bound address. */
export function listen(server: Server, port: number, host: string): Promise<AddressInfo> {
  return new Promise((resolve, reject) => {
    const onError = (err: Error): void => reject(err);
    server.once('error', onError);
    server.listen(port, host, () => {
      server.off('error', onError);
      resolve(server.address() as AddressInfo);
    });
  });
}

function newRequestId(app: App): string {
  // request-ids-unprefixed: bare UUIDs (the same id still goes into the header and error.requestId)
  if (app.faults.has('request-ids-unprefixed')) return uuid(app.requestIds);
  return 'req_' + app.requestIds.token(20);
}

/** A version-4-shaped UUID from the seeded request-id stream. */
function uuid(prng: App['requestIds']): string {
  const hex = Array.from({ length: 32 }, () => prng.int(16).toString(16));
  hex[12] = '4';
  hex[16] = (8 + prng.int(4)).toString(16);
  const h = hex.join('');
  return `${h.slice(0, 8)}-${h.slice(8, 12)}-${h.slice(12, 16)}-${h.slice(16, 20)}-${h.slice(20)}`;
}

/** One id maker per app for the request-id-mismatch fault: made once, as a closure per request costs on the hot path. */
const otherIds = new WeakMap<App, () => string>();

function sendOpts(app: App, requestId: string, rate: RateDecision | null, close = false): SendOptions {
  let otherRequestId = otherIds.get(app);
  if (!otherRequestId) otherIds.set(app, (otherRequestId = () => newRequestId(app)));
  return { requestId, rate, faults: app.faults, otherRequestId, close, errorDetails: app.dialect.extras };
}

async function handle(app: App, req: IncomingMessage, res: ServerResponse): Promise<void> {
  const requestId = newRequestId(app);
  const url = req.url ?? '/';
  const qi = url.indexOf('?');
  const pathname = qi < 0 ? url : url.slice(0, qi);
  const method = req.method ?? 'GET';
  if (pathname.startsWith('/v1/')) return handleV1(app, req, res, requestId, method, pathname.slice(3), qi < 0 ? '' : url.slice(qi + 1));
  if (pathname.startsWith(FILES_PREFIX))
    return send(res, serveFile(app, method, pathname, qi < 0 ? '' : url.slice(qi + 1)), sendOpts(app, requestId, null));
  // with the fixtures API switched off /_fixtures is just another unknown path
  if (app.fixturesApi && (pathname === '/_fixtures' || pathname.startsWith('/_fixtures/'))) {
    const body = hasBody(req) ? await readBody(req, FIXTURES_BODY_LIMIT) : { ok: true as const, body: null };
    if (!body.ok) return tooLarge(app, req, res, requestId, null);
    let reply: Reply;
    try {
      reply = handleFixtures(app, method, pathname.slice('/_fixtures'.length) || '/', body.body, filesOrigin(req.headers));
    } finally {
      app.store.touch(); // fixtures change data in place: no cached rendering may outlive the call
    }
    send(res, reply, sendOpts(app, requestId, null));
    return;
  }
  send(res, notFound(), sendOpts(app, requestId, null));
}

async function handleV1(
  app: App,
  req: IncomingMessage,
  res: ServerResponse,
  requestId: string,
  method: string,
  path: string,
  search: string,
): Promise<void> {
  const f = app.faults;
  const cls = method === 'GET' || method === 'HEAD' ? 'read' : 'write';
  // a key of another workspace is authenticated, limited and served by that workspace's own App (5.1)
  const home = workspaceOfKey(app, req.headers.authorization) ?? app;
  const auth = authenticate(req.headers.authorization, home.byKey, f, app.clock());
  // workspace-leak: the key is known, but its requests are served from the first workspace's data (the
  // narrower leaks: on one route only)
  const served = home !== app && (f.has('workspace-leak') || leaksOn(f, method, path)) ? app : home;
  // unauthenticated callers share one anonymous bucket per remote address, so 401 floods are limited too
  const bucketKey = auth.ok ? auth.conn.id : 'anon:' + (req.socket.remoteAddress ?? '?');
  const rate = home.limiter.take(bucketKey, cls);
  if (!rate.allowed)
    return send(
      res,
      fail(429, 'rate_limit.exceeded', 'rate limit exceeded; retry after the time in Retry-After'),
      sendOpts(app, requestId, rate),
    );
  // idempotency-before-auth: a write's Idempotency-Key is looked up before its key is authenticated
  const early = !auth.ok && cls === 'write' ? replayBeforeAuth(home, req, f) : undefined;
  if (early) return send(res, early, sendOpts(app, requestId, rate));
  if (!auth.ok)
    return send(
      res,
      fail(auth.status, auth.code, auth.message),
      sendOpts(app, requestId, charged(home, bucketKey, cls, rate, auth.status)),
    );
  if (f.has('workspace-header-required') && req.headers['x-workspace-id'] === undefined) {
    return send(
      res,
      fail(400, 'request.workspace_required', 'X-Workspace-Id is required'),
      sendOpts(app, requestId, charged(home, bucketKey, cls, rate, 400)),
    );
  }
  let body: Buffer | null = null;
  if (hasBody(req)) {
    const limit = bodyLimitOf(cls, method, path, f);
    const read = await readBody(req, limit.bytes);
    if (!read.ok) {
      if (read.reason === 'too_large') tooLarge(app, req, res, requestId, charged(home, bucketKey, cls, rate, 413), limit.code);
      else res.destroy();
      return;
    }
    body = read.body;
  }
  const match = served.router.match(method, path);
  if (!match) return send(res, notFound(), sendOpts(app, requestId, charged(home, bucketKey, cls, rate, 404)));
  const missing = missingScope(match.def, auth.conn, f);
  if (missing)
    return send(
      res,
      fail(403, 'auth.missing_scope', `this key lacks the scope ${missing}`),
      sendOpts(app, requestId, charged(home, bucketKey, cls, rate, 403)),
    );
  const call = new V1Call(method, match.params, search, req.headers, auth.conn, body);
  let reply: Reply;
  try {
    const out = match.def.handler(served, call);
    reply = out instanceof Promise ? await out : out;
  } finally {
    // writes change records in place: bump the store version once the write is done (or failed half-way)
    if (cls === 'write') served.store.touch();
  }
  const hold = f.has('latency-slow-tail') ? slowTailHold(app) : 0;
  if (hold > 0) await new Promise((r) => setTimeout(r, hold));
  send(res, reply, sendOpts(app, requestId, charged(home, bucketKey, cls, rate, reply.status)));
}

/**
 * The rate decision an answer's headers show: a dialect that charges only accepted requests (strict
 * chargeOnlyAccepted) gives back the charge of a request it answers with a 4xx other than 429.
 */
function charged(home: App, bucketKey: string, cls: 'read' | 'write', rate: RateDecision, status: number): RateDecision {
  return home.dialect.strict.chargeOnlyAccepted && status >= 400 && status < 500 ? home.limiter.refund(bucketKey, cls, rate) : rate;
}

/**
 * A /v1 call whose query string is parsed on first use (a cached page is found by the raw query alone). A
 * class, not an object literal with a getter, so every call has one stable shape for the handlers.
 */
class V1Call implements Call {
  private parsed: URLSearchParams | undefined;

  constructor(
    readonly method: string,
    readonly params: string[],
    readonly rawQuery: string,
    readonly headers: IncomingHttpHeaders,
    readonly conn: Connection,
    readonly body: Buffer | null,
  ) {}

  get query(): URLSearchParams {
    return (this.parsed ??= new URLSearchParams(this.rawQuery));
  }
}

/**
 * A stored reply answered before authentication: under the Idempotency-Key for any caller (the
 * idempotency-before-auth fault), or for the key's own connection, revoked or expired as it may be
 * (idempotency-revoked-own-replay).
 */
function replayBeforeAuth(app: App, req: IncomingMessage, f: FaultSet): Reply | undefined {
  const key = req.headers['idempotency-key'];
  if (typeof key !== 'string') return undefined;
  if (f.has('idempotency-before-auth')) return app.idem.replayByKeyAlone(key);
  if (!f.has('idempotency-revoked-own-replay')) return undefined;
  const header = req.headers.authorization ?? '';
  const conn = app.byKey.get(header.slice(header.indexOf(' ') + 1).trim());
  return conn ? app.idem.replayByKeyAlone(key, conn.id) : undefined;
}

/** The route a narrow workspace-leak fault serves from the first workspace's data to another workspace's key. */
function leaksOn(f: FaultSet, method: string, path: string): boolean {
  if (f.has('workspace-leak-articles') && method === 'GET' && path === '/authoring/articles') return true;
  if (f.has('workspace-leak-me') && method === 'GET' && path === '/me') return true;
  return f.has('workspace-leak-team') && method === 'POST' && /^\/conversations\/[^/]+\/assign$/.test(path);
}

/** The workspace of another key this server answers (by the Bearer token), or undefined for the first's own keys. */
function workspaceOfKey(app: App, header: string | undefined): App | undefined {
  if (!header || app.foreignKeys.size === 0) return undefined;
  const space = header.indexOf(' ');
  return space > 0 ? app.foreignKeys.get(header.slice(space + 1).trim()) : undefined;
}

/** The first scope the route needs that the key lacks; some faults drop one scope requirement of one route. */
function missingScope(def: RouteDef, conn: Connection, f: FaultSet): Scope | undefined {
  for (const s of def.scopes) {
    if (conn.scopes.has(s)) continue;
    if (s === 'attachments:read' && f.has('attachments-single-scope')) continue;
    if (s === 'conversations:read' && def.path.endsWith('/download') && f.has('attachments-conversations-scope-unchecked')) continue;
    if (s === 'conversations:write' && def.path.endsWith('/assign') && f.has('readonly-can-write')) continue;
    if (s === 'customers:write' && def.method === 'DELETE' && def.path === '/customers/:id' && f.has('readonly-can-delete-customers'))
      continue;
    if (s === 'help:read' && def.path === '/authoring/articles' && f.has('scope-unchecked-on-articles')) continue;
    return s;
  }
  return undefined;
}

/** Answers 413, then discards a bounded amount of the rest of the body so the client can read the answer. */
function tooLarge(
  app: App,
  req: IncomingMessage,
  res: ServerResponse,
  requestId: string,
  rate: RateDecision | null,
  code = 'request.body_too_large',
): void {
  send(res, fail(413, code, 'the request body is above the limit of its route class'), sendOpts(app, requestId, rate, true));
  let discarded = 0;
  req.on('data', (chunk: Buffer) => {
    discarded += chunk.length;
    if (discarded > DISCARD_LIMIT) req.socket.destroy();
  });
  req.resume();
}
