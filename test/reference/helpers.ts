/** Test helpers: a reference server on port 0 and a tiny raw HTTP client (node:http allows GET bodies). */
import { request } from 'node:http';
import type { KeyRole } from '../../src/target/schema.js';
import { startReferenceServer, type ReferenceServerOptions, type RunningReferenceServer } from '../../src/reference/index.js';

export interface Res {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  text: string;
  json: any;
}

export interface CallOptions {
  method?: string;
  role?: KeyRole | null;
  authorization?: string;
  json?: unknown;
  body?: string | Buffer;
  headers?: Record<string, string>;
  /** Send the body with Transfer-Encoding: chunked (no Content-Length). */
  chunked?: boolean;
}

export interface Harness {
  server: RunningReferenceServer;
  key(role: KeyRole): string;
  ids: any;
  /** Calls a path below /v1. */
  api(path: string, opts?: CallOptions): Promise<Res>;
  /** Calls a path below /_fixtures. */
  fx(path: string, method?: string, body?: unknown): Promise<Res>;
  close(): Promise<void>;
}

/** Sends one request to an absolute URL and collects the whole response. */
export function raw(url: string, opts: CallOptions & { auth?: string } = {}): Promise<Res> {
  const u = new URL(url);
  const headers: Record<string, string> = { ...opts.headers };
  let body: Buffer | undefined;
  if (opts.json !== undefined) {
    body = Buffer.from(JSON.stringify(opts.json));
    headers['content-type'] ??= 'application/json';
  } else if (opts.body !== undefined) body = Buffer.from(opts.body);
  if (opts.auth) headers.authorization = opts.auth;
  if (body) {
    if (opts.chunked) headers['transfer-encoding'] = 'chunked';
    else headers['content-length'] = String(body.length);
  }
  return new Promise((resolve, reject) => {
    const req = request({ host: u.hostname, port: u.port, path: u.pathname + u.search, method: opts.method ?? 'GET', headers }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (c: Buffer) => chunks.push(c));
      res.on('end', () => {
        const text = Buffer.concat(chunks).toString('utf8');
        let json: unknown;
        try {
          json = text ? JSON.parse(text) : undefined;
        } catch {
          json = undefined;
        }
        resolve({ status: res.statusCode ?? 0, headers: res.headers, text, json });
      });
      res.on('error', reject);
    });
    req.on('error', reject);
    req.setTimeout(10_000, () => req.destroy(new Error('request timed out')));
    if (body && opts.chunked) {
      // several writes force chunked framing
      for (let i = 0; i < body.length; i += 512) req.write(body.subarray(i, i + 512));
      req.end();
    } else req.end(body);
  });
}

/** Starts a seeded reference server and returns helpers bound to it. */
export async function startHarness(opts: ReferenceServerOptions = {}): Promise<Harness> {
  const server = await startReferenceServer({ seed: 42, ...opts });
  const keys = server.target.keys as Record<string, { key: string }>;
  const key = (role: KeyRole): string => keys[role]!.key;
  return {
    server,
    key,
    ids: (server.target.fixtures as { ids: unknown }).ids,
    api: (path, o = {}) => {
      const role = o.role === undefined ? 'admin' : o.role;
      const auth = o.authorization ?? (role === null ? undefined : `Bearer ${key(role)}`);
      return raw(server.baseUrl + path, { ...o, auth });
    },
    fx: (path, method = 'GET', body) => raw(server.fixturesUrl + path, { method, json: body }),
    close: () => server.close(),
  };
}

/** An Idempotency-Key unique within the test run. */
let keySeq = 0;
export function idemKey(): string {
  return `test-key-${Date.now()}-${++keySeq}`;
}
