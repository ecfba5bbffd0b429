/**
 * HAR 1.2 in (browser devtools, proxies): each answered request to the API becomes a trace record, so
 * `spgate analyze` and `spgate shrink` read the traces users already have. Secrets are dropped on read:
 * the Authorization header is only told apart (distinct keys are distinct budgets: role, role#2, …), query
 * strings (where signed URLs carry their credentials) and bodies are never kept, and every kept text goes
 * through the trace sanitizer. What a HAR cannot say is inferred: the route class from the method (spec
 * part 8), the route template from the path, the key role from `--key-role` (default admin).
 */
import { readFile } from 'node:fs/promises';
import { SpgateError } from '../errors.js';
import { NAMED_ROUTES } from '../spec/routes.js';
import { bodyErrorCode } from '../spec/resources.js';
import type { TraceRecord } from './record.js';
import { sanitizeKeyRole, sanitizePath, sanitizeRecord, sanitizeText } from './sanitize.js';

export interface HarOptions {
  /** Key role of the first credential seen; further distinct credentials get role#2, role#3, … */
  keyRole?: string;
}

interface HarHeader {
  name: string;
  value: string;
}

const RATE_HEADERS = /^(ratelimit|ratelimit-.*|x-ratelimit-.*|retry-after)$/;

/** Route templates spgate knows (spec part 4), most specific first; `{x}` matches one segment. */
const KNOWN_TEMPLATES: string[] = [
  ...Object.values(NAMED_ROUTES)
    .map((r) => r.path)
    .filter((p) => !p.includes('{resolvePath}')),
  '/customers/{customerId}',
  '/conversations/{conversationId}/assign',
  '/conversations/{conversationId}/resolve',
  '/authoring/collections/{collectionId}',
  '/ai/assistant/sessions/{completedSessionId}/turns/{completedTurnId}/cancel',
].sort((a, b) => b.split('/').length - a.split('/').length);

const TEMPLATE_RES = KNOWN_TEMPLATES.map((t) => [t, new RegExp('^' + t.replace(/\{[^}]+\}/g, '[^/]+') + '/?$')] as const);

/** The route template of an API path (after the /v1 base): a known route, else id-like segments as {id}. */
export function templateOf(apiPath: string): string {
  for (const [t, re] of TEMPLATE_RES) if (re.test(apiPath)) return t;
  return apiPath
    .split('/')
    .map((seg) => (/^[a-z]{2,5}_[A-Za-z0-9]+$|^\d+$|^[0-9a-f-]{16,}$/i.test(seg) ? '{id}' : seg))
    .join('/');
}

/** The API path of a URL: what follows the `/v1` base segment (the whole path when there is none). */
function apiPathOf(url: URL): { path: string; underBase: boolean } {
  const m = /^(.*?\/v1)(\/.*)?$/.exec(url.pathname);
  if (!m) return { path: url.pathname, underBase: false };
  return { path: m[2] ?? '/', underBase: true };
}

function invalid(source: string, why: string): SpgateError {
  return new SpgateError('SPGATE_ERR_HAR_INVALID', `${source}: ${why}`);
}

/** The response body the HAR kept, if it kept one. */
function bodyOf(content: unknown): string | undefined {
  const c = content as { text?: unknown; encoding?: unknown } | undefined;
  if (typeof c?.text !== 'string') return undefined;
  return c.encoding === 'base64' ? Buffer.from(c.text, 'base64').toString('utf8') : c.text;
}

/** The error code of a JSON error envelope, made safe to print. */
function printableErrorCode(text: string): string | undefined {
  const code = bodyErrorCode(text);
  return code === undefined ? undefined : sanitizeText(code);
}

