/**
 * rate-limiter-flexible's RateLimiterMemory behind node:http, one limiter per route class (fixed windows
 * that start at a key's first request). The library sets no headers: the mapping below is the one its
 * README's middleware examples suggest (Remaining = remainingPoints, Reset and Retry-After = msBeforeNext
 * in whole seconds, rounded up). Options switch on the header-mapping bugs teams write by hand.
 */
import type { ServerResponse } from 'node:http';
import { RateLimiterMemory, RateLimiterRes } from 'rate-limiter-flexible';
import { startNodeServer } from './node-server.js';
import type { Budgets, LimitedServer } from './server.js';

export interface FlexibleOptions {
  budgets: Budgets;
  /** Misconfiguration: RateLimit-Reset and Retry-After written from msBeforeNext without dividing by 1000. */
  resetInMs?: boolean;
  /** Misconfiguration: the headers read from `get()` before `consume()`, so Remaining omits this request. */
  remainingBeforeCount?: boolean;
}

/** Starts the server on a loopback ephemeral port. */
export async function startFlexibleServer(opts: FlexibleOptions): Promise<LimitedServer> {
  const limiters = {
    read: new RateLimiterMemory({ points: opts.budgets.read.limit, duration: opts.budgets.read.windowSeconds, keyPrefix: 'read' }),
    write: new RateLimiterMemory({ points: opts.budgets.write.limit, duration: opts.budgets.write.windowSeconds, keyPrefix: 'write' }),
  };
  const seconds = (ms: number): number => (opts.resetInMs ? Math.ceil(ms) : Math.ceil(ms / 1000));

  return startNodeServer('f', async (cls, key, res: ServerResponse) => {
    const rl = limiters[cls];
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
      return true;
    } catch (rej) {
      if (!(rej instanceof RateLimiterRes)) throw rej;
      if (!opts.remainingBeforeCount) setHeaders(0, rej.msBeforeNext);
      res.setHeader('Retry-After', String(seconds(rej.msBeforeNext)));
      return false;
    }
  });
}
