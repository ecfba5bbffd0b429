/**
 * Both engines record each send as it goes out (recorder.sent before the request is written), so the
 * recorder hands every response over with a watermark — the earliest send still in flight — and the
 * rate-limit analysis may fold a refusal only once everything sent before it has arrived. The contract,
 * checked on real runs whose responses overtake each other (a server that holds each request a random
 * 0–4 ms on several connections): a response handed over later was never sent before an earlier
 * watermark. An engine that recorded its sends only with their responses (the closed engine on autocannon
 * did) breaks it at once.
 */
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parseProfile } from '../../src/load/profile.js';
import { planProfile } from '../../src/load/plan.js';
import { LoadRecorder } from '../../src/load/load-recorder.js';
import { runClosed } from '../../src/load/closed.js';
import { runOpen } from '../../src/load/open.js';
import { targetFromInput } from '../../src/target/resolve.js';

let server: Server;
let baseUrl = '';
beforeAll(async () => {
  let n = 0;
  server = createServer((_req, res) => {
    // A pseudo-random hold (deterministic per request): responses on different connections overtake each other.
    const hold = (n++ * 7919) % 5;
    setTimeout(() => res.end('{"data":{}}'), hold);
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  baseUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}/v1`;
});
afterAll(() => new Promise<void>((r) => server.close(() => r())));

describe.each([
  ['closed', runClosed, { model: 'closed', classes: { read: { connections: 6, routes: [{ route: 'me' }] } } }],
  ['open', runOpen, { model: 'open', maxConnections: 6, classes: { read: { rate: 1500, routes: [{ route: 'me' }] } } }],
] as const)('the %s engine hands every response over with the watermark of sends in flight', (_name, engine, shape) => {
  it('no response handed over later was sent before an earlier watermark, and the watermark trails the responses', async () => {
    const target = targetFromInput({ baseUrl, keys: { admin: { key: 'pk_test_watermark_0123456789' } }, caps: { maxRequests: 1500 } }, 't');
    const plan = planProfile(parseProfile({ name: 'w', description: 'd', duration: 5, ...shape }, 't'), target);
    const seen: Array<{ sent: number; received: number; watermark: number }> = [];
    const rec = new LoadRecorder(
      { add: (s, watermark) => seen.push({ sent: s.sent, received: s.received, watermark: watermark ?? NaN }) },
      { sendsAsTheyGo: true },
    );
    await engine({ plan, baseUrl, secrets: target.secrets, recorder: rec });
    expect(seen.length).toBeGreaterThan(500);
    let highest = -Infinity;
    let trailing = 0;
    for (const r of seen) {
      expect(r.sent).toBeGreaterThanOrEqual(highest);
      expect(r.watermark).toBeLessThanOrEqual(r.received);
      highest = Math.max(highest, r.watermark);
      if (r.watermark < r.received) trailing++;
    }
    // Requests overlapped: most responses were handed over with something sent earlier still in flight.
    expect(trailing).toBeGreaterThan(seen.length / 4);
  });
});
