/** A minimal /v1 server for engine tests: counts every request it receives and answers with rate-limit headers. */
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { targetFromInput } from '../../../src/target/resolve.js';
import type { Target, TargetFileInput } from '../../../src/target/schema.js';

export const SECRET = 'pk_test_counting_secret_0123456789';

export interface CountingServer {
  target(extra?: Partial<TargetFileInput>): Target;
  /** Requests received so far, and per second since the server started. */
  count(): number;
  close(): Promise<void>;
}

/** Starts the server on a loopback ephemeral port. */
export async function startCountingServer(): Promise<CountingServer> {
  let n = 0;
  const server: Server = createServer((req, res) => {
    n++;
    req.resume();
    req.on('end', () => {
      res.writeHead(200, {
        'content-type': 'application/json',
        'ratelimit-limit': '100000',
        'ratelimit-remaining': '99999',
        'ratelimit-reset': '5',
        'x-request-id': `req_${n}`,
      });
      res.end('{"ok":true}');
    });
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  const { port } = server.address() as AddressInfo;
  return {
    target: (extra = {}) =>
      targetFromInput({ baseUrl: `http://127.0.0.1:${port}/v1`, keys: { admin: { key: SECRET } }, allowWrites: true, fixtures: { ids: { conversationId: 'conv_1' } }, ...extra }, 'test'),
    count: () => n,
    close: () => new Promise<void>((r) => {
      server.close(() => r());
      server.closeAllConnections();
    }),
  };
}
