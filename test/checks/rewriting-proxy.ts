/**
 * A loopback proxy in front of the reference server that turns it into another LEGITIMATE deployment: a hook
 * may rewrite each answer (add error.details, extra fields, other date-time forms, other statuses the spec
 * does not show) or answer by itself (429 from a busy shared budget). Tests use it to prove that a check
 * does not fail what the spec allows. Loopback only, port 0.
 */
import { createServer, type IncomingMessage, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { request, type Dispatcher } from 'undici';

/** One answer passing through (or made up by) the proxy. */
export interface ProxiedAnswer {
  status: number;
  headers: Record<string, string>;
  /** Parsed JSON body, when the body is JSON. */
  json?: unknown;
  /** Raw body when it is not JSON. */
  text?: string;
}

export interface ProxiedRequest {
  method: string;
  /** Path and query below the /v1 base, e.g. "/customers?limit=2". */
  path: string;
  headers: Record<string, string>;
  /** The request body as text ("" when none). */
  body: string;
}

/** Returns the answer to send; `forward()` fetches the upstream answer (with other request headers when given). */
export type ProxyHook = (
  req: ProxiedRequest,
  forward: (headers?: Record<string, string>) => Promise<ProxiedAnswer>,
) => Promise<ProxiedAnswer>;

export interface RewritingProxy {
  /** Base URL ending in /v1. */
  url: string;
  close(): Promise<void>;
}

const HOP = new Set(['content-length', 'content-encoding', 'transfer-encoding', 'connection', 'keep-alive', 'host']);

/** A request's whole body. */
export async function readBody(req: IncomingMessage): Promise<Buffer> {
  const chunks: Buffer[] = [];
  for await (const c of req) chunks.push(c as Buffer);
  return Buffer.concat(chunks);
}

/** Starts a proxy to `upstream` (a base URL ending in /v1) with the given hook. */
export async function startRewritingProxy(upstream: string, hook: ProxyHook): Promise<RewritingProxy> {
  const base = upstream.replace(/\/+$/, '');
  const server: Server = createServer((req, res) => {
    void (async () => {
      const body = await readBody(req);
      const headers: Record<string, string> = {};
      for (const [k, v] of Object.entries(req.headers)) if (typeof v === 'string' && !HOP.has(k)) headers[k] = v;
      const path = (req.url ?? '/').replace(/^\/v1/, '');
      // undici's request, not fetch: fetch refuses a GET with a body, which the read body-limit sweep sends.
      const forward = async (sent: Record<string, string> = headers): Promise<ProxiedAnswer> => {
        const r = await request(base + path, {
          method: (req.method ?? 'GET') as Dispatcher.HttpMethod,
          headers: sent,
          ...(body.length ? { body } : {}),
          headersTimeout: 10_000,
          bodyTimeout: 10_000,
        });
        const out: Record<string, string> = {};
        for (const [k, v] of Object.entries(r.headers)) if (v !== undefined && !HOP.has(k)) out[k] = Array.isArray(v) ? v.join(', ') : v;
        const text = await r.body.text();
        try {
          return { status: r.statusCode, headers: out, json: text === '' ? undefined : JSON.parse(text) };
        } catch {
          return { status: r.statusCode, headers: out, text };
        }
      };
      const a = await hook({ method: req.method ?? 'GET', path, headers, body: body.toString('utf8') }, forward);
      const payload = a.json !== undefined ? JSON.stringify(a.json) : (a.text ?? '');
      res.writeHead(a.status, { ...a.headers, 'content-length': String(Buffer.byteLength(payload)) });
      res.end(payload);
    })().catch((err: unknown) => {
      res.writeHead(502, { 'content-type': 'text/plain' });
      res.end(String(err));
    });
  });
  return listening(server);
}

/** Starts `server` on a loopback port: its API base URL (`/v1`), and a close that drops open connections. */
export async function listening(server: Server): Promise<{ url: string; close: () => Promise<void> }> {
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}/v1`,
    close: () =>
      new Promise((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

/** Applies `f` to every plain object inside a JSON value (deepest first), returning a new value. */
export function mapObjects(value: unknown, f: (o: Record<string, unknown>) => Record<string, unknown>): unknown {
  if (Array.isArray(value)) return value.map((v) => mapObjects(v, f));
  if (value && typeof value === 'object') {
    const o = Object.fromEntries(Object.entries(value).map(([k, v]) => [k, mapObjects(v, f)]));
    return f(o);
  }
  return value;
}

/** Applies `f` to every string inside a JSON value. */
export function mapStrings(value: unknown, f: (s: string) => string): unknown {
  if (typeof value === 'string') return f(value);
  if (Array.isArray(value)) return value.map((v) => mapStrings(v, f));
  if (value && typeof value === 'object') return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, mapStrings(v, f)]));
  return value;
}
