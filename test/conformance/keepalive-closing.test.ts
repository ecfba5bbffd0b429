/**
 * A deployment behind a proxy or load balancer with a short idle timeout: it closes a keep-alive
 * connection a few ms after the connection fell idle, without announcing it (no Keep-Alive header, no
 * Connection: close). A request the client writes as the connection is being closed is cut before any
 * answer: that is the deployment's housekeeping, not a finding. Every suite runs through such a proxy with
 * zero findings (the client sends a request safe to repeat once more, and one that is not on a connection
 * of its own: src/client/client.ts), while a plain client through the same proxy does see the resets.
 */
import { createServer, type Server } from 'node:http';
import type { Socket } from 'node:net';
import { Pool, request, type Dispatcher } from 'undici';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { RunningReferenceServer } from '../../src/reference/index.js';
import { targetFromInput } from '../../src/target/resolve.js';
import type { TargetFileInput } from '../../src/target/schema.js';
import { listening, readBody } from '../checks/rewriting-proxy.js';
import { runConformance } from '../support/conformance.js';
import { prng } from '../support/prng.js';
import { LIMITS_BUDGETS, startServer } from './support/fault-run.js';

/** A proxy to `upstream` that closes each client connection 2–6 ms after it fell idle; counts the closes. */
async function startIdleClosingProxy(upstream: string): Promise<{ url: string; closedIdle: () => number; close(): Promise<void> }> {
  const base = upstream.replace(/\/+$/, '');
  const rnd = prng(7);
  const idle = new Map<Socket, { timer: NodeJS.Timeout; closeAt: number }>();
  let closedIdle = 0;
  // keepAliveTimeout 0: Node neither announces a keep-alive timeout nor closes idle connections itself.
  const server: Server = createServer({ keepAliveTimeout: 0 }, (req, res) => {
    const socket = req.socket;
    const was = idle.get(socket);
    clearTimeout(was?.timer);
    idle.delete(socket);
    // A request that arrives after its connection's close time was cut by that close (the two crossed on
    // the wire), however late this event loop runs the close timer: on a loaded machine the timers lag
    // and a plain client saw no reset in 400 requests.
    if (was && performance.now() >= was.closeAt) {
      closedIdle++;
      socket.destroy();
      return;
    }
    res.once('finish', () => {
      if (socket.destroyed) return;
      const ms = 2 + rnd() * 4;
      const timer = setTimeout(() => {
        idle.delete(socket);
        closedIdle++;
        socket.destroy();
      }, ms);
      idle.set(socket, { timer, closeAt: performance.now() + ms });
    });
    void (async () => {
      const body = await readBody(req);
      const headers: Record<string, string> = {};
      for (const [k, v] of Object.entries(req.headers))
        if (typeof v === 'string' && !['host', 'connection', 'content-length'].includes(k)) headers[k] = v;
      const r = await request(base + (req.url ?? '/').replace(/^\/v1/, ''), {
        method: (req.method ?? 'GET') as Dispatcher.HttpMethod,
        headers,
        ...(body.length ? { body } : {}),
      });
      const text = Buffer.from(await r.body.arrayBuffer());
      const out: Record<string, string> = {};
      for (const [k, v] of Object.entries(r.headers))
        if (v !== undefined && !['content-length', 'transfer-encoding', 'connection', 'keep-alive'].includes(k))
          out[k] = Array.isArray(v) ? v.join(', ') : v;
      res.writeHead(r.statusCode, { ...out, 'content-length': String(text.length) });
      res.end(text);
    })().catch(() => socket.destroy());
  });
  const l = await listening(server);
  return {
    url: l.url,
    closedIdle: () => closedIdle,
    close: async () => {
      for (const t of idle.values()) clearTimeout(t.timer);
      await l.close();
    },
  };
}

let server: RunningReferenceServer;
let proxy: Awaited<ReturnType<typeof startIdleClosingProxy>>;
beforeAll(async () => {
  server = await startServer(LIMITS_BUDGETS);
  proxy = await startIdleClosingProxy(server.target.baseUrl);
});
afterAll(async () => {
  await proxy?.close();
  await server?.close();
});

describe('a deployment that closes idle keep-alive connections without saying so', () => {
  it('a plain keep-alive client through it sees resets: the condition is real', async () => {
    const pool = new Pool(proxy.url.replace(/\/v1$/, ''), { connections: 1 });
    const rnd = prng(3);
    let resets = 0;
    try {
      // Requests a few ms apart, some landing as the idle connection is closed (bounded: 400 requests).
      for (let i = 0; i < 400 && resets < 3; i++) {
        await new Promise((r) => setTimeout(r, 1 + rnd() * 8));
        try {
          const r = await pool.request({
            path: '/v1/me',
            method: 'GET',
            headers: { authorization: `Bearer ${server.target.keys!.admin!.key}` },
          });
          await r.body.dump();
        } catch {
          resets++;
        }
      }
    } finally {
      await pool.close();
    }
    expect(resets).toBeGreaterThan(0);
  });

  it('every suite gives zero findings and no error through it', async () => {
    const closedBefore = proxy.closedIdle();
    const input: TargetFileInput = { ...(server.target as TargetFileInput), baseUrl: proxy.url };
    const out = await runConformance({ target: targetFromInput(input, 'embedded'), runs: 5, seed: 4 });
    expect(out.findings.map((f) => `${f.checkId} ${f.clause}: ${f.expected}; ${f.actual}`)).toEqual([]);
    expect(out.checks.filter((c) => c.status === 'error').map((c) => `${c.checkId}: ${c.reason ?? ''}`)).toEqual([]);
    expect(out.aborted).toBe(false);
    // The proxy did close idle connections under the run, many times.
    expect(proxy.closedIdle() - closedBefore).toBeGreaterThan(50);
  });
});
