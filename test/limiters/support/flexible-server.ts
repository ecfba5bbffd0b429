/**
 * node:http + rate-limiter-flexible's RateLimiterMemory (one limiter per route class, fixed windows that
 * start at a key's first request). The library sets no headers: the mapping below is the one its README's
 * middleware examples suggest (Remaining = remainingPoints, Reset and Retry-After = msBeforeNext in whole
 * seconds, rounded up). Options switch on the header-mapping bugs teams write by hand.
 */
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import { RateLimiterMemory, RateLimiterRes } from 'rate-limiter-flexible';
import { errorBody, handleApi, limiterKey, requestIds } from './api.js';
import { listenLoopback, readJson, type Budgets, type LimitedServer } from './server.js';

export interface FlexibleOptions {
  budgets: Budgets;
  /** Misconfiguration: RateLimit-Reset and Retry-After written from msBeforeNext without dividing by 1000. */
  resetInMs?: boolean;
  /** Misconfiguration: the headers read from `get()` before `consume()`, so Remaining omits this request. */
  remainingBeforeCount?: boolean;
}

function sendJson(res: ServerResponse, status: number, body: unknown): void {
  if (body === undefined) {
    res.writeHead(status).end();
    return;
  }
  res.writeHead(status, { 'content-type': 'application/json; charset=utf-8' }).end(JSON.stringify(body));
}

/** Starts the node:http server on a loopback ephemeral port. */
export async function startFlexibleServer(opts: FlexibleOptions): Promise<LimitedServer> {
  const limiters = {
    read: new RateLimiterMemory({ points: opts.budgets.read.limit, duration: opts.budgets.read.windowSeconds, keyPrefix: 'read' }),
    write: new RateLimiterMemory({ points: opts.budgets.write.limit, duration: opts.budgets.write.windowSeconds, keyPrefix: 'write' }),
  };
  const nextId = requestIds('f');
  const seconds = (ms: number): number => (opts.resetInMs ? Math.ceil(ms) : Math.ceil(ms / 1000));

  const handle = async (req: IncomingMessage, res: ServerResponse): Promise<void> => {
    const requestId = nextId();
    res.setHeader('X-Request-Id', requestId);
    const url = new URL(req.url ?? '/', 'http://x');
    const body = await readJson(req);
    if (url.pathname.startsWith('/v1/')) {
      const cls = req.method === 'GET' ? 'read' : 'write';
      const rl = limiters[cls];
      const key = limiterKey(req.headers.authorization);
      const setHeaders = (remaining: number, msBeforeNext: number): void => {
        res.setHeader('RateLimit-Limit', String(rl.points));
        res.setHeader('RateLimit-Remaining', String(remaining));
        res.setHeader('RateLimit-Reset', String(seconds(msBeforeNext)));
      };
      if (opts.remainingBeforeCount) {
        const before = await rl.get(key);
        if (before) setHeaders(Math.max(0, rl.points - before.consumedPoints), before.msBeforeNext);
        else setHeaders(rl.points, rl.duration * 1000);
      }
      try {
        const r = await rl.consume(key);
        if (!opts.remainingBeforeCount) setHeaders(r.remainingPoints, r.msBeforeNext);
      } catch (rej) {
        if (!(rej instanceof RateLimiterRes)) throw rej;
        if (!opts.remainingBeforeCount) setHeaders(0, rej.msBeforeNext);
        res.setHeader('Retry-After', String(seconds(rej.msBeforeNext)));
        sendJson(res, 429, errorBody('rate_limit.exceeded', 'rate limit exceeded', requestId));
        return;
      }
    }
    const out = handleApi({ method: req.method ?? 'GET', path: url.pathname, query: url.searchParams, authorization: req.headers.authorization, body, requestId });
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
