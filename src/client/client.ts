/**
 * The HTTP client every part of spgate sends through: undici Pools (one per origin, keep-alive), bounded
 * in time and size, never following redirects, and recording every call as a redacted Exchange.
 * Transport failures are data (Exchange.error), never exceptions.
 */
import type { Dispatcher } from 'undici';
import { SpgateError } from '../errors.js';
import type { KeyName } from '../target/schema.js';
import { VERSION } from '../version.js';
import type { Exchange } from './exchange.js';
import { parseJsonBody, recordExchange, type RawExchange, type RawResponse } from './record.js';
import { revealSignedUrl, SignedUrl } from './signed-url.js';
import { createRedactor } from './redact.js';
import { ClientAbort, classifyTransportError } from './transport-error.js';
import { createDispatcher } from './transport.js';
import type { ClientOptions, HttpClient, RequestSpec } from './types.js';

export const CLIENT_DEFAULTS = {
  connectTimeoutMs: 5_000,
  headersTimeoutMs: 15_000,
  bodyTimeoutMs: 30_000,
  timeoutMs: 60_000,
  maxBodyBytes: 1024 * 1024,
  connections: 16,
} as const;

// Shorter than typical server idle timeouts (Node: 5 s), so a reused socket is rarely one the server is closing.
const KEEP_ALIVE_MS = 4_000;

type Settings = Required<Omit<ClientOptions, 'onExchange' | 'signal' | 'tls' | 'env'>> &
  Pick<ClientOptions, 'onExchange' | 'signal' | 'tls' | 'env'>;

