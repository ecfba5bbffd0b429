/**
 * A node:http server for limiters that are libraries, not framework plugins (rate-limiter-flexible,
 * limiter): the limiter's wiring is a `gate` that counts one request of a class and writes the rate-limit
 * headers the way a team would by hand; this file answers the spec's 429 envelope or the API.
 */
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import { errorBody, handleApi, limiterKey, requestIds } from './api.js';
import { listenLoopback, readJson, type LimitedServer } from './server.js';

export type RouteClass = 'read' | 'write';

/** Counts one /v1 request and sets RateLimit-* (and Retry-After when refusing); true admits it. */
export type Gate = (cls: RouteClass, key: string, res: ServerResponse) => Promise<boolean>;

function sendJson(res: ServerResponse, status: number, body: unknown): void {
  if (body === undefined) {
    res.writeHead(status).end();
    return;
  }
  res.writeHead(status, { 'content-type': 'application/json; charset=utf-8' }).end(JSON.stringify(body));
}

/** Starts a node:http server with the gate in front of every /v1 route, on a loopback ephemeral port. */
export async function startNodeServer(idPrefix: string, gate: Gate): Promise<LimitedServer> {
  const nextId = requestIds(idPrefix);
  const handle = async (req: IncomingMessage, res: ServerResponse): Promise<void> => {
    const requestId = nextId();
    res.setHeader('X-Request-Id', requestId);
    const url = new URL(req.url ?? '/', 'http://x');
    const body = await readJson(req);
    if (url.pathname.startsWith('/v1/')) {
      const admitted = await gate(req.method === 'GET' ? 'read' : 'write', limiterKey(req.headers.authorization), res);
      if (!admitted) {
        sendJson(res, 429, errorBody('rate_limit.exceeded', 'rate limit exceeded', requestId));
        return;
      }
    }
    const out = handleApi({
      method: req.method ?? 'GET',
      path: url.pathname,
      query: url.searchParams,
      authorization: req.headers.authorization,
      body,
      requestId,
    });
    sendJson(res, out.status, out.body);
  };
  return listenLoopback(
    createServer((req, res) => {
      handle(req, res).catch(() => {
        if (!res.headersSent) sendJson(res, 500, errorBody('internal', 'internal error', String(res.getHeader('X-Request-Id'))));
        else res.end();
      });
    }),
  );
}