/** Converts a parsed HAR document; throws SPGATE_ERR_HAR_INVALID when it is not HAR or has no usable entry. */
export function harToRecords(har: unknown, source: string, opts: HarOptions = {}): { records: TraceRecord[]; ignored: number } {
  const entries = (har as { log?: { entries?: unknown } } | null)?.log?.entries;
  if (!Array.isArray(entries)) throw invalid(source, 'not a HAR 1.2 document (no log.entries)');
  const role = sanitizeKeyRole(opts.keyRole ?? 'admin');
  const credentials = new Map<string, string>();
  const rows: Array<{ start: number; rec: Omit<TraceRecord, 't'> }> = [];
  let ignored = 0;
  for (const e of entries as Array<Record<string, any>>) {
    const started = Date.parse(String(e?.startedDateTime ?? ''));
    let url: URL;
    try {
      url = new URL(String(e?.request?.url ?? ''));
    } catch {
      ignored += 1;
      continue;
    }
    if (!Number.isFinite(started) || !/^https?:$/.test(url.protocol)) {
      ignored += 1;
      continue;
    }
    const headers = new Map<string, string>();
    for (const h of (Array.isArray(e?.response?.headers) ? e.response.headers : []) as HarHeader[]) {
      if (typeof h?.name !== 'string' || typeof h?.value !== 'string') continue;
      const n = h.name.toLowerCase();
      headers.set(n, headers.has(n) ? `${headers.get(n)}, ${h.value}` : h.value);
    }
    const { path, underBase } = apiPathOf(url);
    const rate = [...headers.keys()].filter((n) => RATE_HEADERS.test(n));
    if (!underBase && rate.length === 0) {
      ignored += 1;
      continue;
    }
    const method = String(e?.request?.method ?? 'GET').toUpperCase();
    const status = Number.isInteger(e?.response?.status) && e.response.status > 0 ? (e.response.status as number) : 0;
    const t = e?.timings ?? {};
    const phases = ['blocked', 'dns', 'connect', 'send', 'wait'].map((k) => (typeof t[k] === 'number' && t[k] > 0 ? (t[k] as number) : 0));
    const latency = phases.some((x) => x > 0) ? phases.reduce((a, b) => a + b, 0) : Math.max(0, Number(e?.time) || 0);
    let key: string | undefined;
    for (const h of (Array.isArray(e?.request?.headers) ? e.request.headers : []) as HarHeader[]) {
      if (typeof h?.name === 'string' && h.name.toLowerCase() === 'authorization' && typeof h.value === 'string' && h.value !== '') {
        if (!credentials.has(h.value)) credentials.set(h.value, credentials.size === 0 ? role : `${role}#${credentials.size + 1}`);
        key = credentials.get(h.value);
      }
    }
    const rec: Omit<TraceRecord, 't'> = {
      latency: Math.round(latency * 1000) / 1000,
      class: method === 'GET' || method === 'HEAD' ? 'read' : 'write',
      method,
      path: templateOf(sanitizePath(path)),
      status,
      ...(key !== undefined ? { key } : {}),
      epochMs: started + latency,
    };
    const spec: Array<[keyof TraceRecord, string]> = [
      ['limit', 'ratelimit-limit'],
      ['remaining', 'ratelimit-remaining'],
      ['reset', 'ratelimit-reset'],
      ['retryAfter', 'retry-after'],
      ['requestId', 'x-request-id'],
    ];
    for (const [field, name] of spec) if (headers.has(name)) (rec as Record<string, unknown>)[field] = headers.get(name);
    const raw = Object.fromEntries(rate.map((n) => [n, sanitizeText(headers.get(n)!)]));
    if (Object.keys(raw).length > 0) rec.headers = raw;
    if (status === 429) {
      const body = bodyOf(e?.response?.content);
      const code = body === undefined ? undefined : printableErrorCode(body);
      if (code !== undefined) rec.errorCode = code;
      if (body === undefined) rec.bodyRecorded = false;
    }
    if (status === 0) rec.error = sanitizeText(String(e?.response?._error ?? 'no response recorded in the HAR'));
    rows.push({ start: started, rec });
  }
  if (rows.length === 0) {
    throw invalid(
      source,
      `no usable entries (${entries.length} entr${entries.length === 1 ? 'y' : 'ies'}, none an http(s) request under /v1 or with rate-limit headers)`,
    );
  }
  const t0 = Math.min(...rows.map((r) => r.start));
  const records = rows
    .sort((a, b) => a.start - b.start)
    .map(({ start, rec }) => {
      const full = sanitizeRecord({ t: start - t0, ...rec });
      // sanitizeRecord keeps the schema's core fields; the raw headers and wall clock are kept, sanitized above.
      if (rec.headers) full.headers = rec.headers;
      if (rec.epochMs !== undefined) full.epochMs = rec.epochMs;
      return full;
    });
  return { records, ignored };
}

/** Reads a .har file. */
export async function readHar(path: string, opts: HarOptions = {}): Promise<{ records: TraceRecord[]; ignored: number }> {
  let text: string;
  try {
    text = await readFile(path, 'utf8');
  } catch (cause) {
    throw new SpgateError('SPGATE_ERR_FILE_NOT_FOUND', `cannot read HAR file ${path}`, { cause });
  }
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch (err) {
    throw invalid(path, `not JSON (${(err as Error).message})`);
  }
  return harToRecords(json, path, opts);
}