/** Creates a client for one target; throws SpgateError only for an unusable baseUrl. */
export function createClient(opts: ClientOptions): HttpClient {
  const base = parseBaseUrl(opts.baseUrl);
  const s: Settings = { ...CLIENT_DEFAULTS, ...dropUndefined(opts) } as Settings;
  const redactor = createRedactor(opts.secrets);
  const pools = new Map<string, Dispatcher>();
  const inflight = new Set<AbortController>();
  let seq = 0;
  let closed = false;

  const onClientAbort = (): void => {
    for (const c of inflight) c.abort(new ClientAbort('aborted', 'request aborted'));
  };
  s.signal?.addEventListener('abort', onClientAbort, { once: true });

  /**
   * The connections of one origin. `fresh`: a pool apart whose every request goes out with Connection:
   * close, so each one it sends is the first on a new connection (attemptOnce).
   */
  const poolFor = (origin: string, fresh = false): Dispatcher => {
    const id = fresh ? `fresh ${origin}` : origin;
    let pool = pools.get(id);
    if (!pool) {
      // The target's TLS options and proxy apply to every origin this client reaches (API and fixtures API).
      pool = createDispatcher(
        origin,
        {
          connections: s.connections,
          connectTimeout: s.connectTimeoutMs,
          headersTimeout: s.headersTimeoutMs,
          // undici's bodyTimeout is the idle time between chunks; the total body time is enforced below.
          bodyTimeout: s.bodyTimeoutMs,
          keepAliveTimeout: KEEP_ALIVE_MS,
          keepAliveMaxTimeout: KEEP_ALIVE_MS,
        },
        { ...(s.tls ? { tls: s.tls } : {}), ...(s.env ? { env: s.env } : {}) },
      );
      pools.set(id, pool);
    }
    return pool;
  };

  /** One try of a request: its answer (or transport error) into `raw`. */
  const attemptOnce = async (req: Attempt): Promise<void> => {
    const { url, spec, raw, how, elapsed, headers, body } = req;
    const controller = new AbortController();
    inflight.add(controller);
    const timeoutMs = spec.timeoutMs ?? s.timeoutMs;
    const overall = setTimeout(
      () => controller.abort(new ClientAbort('timeout', `no complete response within ${timeoutMs} ms`)),
      timeoutMs,
    );
    let bodyTimer: NodeJS.Timeout | undefined;
    // A request that may not be sent again (perform) goes out on a connection of its own: a reused
    // keep-alive connection can be one the server is closing as the request arrives, and that cut would be
    // the request's only answer. A new connection is never one the server closed before it was used. The
    // resend of a cut request goes out the same way: another pooled connection, idle as long, may be closing too.
    const fresh = req.fresh === true || !replayable(raw.request.method, headers);
    try {
      const res = await poolFor(url.origin, fresh).request({
        origin: url.origin,
        method: raw.request.method as Dispatcher.HttpMethod,
        path: url.pathname + url.search,
        headers,
        body,
        signal: controller.signal,
        ...(fresh ? { reset: true } : {}),
      });
      raw.timings.headers = elapsed();
      const response: RawResponse = {
        status: res.statusCode,
        headers: collectHeaders(res.headers),
        text: '',
        bodyBytes: 0,
        complete: false,
      };
      raw.response = response;
      bodyTimer = setTimeout(
        () => controller.abort(new ClientAbort('timeout', `body not complete within ${s.bodyTimeoutMs} ms`)),
        s.bodyTimeoutMs,
      );
      if (how.countBody) await countBody(res.body, response);
      else await readBody(res.body, s.maxBodyBytes, response);
    } catch (err) {
      const reason: unknown = controller.signal.aborted ? controller.signal.reason : undefined;
      raw.error = classifyTransportError(reason instanceof ClientAbort ? reason : err);
    } finally {
      clearTimeout(overall);
      clearTimeout(bodyTimer);
      inflight.delete(controller);
    }
  };

  const perform = async (
    url: URL,
    spec: Omit<RequestSpec, 'path'>,
    role: KeyName | null | undefined,
    how: Perform = {},
  ): Promise<Exchange> => {
    const id = `x${++seq}`;
    const start = Date.now();
    const t0 = performance.now();
    const elapsed = (): number => Math.round((performance.now() - t0) * 100) / 100;

    for (const [k, v] of Object.entries(spec.query ?? {})) {
      if (v !== undefined) url.search += `${url.search ? '&' : '?'}${encodeURIComponent(k)}=${encodeURIComponent(String(v))}`;
    }
    const headers: Record<string, string> = { 'user-agent': `spgate/${VERSION}` };
    for (const [k, v] of Object.entries(spec.headers ?? {})) headers[k.toLowerCase()] = v;
    let body: string | Uint8Array | undefined;
    if (spec.rawBody !== undefined) body = spec.rawBody;
    else if (spec.json !== undefined) {
      body = JSON.stringify(spec.json);
      headers['content-type'] ??= 'application/json';
    }
    let keyRole: string | undefined;
    let setupError: string | undefined;
    if (spec.authorization !== undefined) headers.authorization = spec.authorization;
    else if (role && headers.authorization === undefined) {
      const secret = opts.secrets[role];
      if (secret) {
        headers.authorization = `Bearer ${secret}`;
        keyRole = role;
      } else setupError = `the target has no key for role ${role}`;
    }
    const bodyBytes = body === undefined ? 0 : typeof body === 'string' ? Buffer.byteLength(body) : body.byteLength;
    const raw: RawExchange = {
      id,
      request: {
        method: spec.method.toUpperCase(),
        url: url.href,
        headers,
        bodyBytes,
        ...(body !== undefined ? { body: typeof body === 'string' ? body : Buffer.from(body).toString('utf8') } : {}),
        ...(keyRole ? { keyRole } : {}),
      },
      timings: { start, total: 0 },
    };
    const finish = (): Exchange => {
      raw.timings.total = elapsed();
      how.onRaw?.(raw);
      if (how.recordUrlAs !== undefined) hideUrl(raw, url, how.recordUrlAs);
      const exchange = recordExchange(raw, redactor);
      s.onExchange?.(exchange);
      return exchange;
    };

    if (setupError) raw.error = { kind: 'other', message: setupError };
    else if (closed) raw.error = { kind: 'other', message: 'client is closed' };
    else if (s.signal?.aborted) raw.error = { kind: 'aborted', message: 'request aborted' };
    if (raw.error) return finish();

    // A keep-alive connection the server closes as the request goes out (it answered the one before and
    // then closed, without Connection: close) cuts the request before any answer: what the server did is
    // not the request's fault, so a request safe to send again is sent once more, as browsers and Go's
    // net/http do (RFC 9110 §9.2.2: idempotent methods; here also an Idempotency-Key), on a connection of
    // its own (attemptOnce), never on another pooled one idle as long. Any other request
    // went out on a new connection of its own in the first place, so its reset is the server's. A server
    // that resets every time still shows the reset.
    for (let attempt = 0; ; attempt++) {
      await attemptOnce({ url, spec, raw, how, elapsed, headers, body, fresh: attempt > 0 });
      const cut = (raw.error as RawExchange['error'])?.kind === 'reset' && !raw.response;
      if (attempt > 0 || !cut || !replayable(raw.request.method, headers)) break;
      if (closed || s.signal?.aborted) break;
      raw.error = undefined;
    }
    return finish();
  };

  return {
    send(spec: RequestSpec): Promise<Exchange> {
      const path = spec.path.startsWith('/') ? spec.path : `/${spec.path}`;
      const url = new URL(base.href.replace(/\/+$/, '') + path);
      // Without an explicit role the admin key is used; a client built without one sends none.
      const role = spec.role === undefined ? (opts.secrets.admin ? 'admin' : null) : spec.role;
      return perform(url, spec, role);
    },
    sendAbsolute(target: string, spec: Omit<RequestSpec, 'path'>): Promise<Exchange> {
      let url: URL;
      try {
        url = new URL(target);
        if (url.protocol !== 'http:' && url.protocol !== 'https:') throw new Error(`unsupported protocol ${url.protocol}`);
      } catch (err) {
        const exchange = recordExchange(
          {
            id: `x${++seq}`,
            request: { method: spec.method.toUpperCase(), url: target, headers: {}, bodyBytes: 0 },
            error: { kind: 'other', message: `invalid URL: ${err instanceof Error ? err.message : String(err)}` },
            timings: { start: Date.now(), total: 0 },
          },
          redactor,
        );
        s.onExchange?.(exchange);
        return Promise.resolve(exchange);
      }
      // The key goes to another URL only when the caller names the role: a fixtures API or a redirect
      // target on another origin must never receive it by default.
      return perform(url, spec, spec.role ?? null);
    },
    async sendForSignedUrl(spec: RequestSpec, field: string, absoluteUrl?: string): Promise<{ exchange: Exchange; url?: SignedUrl }> {
      let url: SignedUrl | undefined;
      const onRaw = (raw: RawExchange): void => {
        const r = raw.response;
        if (r?.status !== 200 || !r.complete) return;
        const ct = r.headers['content-type'];
        const parsed = parseJsonBody(Array.isArray(ct) ? ct[0] : ct, r.text);
        if (parsed.kind === 'parsed')
          url = SignedUrl.from(
            field
              .split('.')
              .reduce<unknown>((v, k) => (v && typeof v === 'object' ? (v as Record<string, unknown>)[k] : undefined), parsed.value),
          );
      };
      if (absoluteUrl === undefined) {
        const path = spec.path.startsWith('/') ? spec.path : `/${spec.path}`;
        const role = spec.role === undefined ? (opts.secrets.admin ? 'admin' : null) : spec.role;
        return { exchange: await perform(new URL(base.href.replace(/\/+$/, '') + path), spec, role, { onRaw }), url };
      }
      return { exchange: await perform(new URL(absoluteUrl), spec, spec.role ?? null, { onRaw }), url };
    },
    async fetchSigned(signed: SignedUrl, timeoutMs?: number): Promise<Exchange> {
      // never a key: the URL is its own credential, and it may point at another origin. A storage service
      // may redirect (a CDN to its bucket): followed a few hops, each hop's URL held like the first.
      let hop = signed;
      for (let i = 0; ; i++) {
        let location: string | undefined;
        const x = await perform(
          revealSignedUrl(hop),
          { method: 'GET', role: null, ...(timeoutMs !== undefined ? { timeoutMs } : {}) },
          null,
          {
            recordUrlAs: hop.redactedForm,
            countBody: true,
            onRaw: (raw) => {
              const l = raw.response?.headers.location;
              location = Array.isArray(l) ? l[0] : l;
            },
          },
        );
        const next =
          location !== undefined && REDIRECTS.has(x.response?.status ?? 0)
            ? SignedUrl.from(safeResolve(location, revealSignedUrl(hop)))
            : undefined;
        if (!next || i >= MAX_SIGNED_REDIRECTS) return x;
        hop = next;
      }
    },
    async close(): Promise<void> {
      closed = true;
      s.signal?.removeEventListener('abort', onClientAbort);
      const all = [...pools.values()];
      pools.clear();
      await Promise.all(
        all.map(async (p) => {
          const grace = setTimeout(() => void p.destroy().catch(() => undefined), 2_000);
          try {
            await p.close();
          } catch {
            // already destroyed by the grace timer
          } finally {
            clearTimeout(grace);
          }
        }),
      );
    },
  };
}

