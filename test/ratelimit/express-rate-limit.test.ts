/**
 * A widely used real limiter: express-rate-limit@8 (fixed windows, draft-6 RateLimit-* headers, Remaining
 * after counting, Reset rounded up) behind express on port 0, answering the spec's 429 envelope. Driven
 * sequentially and concurrently across several windows, its responses must give zero violations.
 */
import type { AddressInfo } from 'node:net';
import express from 'express';
import { rateLimit } from 'express-rate-limit';
import { request } from 'undici';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { analyzeRateLimits } from '../../src/ratelimit/analyze.js';
import type { RateLimitSample } from '../../src/ratelimit/sample.js';

const LIMIT = 8;
const WINDOW_MS = 1000;
let origin = '';
let close: () => Promise<void> = async () => undefined;

beforeAll(async () => {
  const app = express();
  let n = 0;
  app.use((_req, res, next) => {
    res.setHeader('X-Request-Id', `req_${++n}`);
    next();
  });
  app.use(
    rateLimit({
      windowMs: WINDOW_MS,
      limit: LIMIT,
      standardHeaders: 'draft-6',
      legacyHeaders: false,
      handler: (_req, res) => {
        res.status(429).json({ error: { code: 'rate_limit.exceeded', message: 'slow down', requestId: res.getHeader('X-Request-Id') } });
      },
    }),
  );
  app.get('/v1/customers', (_req, res) => {
    res.json({ data: [], hasMore: false, nextCursor: null });
  });
  const server = app.listen(0, '127.0.0.1');
  await new Promise<void>((resolve) => server.once('listening', () => resolve()));
  origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  close = () =>
    new Promise<void>((resolve) => {
      server.closeAllConnections();
      server.close(() => resolve());
    });
});

afterAll(async () => {
  await close();
});

async function one(t0: number): Promise<RateLimitSample> {
  const sentAt = performance.now() - t0;
  const res = await request(`${origin}/v1/customers`);
  const receivedAt = performance.now() - t0;
  const body = (await res.body.json()) as { error?: { code?: string } };
  const h = (name: string) => {
    const v = res.headers[name];
    return Array.isArray(v) ? v.join(', ') : v;
  };
  const s: RateLimitSample = { sentAt, receivedAt, class: 'read', status: res.statusCode };
  for (const [field, name] of [
    ['limit', 'ratelimit-limit'],
    ['remaining', 'ratelimit-remaining'],
    ['reset', 'ratelimit-reset'],
    ['retryAfter', 'retry-after'],
    ['requestId', 'x-request-id'],
  ] as const) {
    const v = h(name);
    if (v !== undefined) s[field] = v;
  }
  if (body.error?.code) s.errorCode = body.error.code;
  return s;
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

describe('express-rate-limit@8 (draft-6 headers)', () => {
  it('gives zero violations for sequential and concurrent traffic over several windows', async () => {
    const t0 = performance.now();
    const samples: RateLimitSample[] = [];
    // Sequential, about 3 windows at ~2.5x the budget.
    for (let i = 0; i < 60; i++) {
      samples.push(await one(t0));
      await sleep(WINDOW_MS / LIMIT / 2.5);
    }
    // Concurrent bursts of 6 across about 2 more windows.
    for (let burst = 0; burst < 8; burst++) {
      samples.push(...(await Promise.all(Array.from({ length: 6 }, () => one(t0)))));
      await sleep(WINDOW_MS / 4);
    }
    expect(samples.some((s) => s.status === 429)).toBe(true);
    expect(samples.some((s) => s.status === 200)).toBe(true);
    const analysis = analyzeRateLimits(samples);
    expect(analysis.violations).toEqual([]);
    const read = analysis.classes[0]!;
    expect(read.observedLimit).toBe(LIMIT);
    expect(read.windowSeconds).toBe(1);
  });
});
