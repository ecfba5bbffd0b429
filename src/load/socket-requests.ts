/**
 * What both load engines share on top of their keep-alive connections (http1-connection.ts): the endpoint a
 * target's base URL names (with the target's TLS options), each route's request bytes (static routes built
 * once, a fresh Idempotency-Key or `{seq}` body built per request), and filling one response record from a
 * parsed head or a failure. The engines differ only in when they send.
 */
import { randomUUID } from 'node:crypto';
import { proxyAuthorization, proxyFor, shownProxy, tlsConnectOptions } from '../client/transport.js';
import type { Tls } from '../target/schema.js';
import type { Plan } from './plan.js';
import type { SampleInput } from './samples.js';
import { isDynamicRoute, requestHeaders } from './engine.js';
import { bodyErrorCode } from '../spec/resources.js';
import { requestBytes, type Http1Connection, type Http1Endpoint, type Http1Head } from './http1-connection.js';
import { RequestDeadline } from './request-bounds.js';

/**
 * The host, port and TLS options the engines' connections open to, and the proxy they tunnel through when
 * one applies to the target (HTTPS_PROXY / HTTP_PROXY / NO_PROXY in `env`, as every other sender reads them).
 */
export function endpointOf(baseUrl: string, tls: Tls | undefined, env: NodeJS.ProcessEnv = process.env): Http1Endpoint {
  const url = new URL(baseUrl);
  const https = url.protocol === 'https:';
  const proxy = proxyFor(url, env);
  const authorization = proxy ? proxyAuthorization(proxy) : undefined;
  return {
    host: url.hostname.replace(/^\[|\]$/g, ''),
    port: Number(url.port) || (https ? 443 : 80),
    tls: https,
    ...(https ? { connect: tlsConnectOptions(tls) } : {}),
    ...(proxy
      ? {
          proxy: {
            host: proxy.hostname.replace(/^\[|\]$/g, ''),
            port: Number(proxy.port) || (proxy.protocol === 'https:' ? 443 : 80),
            tls: proxy.protocol === 'https:',
            shown: shownProxy(proxy),
            ...(authorization !== undefined ? { authorization } : {}),
          },
        }
      : {}),
  };
}

/**
 * Each route's request bytes: static routes built once; a route with a fresh Idempotency-Key or a `{seq}`
 * body built per request, `seq` numbering the run's requests.
 */
export class RequestSource {
  private readonly url: URL;
  private readonly prefix: string;
  private readonly runId = randomUUID().slice(0, 8);
  private readonly prebuilt: (Buffer | undefined)[];

  constructor(
    private readonly plan: Plan,
    baseUrl: string,
    private readonly secrets: Partial<Record<string, string>>,
  ) {
    this.url = new URL(baseUrl);
    this.prefix = this.url.pathname.replace(/\/$/, '');
    this.prebuilt = plan.routes.map((route, idx) => (isDynamicRoute(route) ? undefined : Buffer.from(this.build(idx))));
  }

  /** The bytes of one request of route `idx`. */
  bytes(idx: number, seq: number): Buffer | string {
    return this.prebuilt[idx] ?? this.build(idx, seq);
  }

  private build(idx: number, seq?: number): string {
    const route = this.plan.routes[idx]!;
    return requestBytes(
      route.method,
      this.prefix + route.path,
      this.url.host,
      requestHeaders(route, this.secrets, this.runId, seq),
      route.body?.(seq ?? 0),
    );
  }
}

/** Fills `r` with the response `conn` just completed (its route and send times ride on the connection). */
export function fillResponse(r: SampleInput, conn: Http1Connection, h: Http1Head, body: string | undefined, received: number): void {
  r.route = conn.route;
  r.intended = conn.intended;
  r.sent = conn.sent;
  r.received = received;
  r.status = h.status;
  r.limit = h.limit;
  r.remaining = h.remaining;
  r.reset = h.reset;
  r.retryAfter = h.retryAfter;
  r.requestId = h.requestId;
  r.errorCode = h.status === 429 ? bodyErrorCode(body) : undefined;
  r.error = undefined;
}

/** Fills `r` with the failure of the request `conn` had in flight: status 0 and one line naming it. */
export function fillFailure(r: SampleInput, conn: Http1Connection, error: string, received: number): void {
  r.route = conn.route;
  r.intended = conn.intended;
  r.sent = conn.sent;
  r.received = received;
  r.status = 0;
  r.limit = r.remaining = r.reset = r.retryAfter = r.requestId = r.errorCode = undefined;
  r.error = error;
}

/** Fails every request of `conns` in flight longer than `timeoutMs` at `now` (the engines' 50 ms sweep). */
export function sweepDeadlines(conns: readonly Http1Connection[], now: number, timeoutMs: number): void {
  for (const c of conns) if (c.busy && now - c.sent > timeoutMs) c.fail(new RequestDeadline(timeoutMs).message);
}
