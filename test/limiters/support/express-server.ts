/**
 * express + express-rate-limit@8, configured the way its README shows: one limiter per route class
 * (each with its own MemoryStore), `standardHeaders: 'draft-6'` (exactly the spec's RateLimit-Limit,
 * -Remaining, -Reset, plus Retry-After on 429), and a handler that answers the spec's 429 envelope.
 * Options switch on the misconfigurations teams make with it.
 */
import { createServer } from 'node:http';
import express from 'express';
import { rateLimit, type RateLimitRequestHandler } from 'express-rate-limit';
import { errorBody, handleApi, limiterKey, requestIds } from './api.js';
import { listenLoopback, type Budget, type Budgets, type LimitedServer } from './server.js';

export interface ExpressOptions {
  budgets: Budgets;
  /** Misconfiguration: one limiter (one store, the read budget) in front of every route. */
  sharedStore?: boolean;
  /** Misconfiguration: the window written as seconds into `windowMs` (3 meaning 3 s is 3 ms). */
  windowInSecondsAsMs?: boolean;
  /** Legitimate: the budget is the workspace's, shared by all its keys (the spec does not say per key). */
  perWorkspace?: boolean;
}

function limiter(b: Budget, opts: ExpressOptions): RateLimitRequestHandler {
  return rateLimit({
    windowMs: opts.windowInSecondsAsMs ? b.windowSeconds : b.windowSeconds * 1000,
    limit: b.limit,
    standardHeaders: 'draft-6',
    legacyHeaders: false,
    keyGenerator: (req) => (opts.perWorkspace ? 'workspace' : limiterKey(req.headers.authorization)),
    handler: (_req, res) => {
      const id = String(res.getHeader('X-Request-Id'));
      res.status(429).json(errorBody('rate_limit.exceeded', 'rate limit exceeded', id));
    },
  });
}

/** Starts the express server on a loopback ephemeral port. */
export async function startExpressServer(opts: ExpressOptions): Promise<LimitedServer> {
  const app = express();
  const nextId = requestIds('x');
  app.disable('x-powered-by');
  app.use((_req, res, next) => {
    res.setHeader('X-Request-Id', nextId());
    next();
  });
  if (opts.sharedStore) {
    app.use('/v1', limiter(opts.budgets.read, opts));
  } else {
    const read = limiter(opts.budgets.read, opts);
    const write = limiter(opts.budgets.write, opts);
    app.use('/v1', (req, res, next) => (req.method === 'GET' ? read : write)(req, res, next));
  }
  app.use(express.json());
  app.use((req, res) => {
    const url = new URL(req.originalUrl, 'http://x');
    const out = handleApi({
      method: req.method,
      path: url.pathname,
      query: url.searchParams,
      authorization: req.headers.authorization,
      body: req.body as unknown,
      requestId: String(res.getHeader('X-Request-Id')),
    });
    res.status(out.status);
    if (out.body === undefined) res.end();
    else res.json(out.body);
  });
  return listenLoopback(createServer(app));
}