/** How perform treats one call beyond sending it. */
/** What one try of a request needs. */
interface Attempt {
  url: URL;
  spec: Omit<RequestSpec, 'path'>;
  raw: RawExchange;
  how: Perform;
  elapsed: () => number;
  headers: Record<string, string>;
  body: string | Uint8Array | undefined;
  /** On a new connection of its own (Connection: close), whatever the method: the resend of a cut request. */
  fresh?: boolean;
}

const IDEMPOTENT = new Set(['GET', 'HEAD', 'OPTIONS', 'TRACE', 'PUT', 'DELETE']);

/** Whether a request may be sent again after its connection was cut before any answer (RFC 9110 §9.2.2, or an Idempotency-Key). */
export function replayable(method: string, headers: Record<string, string>): boolean {
  return IDEMPOTENT.has(method.toUpperCase()) || headers['idempotency-key'] !== undefined;
}

interface Perform {
  /** Sees the unredacted call before it is recorded (sendForSignedUrl's one look at a signed URL). */
  onRaw?: (raw: RawExchange) => void;
  /** The request URL to record instead of the real one (a signed URL: its redacted form). */
  recordUrlAs?: string;
  /** Count the response body without keeping it (a file behind a signed URL: untrusted data, any size). */
  countBody?: boolean;
}

