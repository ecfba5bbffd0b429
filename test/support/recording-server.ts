/**
 * A loopback /v1 server that records every request it receives (method, path, arrival time) and answers
 * 200 with a JSON body and well-formed rate-limit headers. Tests count at the server, so "nothing was
 * sent" and "the caps held" are proven where the traffic lands, not by spgate's own bookkeeping.
 */
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';

export interface RecordedRequest {
  method: string;
  path: string;
  /** ms since the server started (performance clock). */
  t: number;
}

export interface RecordingServer {
  /** Base URL ending in /v1. */
  url: string;
  requests: RecordedRequest[];
  /** Requests under /v1 (spgate's load engine sends one warm-up request outside it). */
  apiRequests(): RecordedRequest[];
  close(): Promise<void>;
}

/** Starts the server on 127.0.0.1:0. */
export async function startRecordingServer(): Promise<RecordingServer> {
  const requests: RecordedRequest[] = [];
  const t0 = performance.now();
  const server: Server = createServer((req, res) => {
    requests.push({ method: req.method ?? '', path: req.url ?? '', t: performance.now() - t0 });
    req.resume();
    req.on('end', () => {
      res.writeHead(200, {
        'content-type': 'application/json',
        'ratelimit-limit': '100000',
        'ratelimit-remaining': '99999',
        'ratelimit-reset': '5',
        'x-request-id': `req_${requests.length}`,
      });
      res.end('{"data":[],"hasMore":false,"nextCursor":null}');
    });
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}/v1`,
    requests,
    apiRequests: () => requests.filter((r) => r.path.startsWith('/v1/')),
    close: () =>
      new Promise<void>((r) => {
        server.close(() => r());
        server.closeAllConnections();
      }),
  };
}

/** The highest number of requests inside any window of `ms` (sliding over the arrival times). */
export function peakInWindow(requests: readonly RecordedRequest[], ms: number): number {
  const ts = requests.map((r) => r.t).sort((a, b) => a - b);
  let peak = 0;
  let lo = 0;
  for (let hi = 0; hi < ts.length; hi++) {
    while (ts[hi]! - ts[lo]! >= ms) lo++;
    peak = Math.max(peak, hi - lo + 1);
  }
  return peak;
}
