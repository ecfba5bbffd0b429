/**
 * fastify + @fastify/rate-limit, configured the way its README shows: `enableDraftSpec` (the draft's
 * ratelimit-limit / -remaining / -reset names, which are the spec's, and retry-after on 429), one route per
 * class with its own `config.rateLimit` and `groupId`, the key from the API key, and an error handler that
 * answers the spec's 429 envelope. Each instance keeps its counters in its own in-memory LRU store.
 */
import Fastify, { type FastifyReply, type FastifyRequest } from 'fastify';
import rateLimit from '@fastify/rate-limit';
import { errorBody, handleApi, limiterKey, requestIds } from './api.js';
import type { Budgets, LimitedServer } from './server.js';

export interface FastifyOptions {
  budgets: Budgets;
  /** Distinguishes the request ids of several instances. */
  instance?: string;
}

/** Starts one fastify instance on a loopback ephemeral port. */
export async function startFastifyServer(opts: FastifyOptions): Promise<LimitedServer> {
  const nextId = requestIds(`y${opts.instance ?? ''}`);
  const app = Fastify({ genReqId: () => nextId(), logger: false });
  app.addHook('onRequest', async (req, reply) => {
    reply.header('X-Request-Id', req.id);
  });
  await app.register(rateLimit, {
    global: false,
    enableDraftSpec: true,
    keyGenerator: (req) => limiterKey(req.headers.authorization),
    errorResponseBuilder: (_req, ctx) =>
      Object.assign(new Error(`rate limit exceeded, retry in ${ctx.after}`), { statusCode: ctx.statusCode }),
  });
  app.setErrorHandler((err: Error & { statusCode?: number }, req, reply) => {
    const status = err.statusCode ?? 500;
    const code =
      status === 429 ? 'rate_limit.exceeded' : status === 413 ? 'request.body_too_large' : status < 500 ? 'request.invalid' : 'internal';
    void reply.code(status).send(errorBody(code, err.message, req.id));
  });
  const handler = async (req: FastifyRequest, reply: FastifyReply): Promise<FastifyReply> => {
    const url = new URL(req.url, 'http://x');
    const out = handleApi({
      method: req.method,
      path: url.pathname,
      query: url.searchParams,
      authorization: req.headers.authorization,
      body: req.body,
      requestId: req.id,
    });
    return reply.code(out.status).send(out.body);
  };
  const { read, write } = opts.budgets;
  app.route({
    method: 'GET',
    url: '/v1/*',
    config: { rateLimit: { max: read.limit, timeWindow: read.windowSeconds * 1000, groupId: 'read' } },
    handler,
  });
  app.route({
    method: ['POST', 'PUT', 'PATCH', 'DELETE'],
    url: '/v1/*',
    config: { rateLimit: { max: write.limit, timeWindow: write.windowSeconds * 1000, groupId: 'write' } },
    handler,
  });
  await app.listen({ port: 0, host: '127.0.0.1' });
  const { port } = app.server.address() as { port: number };
  return {
    url: `http://127.0.0.1:${port}/v1`,
    close: async () => {
      app.server.closeAllConnections();
      await app.close();
    },
  };
}
