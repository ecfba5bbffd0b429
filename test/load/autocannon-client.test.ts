/**
 * The closed engine's hooks into autocannon's client (autocannon-client.ts): every response reaches the
 * hook with its status, raw headers and autocannon's own duration; a 429's body arrives whole (also when
 * chunked), other bodies are not decoded; a client without the internals is refused with one clear line.
 */
import autocannon from 'autocannon';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { hookClient, type TaggedRequest } from '../../src/load/autocannon-client.js';

const REFUSAL = JSON.stringify({ error: { code: 'too_many_requests', message: 'slow down' } });

let server: Server;
let port = 0;

beforeAll(async () => {
  server = createServer((req, res) => {
    if (req.url === '/busy') {
      // Chunked, in two writes: the body reaches the parser as two body callbacks.
      res.writeHead(429, { 'content-type': 'application/json', 'ratelimit-limit': '5', 'retry-after': '1' });
      res.write(REFUSAL.slice(0, 10));
      setTimeout(() => res.end(REFUSAL.slice(10)), 5);
      return;
    }
    res.writeHead(200, { 'content-type': 'application/json', 'RateLimit-Limit': '5', 'content-length': 15 });
    res.end('{"data":"okay"}');
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  port = (server.address() as AddressInfo).port;
});

afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

interface Seen {
  route: number | undefined;
  status: number;
  body: string;
  raw: string[];
  duration: number;
}

describe('autocannon client hooks', () => {
  it('hands every response to the hook, decoding only the bodies asked for', async () => {
    const seen: Seen[] = [];
    const requests: TaggedRequest[] = [{ method: 'GET', path: '/ok', spgateRoute: 0 }, { method: 'GET', path: '/busy', spgateRoute: 1 }];
    await autocannon({
      url: `http://127.0.0.1:${port}`, connections: 1, amount: 6, requests,
      setupClient: (client: unknown) => hookClient(client, (req, status, body, raw, duration) => {
        seen.push({ route: req?.spgateRoute, status, body, raw: raw ?? [], duration });
      }, (status) => status === 429),
    });
    expect(seen.length).toBe(6);
    for (const s of seen) {
      expect(s.status).toBe(s.route === 1 ? 429 : 200);
      expect(s.body).toBe(s.status === 429 ? REFUSAL : '');
      expect(s.duration).toBeGreaterThan(0);
      expect(s.duration).toBeLessThan(5000);
      expect(s.raw.map((h) => h.toLowerCase())).toContain('ratelimit-limit');
    }
    // The chunked refusal took at least the 5 ms between its two writes.
    expect(Math.min(...seen.filter((s) => s.status === 429).map((s) => s.duration))).toBeGreaterThanOrEqual(4);
  });

  it('refuses a client without autocannon 8 internals in one line', () => {
    expect(() => hookClient({}, () => undefined, () => true)).toThrow(/^autocannon client internals not found .*autocannon 8$/);
    expect(() => hookClient({ requestIterator: { recordBody: () => undefined } }, () => undefined, () => true)).toThrow(/autocannon 8/);
  });
});
