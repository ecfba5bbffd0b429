/**
 * Turns what the client saw into an Exchange. This is the one place exchanges are created, and it redacts
 * everything on the way in: after this function no code holds an unredacted copy of a recorded call.
 */
import type { ClientError, Exchange, ExchangeRequest, ExchangeTimings } from './exchange.js';
import type { Redactor } from './redact.js';

/** How much of a body an Exchange keeps; bodyBytes still reports the full size. */
export const RECORDED_BODY_CHARS = 8 * 1024;

/** The request as sent: the same fields as the recorded one, before redaction. */
export type RawRequest = ExchangeRequest;

export interface RawResponse {
  status: number;
  headers: Record<string, string | string[]>;
  /** Decoded body text (possibly cut short at the client's body cap). */
  text: string;
  bodyBytes: number;
  /** False when the body was cut short: a prefix of a JSON document is not worth parsing. */
  complete: boolean;
}

export interface RawExchange {
  id: string;
  request: RawRequest;
  response?: RawResponse;
  error?: ClientError;
  timings: ExchangeTimings;
}

type JsonOutcome = { kind: 'none' } | { kind: 'parsed'; value: unknown } | { kind: 'invalid'; reason: string };

/** Parses a body as JSON when its content type or its first character says it is JSON. */
export function parseJsonBody(contentType: string | undefined, text: string): JsonOutcome {
  const trimmed = text.trim();
  const declared = contentType !== undefined && /[/+]json\b/i.test(contentType);
  const looks = trimmed.startsWith('{') || trimmed.startsWith('[');
  if (!declared && !looks) return { kind: 'none' };
  if (trimmed === '') return declared ? { kind: 'invalid', reason: 'empty body' } : { kind: 'none' };
  try {
    return { kind: 'parsed', value: JSON.parse(trimmed) as unknown };
  } catch (err) {
    return { kind: 'invalid', reason: firstLine(err instanceof Error ? err.message : String(err)) };
  }
}

/** Builds the redacted, size-bounded Exchange from raw parts. */
export function recordExchange(raw: RawExchange, redactor: Redactor): Exchange {
  const req = raw.request;
  const exchange: Exchange = {
    id: raw.id,
    request: {
      method: req.method,
      url: redactor.redactUrl(req.url),
      headers: redactor.redactHeaders(req.headers),
      bodyBytes: req.bodyBytes,
    },
    timings: { ...raw.timings },
  };
  if (req.body !== undefined) exchange.request.body = truncate(redactor.redactString(req.body));
  if (req.keyRole !== undefined) exchange.request.keyRole = req.keyRole;
  if (raw.response) {
    const res = raw.response;
    const contentType = res.headers['content-type'];
    const json = res.complete
      ? parseJsonBody(Array.isArray(contentType) ? contentType[0] : contentType, res.text)
      : { kind: 'none' as const };
    const body = redactor.redactString(res.text);
    exchange.response = {
      status: res.status,
      headers: redactor.redactHeaders(res.headers),
      body: truncate(body),
      bodyBytes: res.bodyBytes,
    };
    // A body whose text holds nothing to redact and no escape holds nothing to redact once parsed either
    // (without a backslash every JSON string is its text verbatim): its parsed value, made here for the
    // record alone, is kept as it is instead of copied string by string (a tenth of a conformance run's
    // CPU went to that copy). A body with an escape could spell a key as \u escapes: it is redacted parsed.
    if (json.kind === 'parsed')
      exchange.response.json = body === res.text && !res.text.includes('\\') ? json.value : redactor.redactJson(json.value);
    if (json.kind === 'invalid') exchange.response.jsonError = redactor.redactString(json.reason);
  }
  if (raw.error) exchange.error = { kind: raw.error.kind, message: firstLine(redactor.redactString(raw.error.message)) };
  return exchange;
}

function truncate(text: string): string {
  return text.length > RECORDED_BODY_CHARS ? text.slice(0, RECORDED_BODY_CHARS) : text;
}

function firstLine(text: string): string {
  const line = text.split(/\r?\n/, 1)[0] ?? '';
  return line.length > 300 ? `${line.slice(0, 300)}…` : line;
}
