/**
 * The `limiter` package's TokenBucket (continuous refill: `limit` tokens per window, burst `limit`) behind
 * node:http, one bucket per route class and key, started full. The package sets no headers; the mapping
 * is the one a team writes from the spec's words: Limit = bucket size, Remaining = whole tokens left,
 * Reset = seconds until the bucket is full again, Retry-After = seconds until one token is back.
 */
import type { ServerResponse } from 'node:http';
import { TokenBucket } from 'limiter';
import { startNodeServer, type RouteClass } from './node-server.js';
import type { Budgets, LimitedServer } from './server.js';

/** Starts the server on a loopback ephemeral port. */
export async function startTokenBucketServer(opts: { budgets: Budgets }): Promise<LimitedServer> {
  const buckets = new Map<string, TokenBucket>();
  const bucketFor = (cls: RouteClass, key: string): TokenBucket => {
    let b = buckets.get(`${cls}:${key}`);
    if (!b) {
      const { limit, windowSeconds } = opts.budgets[cls];
      b = new TokenBucket({ bucketSize: limit, tokensPerInterval: limit, interval: windowSeconds * 1000 });
      // A standalone TokenBucket starts empty; a new client starts with its whole budget.
      b.content = limit;
      buckets.set(`${cls}:${key}`, b);
    }
    return b;
  };

  return startNodeServer('t', async (cls, key, res: ServerResponse) => {
    const b = bucketFor(cls, key);
    const admitted = b.tryRemoveTokens(1);
    const { limit, windowSeconds } = opts.budgets[cls];
    res.setHeader('RateLimit-Limit', String(limit));
    res.setHeader('RateLimit-Remaining', String(Math.floor(b.content)));
    res.setHeader('RateLimit-Reset', String(Math.ceil(((limit - b.content) * windowSeconds) / limit)));
    if (!admitted) res.setHeader('Retry-After', String(Math.max(1, Math.ceil(b.getWaitTime(1) / 1000))));
    return admitted;
  });
}
