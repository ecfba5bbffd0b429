/**
 * What every limiter server has in common: its budgets, listening on a loopback ephemeral port, and the
 * target file object spgate gets for it (fixture ids filled, writes allowed, budgets NOT stated: the
 * point of these tests is that spgate copes when the target file leaves them out, as the spec does).
 */
import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { targetFromInput } from '../../../src/target/resolve.js';
import type { Target } from '../../../src/target/schema.js';
import { API_KEY, FIXTURE_IDS, POOL_KEYS } from './api.js';

export interface Budget {
  limit: number;
  windowSeconds: number;
}

/** One budget per route class (spec part 8: read and write, each with its own budget). */
export interface Budgets {
  read: Budget;
  write: Budget;
}

export interface LimitedServer {
  /** Base URL ending in /v1. */
  url: string;
  close(): Promise<void>;
}

/** Listens on 127.0.0.1:0 and returns the /v1 base URL and a close that drops keep-alive sockets. */
export async function listenLoopback(server: Server): Promise<LimitedServer> {
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => resolve());
  });
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}/v1`,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

/**
 * The target for a limiter server: no assumptions.rateLimit, so budgets are unstated. With `pool`, the admin
 * role has the server's other keys as its pool (each its own budget).
 */
export function targetFor(name: string, url: string, opts: { pool?: boolean } = {}): Target {
  return targetFromInput(
    {
      name,
      baseUrl: url,
      keys: { admin: { key: API_KEY, ...(opts.pool ? { pool: POOL_KEYS } : {}) } },
      allowWrites: true,
      fixtures: { ids: { ...FIXTURE_IDS, message: { ...FIXTURE_IDS.message }, completedTurn: { ...FIXTURE_IDS.completedTurn } } },
    },
    `limiters:${name}`,
  );
}

/** Reads a node:http request body as JSON (undefined when empty or not JSON). */
export async function readJson(req: AsyncIterable<Buffer>): Promise<unknown> {
  const chunks: Buffer[] = [];
  for await (const c of req) chunks.push(c);
  if (!chunks.length) return undefined;
  try {
    return JSON.parse(Buffer.concat(chunks).toString('utf8'));
  } catch {
    return undefined;
  }
}