/** Records a signed URL's call under `as`, with every trace of the URL's path and query gone from its error too. */
function hideUrl(raw: RawExchange, url: URL, as: string): void {
  raw.request.url = as;
  // a redirect's Location is the next hop's signed URL
  if (raw.response?.headers.location !== undefined) raw.response.headers = { ...raw.response.headers, location: '<redacted>' };
  if (raw.error) {
    let m = raw.error.message;
    for (const part of [url.href, url.pathname + url.search, url.search.slice(1)])
      if (part.length > 1) m = m.split(part).join('<redacted>');
    raw.error = { ...raw.error, message: m };
  }
}

const REDIRECTS = new Set([301, 302, 303, 307, 308]);
const MAX_SIGNED_REDIRECTS = 3;

function safeResolve(location: string, base: URL): string | undefined {
  try {
    return new URL(location, base).href;
  } catch {
    return undefined;
  }
}

/** Longest body fetchSigned counts before it stops (the read is bounded in time by the client too). */
const SIGNED_BODY_CAP = 256 * 1024 * 1024;

/** Counts a body's bytes, keeping none of them; beyond SIGNED_BODY_CAP throws too-large. */
async function countBody(stream: AsyncIterable<Buffer> & { destroy(err?: Error): unknown }, into: RawResponse): Promise<void> {
  for await (const chunk of stream) {
    into.bodyBytes += chunk.length;
    if (into.bodyBytes > SIGNED_BODY_CAP) {
      stream.destroy();
      throw new ClientAbort('too-large', `response body exceeds ${SIGNED_BODY_CAP} bytes`);
    }
  }
  into.complete = true;
}

/** Reads a body up to `max` bytes; beyond it stops reading (destroying the socket) and throws too-large. */
async function readBody(stream: AsyncIterable<Buffer> & { destroy(err?: Error): unknown }, max: number, into: RawResponse): Promise<void> {
  const chunks: Buffer[] = [];
  let kept = 0;
  try {
    for await (const chunk of stream) {
      into.bodyBytes += chunk.length;
      if (kept + chunk.length > max) {
        chunks.push(chunk.subarray(0, max - kept));
        into.text = Buffer.concat(chunks).toString('utf8');
        stream.destroy();
        throw new ClientAbort('too-large', `response body exceeds ${max} bytes`);
      }
      chunks.push(chunk);
      kept += chunk.length;
    }
    into.complete = true;
  } finally {
    // On a mid-body failure the part already received is still worth recording.
    if (into.text === '') into.text = Buffer.concat(chunks).toString('utf8');
  }
}

function collectHeaders(headers: Record<string, string | string[] | undefined>): Record<string, string | string[]> {
  const out: Record<string, string | string[]> = {};
  for (const [k, v] of Object.entries(headers)) if (v !== undefined) out[k.toLowerCase()] = v;
  return out;
}

function parseBaseUrl(baseUrl: string): URL {
  try {
    const url = new URL(baseUrl);
    if (url.protocol === 'http:' || url.protocol === 'https:') return url;
  } catch {
    // reported below
  }
  throw new SpgateError('SPGATE_ERR_BASE_URL_INVALID', `${JSON.stringify(baseUrl)} is not an absolute http(s) URL`);
}

function dropUndefined<T extends object>(o: T): Partial<T> {
  return Object.fromEntries(Object.entries(o).filter(([, v]) => v !== undefined)) as Partial<T>;
}
