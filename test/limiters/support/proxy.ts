/**
 * A load-balancing HTTP proxy on loopback, per request: the "two processes, each with its own in-memory
 * store, behind one port" deployment. Each upstream admits a full budget, so the port as a whole admits
 * twice the budget its headers announce. Round robin is a load balancer's default upstream policy; random
 * (seeded) is the one where which replica answers is not under the client's control, so the violation a
 * schedule shows is probabilistic.
 */
import { Agent, createServer, request } from 'node:http';
import { prng } from '../../support/prng.js';
import { listenLoopback, type LimitedServer } from './server.js';

/** Starts the proxy in front of the upstreams (base URLs ending in /v1); closing it closes them too. */
export async function startRoundRobinProxy(
  upstreams: LimitedServer[],
  pick: 'round-robin' | { random: number } = 'round-robin',
): Promise<LimitedServer> {
  const agent = new Agent({ keepAlive: true, maxSockets: 64 });
  let next = 0;
  const rnd = typeof pick === 'object' ? prng(pick.random) : undefined;
  const server = createServer((req, res) => {
    const up = new URL(upstreams[rnd ? Math.floor(rnd() * upstreams.length) : next++ % upstreams.length]!.url);
    const fwd = request({ host: up.hostname, port: up.port, method: req.method, path: req.url, headers: req.headers, agent }, (upRes) => {
      res.writeHead(upRes.statusCode ?? 502, upRes.headers);
      upRes.pipe(res);
    });
    fwd.on('error', () => {
      if (!res.headersSent) res.writeHead(502);
      res.end();
    });
    req.pipe(fwd);
  });
  const front = await listenLoopback(server);
  return {
    url: front.url,
    close: async () => {
      await front.close();
      agent.destroy();
      await Promise.all(upstreams.map((u) => u.close()));
    },
  };
}
