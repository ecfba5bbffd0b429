/**
 * An Exchange is one recorded HTTP call. It is redacted when it is created (API keys, Authorization
 * headers and signed attachment URLs replaced), so nothing downstream can leak a secret.
 */

export type ClientErrorKind = 'refused' | 'reset' | 'timeout' | 'too-large' | 'bad-json' | 'redirect' | 'aborted' | 'other';

export interface ClientError {
  kind: ClientErrorKind;
  /** One line, redacted. */
  message: string;
}

export interface ExchangeRequest {
  method: string;
  /** Full URL, redacted. */
  url: string;
  headers: Record<string, string>;
  /** Request body as sent (text), redacted, truncated to a few KiB for the record. */
  body?: string;
  /** Size of the body actually sent, in bytes. */
  bodyBytes: number;
  /** Key role used for Authorization, if any ("admin", …) — lets reproductions say which key to export. */
  keyRole?: string;
}

export interface ExchangeResponse {
  status: number;
  /** Header names lowercased; repeated headers kept as arrays. Redacted. */
  headers: Record<string, string | string[]>;
  /** Body text, redacted, truncated for the record (see bodyBytes for the full size). */
  body: string;
  bodyBytes: number;
  /** Parsed JSON when the body parsed (redacted); undefined otherwise. */
  json?: unknown;
  /** Why the body did not parse as JSON, when it did not. */
  jsonError?: string;
}

export interface ExchangeTimings {
  /** Epoch ms when the request was started. */
  start: number;
  /** ms from start to response headers. */
  headers?: number;
  /** ms from start to end of body (or error). */
  total: number;
}

export interface Exchange {
  /** Unique within a run: "x1", "x2", … */
  id: string;
  request: ExchangeRequest;
  response?: ExchangeResponse;
  error?: ClientError;
  timings: ExchangeTimings;
}
