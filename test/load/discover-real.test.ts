/**
 * Discovery against a real, widely used limiter (express-rate-limit, draft-6 headers), not only our own
 * reference server: its windows are its own (not aligned as ours), and it sends RateLimit-Policy, which some
 * gateways strip (the second case hides it, so W must come from Reset alone).
 */
import { describe, it } from 'vitest';
import express from 'express';
import { rateLimit } from 'express-rate-limit';
import type { Server } from 'node:http';
import { runProbe, PROBE_DEFAULTS, PROBE_MAX_REQUESTS } from '../../src/load/budget-probe.js';
import { estimateBudget } from '../../src/load/budget-estimate.js';
import { createProbeSender, ProbePacer } from '../../src/load/probe-sender.js';
import type { PlannedRoute } from '../../src/load/plan.js';
import { targetFromInput } from '../../src/target/resolve.js';

/** Closes a limiter server (connections too). */
function stop(server: Server): void {
  server.closeAllConnections();
  server.close();
}

/** Starts express-rate-limit on 127.0.0.1:0; resolves with it and its base URL. */
async function start(opts: { limit: number; windowMs: number; stripPolicy: boolean }): Promise<{ server: Server; baseUrl: string }> {
  const app = express();
  if (opts.stripPolicy) {
    app.use((_req, res, next) => {
      const set = res.setHeader.bind(res);
      res.setHeader = ((name: string, value: string | number | readonly string[]) =>
        name.toLowerCase() === 'ratelimit-policy' ? res : set(name, value)) as typeof res.setHeader;
      next();
    });
  }
  app.use(rateLimit({ windowMs: opts.windowMs, limit: opts.limit, standardHeaders: 'draft-6', legacyHeaders: false }));
  app.get('/v1/me', (_req, res) => void res.json({ data: {} }));
  const server = app.listen(0, '127.0.0.1');
  await new Promise((r) => server.once('listening', r));
  return { server, baseUrl: `http://127.0.0.1:${(server.address() as { port: number }).port}/v1` };
}

const me: PlannedRoute = {
  idx: 0,
  label: 'me',
  class: 'read',
  method: 'GET',
  template: '/me',
  path: '/me',
  idempotencyKey: false,
  keyRole: 'admin',
  keyName: 'admin',
  weight: 1,
};

// Each case has its own limiter and mostly waits for its refill: they run side by side.
describe('budget discovery against express-rate-limit', () => {
  it.concurrent.for([
    [20, 3, false, 'policy'],
    [20, 3, true, 'window'],
    [7, 2, true, 'window'],
  ] as const)(
    '%i per %i s (RateLimit-Policy stripped: %s) is learned exactly',
    { timeout: 15_000 },
    async ([limit, windowS, stripPolicy, model], { expect }) => {
      const { server, baseUrl } = await start({ limit, windowMs: windowS * 1000, stripPolicy });
      const target = targetFromInput({ baseUrl, keys: { admin: { key: 'pk_test_discover_real_0123456789' } } }, 'test');
      const sender = createProbeSender(target, me, { timeoutMs: 5000, pacer: new ProbePacer(undefined) });
      try {
        const out = await runProbe(sender.io, { ...PROBE_DEFAULTS, maxWaitMs: 10_000, maxRequests: PROBE_MAX_REQUESTS });
        expect(estimateBudget(out.samples)).toMatchObject({ ok: true, limit, windowSeconds: windowS, model });
      } finally {
        await sender.close();
        stop(server);
      }
    },
  );
});
