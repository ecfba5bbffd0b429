import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startHarness, type Harness, type Res } from './helpers.js';

let h: Harness;
beforeAll(async () => {
  h = await startHarness({ budgets: { read: 5, write: 3, windowSeconds: 30 } });
});
afterAll(() => h.close());

function rate(res: Res): { limit: number; remaining: number; reset: number } {
  for (const n of ['ratelimit-limit', 'ratelimit-remaining', 'ratelimit-reset']) expect(String(res.headers[n])).toMatch(/^\d+$/);
  return {
    limit: Number(res.headers['ratelimit-limit']),
    remaining: Number(res.headers['ratelimit-remaining']),
    reset: Number(res.headers['ratelimit-reset']),
  };
}

describe('rate limits (spec part 8)', () => {
  it('counts per key and class, refuses with 429 + Retry-After, and refused requests consume nothing', async () => {
    await h.fx('/ratelimit/reset', 'POST');
    const seen: number[] = [];
    for (let i = 0; i < 5; i++) {
      const r = await h.api('/me');
      expect(r.status).toBe(200);
      const rl = rate(r);
      expect(rl.limit).toBe(5);
      expect(rl.reset).toBeGreaterThanOrEqual(1);
      expect(rl.reset).toBeLessThanOrEqual(30);
      seen.push(rl.remaining);
    }
    expect(seen).toEqual([4, 3, 2, 1, 0]);
    for (let i = 0; i < 2; i++) {
      const r = await h.api('/me');
      expect(r.status).toBe(429);
      expect(r.json.error.code).toBe('rate_limit.exceeded');
      expect(r.json.error.requestId).toBe(r.headers['x-request-id']);
      expect(rate(r).remaining).toBe(0);
      const retry = Number(r.headers['retry-after']);
      expect(Number.isInteger(retry)).toBe(true);
      expect(retry).toBeGreaterThanOrEqual(rate(r).reset);
    }
    // another key and the write class of the same key have their own budgets
    expect((await h.api('/me', { role: 'secondConnection' })).status).toBe(200);
    const write = await h.api(`/customers/${h.ids.customerId}x`, { method: 'DELETE' });
    expect(write.status).toBe(404);
    expect(rate(write)).toMatchObject({ limit: 3, remaining: 2 });
  });

  it('puts the headers on 401, 404 and 413 responses too, and limits anonymous callers per address', async () => {
    await h.fx('/ratelimit/reset', 'POST');
    const r401 = await h.api('/me', { role: null });
    expect(r401.status).toBe(401);
    expect(rate(r401).remaining).toBe(4);
    const r401b = await h.api('/me', { role: 'expired' });
    expect(rate(r401b).remaining).toBe(3);
    const r404 = await h.api('/nothing');
    expect(r404.status).toBe(404);
    rate(r404);
    const r413 = await h.api('/me', { body: 'x'.repeat(2000) });
    expect(r413.status).toBe(413);
    rate(r413);
    for (let i = 0; i < 3; i++) await h.api('/me', { role: null });
    const anon = await h.api('/me', { role: null });
    expect(anon.status).toBe(429);
  });

  it('ends the window when RateLimit-Reset says', async () => {
    const quick = await startHarness({ budgets: { read: 2, write: 2, windowSeconds: 1 } });
    try {
      await quick.api('/me');
      await quick.api('/me');
      let refused = await quick.api('/me');
      if (refused.status !== 429) refused = await quick.api('/me'); // the window may have rolled between calls
      expect(refused.status).toBe(429);
      await new Promise((r) => setTimeout(r, Number(refused.headers['retry-after']) * 1000 + 50));
      expect((await quick.api('/me')).status).toBe(200);
    } finally {
      await quick.close();
    }
  });
});

describe('body limits (spec part 8)', () => {
  it('refuses read bodies above 1 KB (Content-Length and chunked) and write bodies above 64 KB', async () => {
    await h.fx('/ratelimit/reset', 'POST');
    const big = await h.api('/me', { body: 'x'.repeat(1025) });
    expect(big.status).toBe(413);
    expect(big.json.error.code).toBe('request.body_too_large');
    expect(big.json.error.requestId).toBe(big.headers['x-request-id']);
    expect((await h.api('/me', { body: 'x'.repeat(1024) })).status).toBe(200);
    const chunked = await h.api('/me', { body: 'x'.repeat(3000), chunked: true });
    expect(chunked.status).toBe(413);
    await h.fx('/ratelimit/reset', 'POST');
    const conv = h.ids.conversationId;
    const huge = await h.api(`/conversations/${conv}/assign`, { method: 'POST', json: { team: 't', pad: 'x'.repeat(70_000) } });
    expect(huge.status).toBe(413);
    const hugeChunked = await h.api(`/conversations/${conv}/assign`, {
      method: 'POST',
      body: JSON.stringify({ team: 't', pad: 'y'.repeat(66_000) }),
      chunked: true,
    });
    expect(hugeChunked.status).toBe(413);
    const fits = await h.api(`/conversations/${conv}/assign`, { method: 'POST', json: { team: 't', pad: 'x'.repeat(60_000) } });
    expect(fits.status).toBe(200);
  });
});
