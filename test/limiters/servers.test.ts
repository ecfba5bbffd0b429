/**
 * The limiter servers themselves, before spgate judges them: each answers the spec's headers and 429
 * envelope, counts read and write on their own budgets, and each misconfiguration really does what its
 * name says. Sequential requests against 30 s windows, so every count below is exact whatever the speed.
 */
import { request } from 'undici';
import { afterEach, describe, expect, it } from 'vitest';
import { API_KEY } from './support/api.js';
import { LIMITERS, MISCONFIGS } from './support/limiters.js';
import type { Budgets, LimitedServer } from './support/server.js';

/** Windows no test here can outlast. */
const LONG: Budgets = { read: { limit: 5, windowSeconds: 30 }, write: { limit: 3, windowSeconds: 30 } };

interface Answer {
  status: number;
  limit?: string;
  remaining?: string;
  reset?: string;
  retryAfter?: string;
  requestId?: string;
  body: unknown;
}

async function send(url: string, method = 'GET', path = '/me'): Promise<Answer> {
  const res = await request(`${url}${path}`, {
    method: method as 'GET',
    headers: { authorization: `Bearer ${API_KEY}`, ...(method === 'POST' ? { 'content-type': 'application/json' } : {}) },
    body: method === 'POST' ? JSON.stringify({ team: 't' }) : undefined,
  });
  const text = await res.body.text();
  const h = (n: string): string | undefined => {
    const v = res.headers[n];
    return Array.isArray(v) ? v.join(', ') : v;
  };
  return {
    status: res.statusCode,
    limit: h('ratelimit-limit'),
    remaining: h('ratelimit-remaining'),
    reset: h('ratelimit-reset'),
    retryAfter: h('retry-after'),
    requestId: h('x-request-id'),
    body: text ? JSON.parse(text) : undefined,
  };
}

let server: LimitedServer | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

describe.each(LIMITERS)('$name server', (def) => {
  it('announces each class budget, counts down to a 429 envelope with Retry-After, and keeps writes apart', async () => {
    server = await def.start(LONG);
    const L = LONG.read.limit;
    const answers: Answer[] = [];
    for (let i = 0; i <= L; i++) answers.push(await send(server.url));
    const admitted = answers.slice(0, L);
    expect(admitted.map((a) => a.status)).toEqual(Array(L).fill(200));
    expect(admitted.map((a) => Number(a.remaining))).toEqual(Array.from({ length: L }, (_, i) => L - 1 - i));
    for (const a of answers) {
      expect(a.limit).toBe(String(L));
      expect(Number(a.reset)).toBeGreaterThanOrEqual(0);
      expect(Number(a.reset)).toBeLessThanOrEqual(LONG.read.windowSeconds);
      expect(a.requestId).toMatch(/^req_/);
    }
    const refused = answers[L]!;
    expect(refused.status).toBe(429);
    expect(refused.retryAfter).toMatch(/^\d+$/);
    expect(refused.body).toEqual({ error: { code: 'rate_limit.exceeded', message: expect.any(String), requestId: refused.requestId } });
    const write = await send(server.url, 'POST', '/conversations/conv_lim1/assign');
    expect(write.status).toBe(200);
    expect(write.limit).toBe(String(LONG.write.limit));
    expect(write.remaining).toBe(String(LONG.write.limit - 1));
    expect(write.body).toMatchObject({ id: 'conv_lim1', team: 't' });
  });

  it('answers an unknown route with the 404 route.not_found envelope and its request id', async () => {
    server = await def.start(LONG);
    const a = await send(server.url, 'GET', '/nope');
    expect(a.status).toBe(404);
    expect(a.body).toEqual({ error: { code: 'route.not_found', message: expect.any(String), requestId: a.requestId } });
  });
});

describe('misconfigured servers do what their names say', () => {
  const byName = (prefix: string) => MISCONFIGS.find((m) => m.name.startsWith(prefix))!;

  it('one shared store: writes spend the read budget', async () => {
    const m = byName('express-rate-limit: read and write sharing');
    server = await m.start(LONG);
    await send(server.url, 'POST', '/conversations/conv_lim1/assign');
    expect((await send(server.url)).remaining).toBe(String(LONG.read.limit - 2));
  });

  it('two stores behind one port: twice the budget is admitted in one window', async () => {
    const m = byName('@fastify/rate-limit: two instances');
    server = await m.start(LONG);
    const answers: Answer[] = [];
    for (let i = 0; i < 2 * LONG.read.limit + 2; i++) answers.push(await send(server.url));
    expect(answers.filter((a) => a.status === 200).length).toBe(2 * LONG.read.limit);
    expect(answers.every((a) => a.limit === String(LONG.read.limit))).toBe(true);
  });

  it('Reset in milliseconds: above the window in seconds', async () => {
    const m = byName('rate-limiter-flexible: RateLimit-Reset written in milliseconds');
    server = await m.start(LONG);
    expect(Number((await send(server.url)).reset)).toBeGreaterThan(LONG.read.windowSeconds * 100);
  });

  it('Remaining before counting: the whole budget left on the first admission, 1 left just before a 429', async () => {
    const m = byName('rate-limiter-flexible: Remaining reported before');
    server = await m.start(LONG);
    const answers: Answer[] = [];
    for (let i = 0; i <= LONG.read.limit; i++) answers.push(await send(server.url));
    expect(answers.map((a) => [a.status, Number(a.remaining)])).toEqual([
      ...Array.from({ length: LONG.read.limit }, (_, i) => [200, LONG.read.limit - i]),
      [429, 0],
    ]);
  });

  it('window in ms: requests further apart than the (30 ms) window are never refused', async () => {
    const m = byName('express-rate-limit: the window written in seconds');
    server = await m.start(LONG);
    const answers: Answer[] = [];
    for (let i = 0; i < 3 * LONG.read.limit; i++) {
      answers.push(await send(server.url));
      await new Promise((r) => setTimeout(r, 40));
    }
    expect(answers.every((a) => a.status === 200)).toBe(true);
  });
});
