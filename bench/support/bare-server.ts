/**
 * The bare node:http server the load benches measure against: every request answered with a small JSON
 * body and plain RateLimit-* headers, so a generator's per-response work is all that differs between runs.
 * GET /__served answers with the number of requests answered so far (itself not counted): a count of a run's
 * responses at any moment that is the same for every generator (none has to count them for the bench).
 */
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';

/** Starts the bare server on a loopback port; resolves with that port. */
export function startBareServer(): Promise<number> {
  const body = Buffer.from('{"data":{"id":"ws_1","name":"bench"}}');
  let n = 0;
  const server = createServer((req, res) => {
    if (req.url === '/__served') {
      res.end(String(n));
      return;
    }
    n++;
    res.writeHead(200, {
      'content-type': 'application/json',
      'content-length': body.length,
      'ratelimit-limit': '1000000000',
      'ratelimit-remaining': String(Math.max(0, 1_000_000_000 - n)),
      'ratelimit-reset': '5',
      'x-request-id': `req_${n}`,
    });
    res.end(body);
  });
  server.keepAliveTimeout = 60_000;
  return new Promise((resolve) => server.listen(0, '127.0.0.1', () => resolve((server.address() as AddressInfo).port)));
}
