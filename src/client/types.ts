/** The client's public interface. Implemented in client.ts on undici; everything else depends only on this. */
import type { KeyName, Tls } from '../target/schema.js';
import type { Exchange } from './exchange.js';
import type { SignedUrl } from './signed-url.js';

export interface RequestSpec {
  method: string;
  /** Path relative to the target's baseUrl (which ends in /v1), e.g. "/customers". Already URL-encoded. */
  path: string;
  /** Query parameters; values are URL-encoded by the client; undefined values are dropped. */
  query?: Record<string, string | number | boolean | undefined>;
  headers?: Record<string, string>;
  /** JSON body (serialized by the client, Content-Type set). */
  json?: unknown;
  /** Raw body, sent as is (for oversize and malformed bodies). */
  rawBody?: string | Uint8Array;
  /**
   * Key for `Authorization: Bearer <key>`: a role's key, or a key of its pool (`role.pool[i]`); null sends no
   * Authorization; a raw header wins.
   */
  role?: KeyName | null;
  /** Raw Authorization header value (for wrong schemes and bogus keys). */
  authorization?: string;
  /** Overall timeout in ms (default from client options). */
  timeoutMs?: number;
}

export interface ClientOptions {
  baseUrl: string;
  /** Secrets by key name (roles and pool keys): used for Authorization and for redaction. */
  secrets: Partial<Record<KeyName, string>>;
  connectTimeoutMs?: number;
  headersTimeoutMs?: number;
  bodyTimeoutMs?: number;
  /** Default overall timeout of one request (RequestSpec.timeoutMs overrides it). */
  timeoutMs?: number;
  /** Response bodies above this are cut off and reported as a 'too-large' error. */
  maxBodyBytes?: number;
  connections?: number;
  /** Called with every exchange (already redacted). */
  onExchange?: (x: Exchange) => void;
  /** Aborts every in-flight request when signalled. */
  signal?: AbortSignal;
  /** The target file's tls block (extra CA, client certificate, server name). */
  tls?: Tls;
  /** Environment holding HTTPS_PROXY / HTTP_PROXY / NO_PROXY (default process.env). */
  env?: NodeJS.ProcessEnv;
}

export interface HttpClient {
  /** Sends a request relative to baseUrl; never throws for HTTP or transport failures (see Exchange.error). */
  send(spec: RequestSpec): Promise<Exchange>;
  /** Sends to an absolute URL (fixtures API); no Authorization unless spec.role says so. */
  sendAbsolute(url: string, spec: Omit<RequestSpec, 'path'>): Promise<Exchange>;
  /**
   * Sends a request (to baseUrl + path, or to `absoluteUrl`) and hands back, beside its redacted exchange, the
   * absolute URL in the 200 answer's JSON at `field` (a dotted path) as a SignedUrl: the one way code outside
   * the client holds a signed URL, which it can fetch but never print.
   */
  sendForSignedUrl(spec: RequestSpec, field: string, absoluteUrl?: string): Promise<{ exchange: Exchange; url?: SignedUrl }>;
  /**
   * GETs a signed URL without Authorization (the URL is its own credential). The exchange records the URL as
   * SignedUrl.redactedForm and the body's size, not its bytes (file contents are untrusted data).
   */
  fetchSigned(url: SignedUrl, timeoutMs?: number): Promise<Exchange>;
  close(): Promise<void>;
}
