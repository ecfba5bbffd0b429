/**
 * Redaction of secrets. Every Exchange passes through a Redactor when it is created, so nothing that reads
 * exchanges (reports, traces, reproductions, error messages) can leak an API key or a signed URL.
 *
 * - A known secret anywhere (text, header names and values, JSON keys and values, URLs) → `<redacted>`.
 * - In an Authorization header, a known key → `<redacted:ROLE>` (so `Bearer <redacted:admin>`), which
 *   tells a reader of a reproduction which key to export without showing it.
 * - Absolute http(s) URLs with a query string inside bodies and response headers (signed attachment
 *   URLs, `Location`) → the query becomes `?<redacted>`, and that query is remembered as a secret.
 *   Request URLs keep their own query (cursors, filters are needed to reproduce a failure); only secrets,
 *   including remembered signed-URL queries, are removed there.
 */

export const REDACTED = '<redacted>';

export interface Redactor {
  /** Removes secrets and the query of embedded absolute URLs from free text (bodies, error messages). */
  redactString(text: string): string;
  /** Removes secrets only; the URL's own query is kept (request URLs). */
  redactUrl(url: string): string;
  /** Redacts header names and values; Authorization keys become `<redacted:ROLE>`. */
  redactHeaders<V extends string | string[]>(headers: Record<string, V>): Record<string, V>;
  /** Deep copy of a JSON value with every string (keys included) redacted like redactString. */
  redactJson(value: unknown): unknown;
}

interface Needle {
  text: string;
  role?: string;
}

// Secrets shorter than this would match ordinary text ("a", "id") and destroy every record.
const MIN_SECRET_LENGTH = 4;

const MAX_LEARNED = 256;
// Short queries (?page=2) are not signatures, and replacing them everywhere would mangle ordinary text.
const MIN_LEARNED_QUERY = 16;

// An absolute http(s) URL that carries a query string; the query runs to whitespace, a quote or a bracket.
const SIGNED_URL = /\bhttps?:\/\/[^\s"'<>?#]+\?[^\s"'<>#]+/gi;

/**
 * Builds a redactor from the secrets to hide: a list, or a map of role → secret (roles then show in
 * redacted Authorization headers).
 */
export function createRedactor(secrets: readonly string[] | Readonly<Record<string, string | undefined>>): Redactor {
  const needles = collectNeedles(secrets);
  // Queries of signed URLs seen in responses. Fetching such a URL later (sendAbsolute) must not print
  // its signature in the request URL either, so they become secrets once seen. Bounded: a load run can
  // see many descriptors, and a URL is fetched soon after it was handed out (it expires in minutes).
  const learned: string[] = [];

  const replaceSecrets = (text: string, byRole: boolean): string => {
    let out = text;
    for (const n of needles) {
      if (!out.includes(n.text)) continue;
      const marker = byRole && n.role ? `<redacted:${n.role}>` : REDACTED;
      out = out.split(n.text).join(marker);
    }
    for (const q of learned) if (out.includes(q)) out = out.split(q).join(REDACTED);
    return out;
  };

  const learn = (query: string): void => {
    if (query.length < MIN_LEARNED_QUERY || learned.includes(query)) return;
    learned.push(query);
    if (learned.length > MAX_LEARNED) learned.shift();
  };

  const redactString = (text: string): string =>
    replaceSecrets(text, false).replace(SIGNED_URL, (url) => {
      const q = url.indexOf('?');
      learn(url.slice(q + 1));
      return `${url.slice(0, q)}?${REDACTED}`;
    });

  const redactValue = (name: string, value: string): string =>
    name.toLowerCase() === 'authorization' ? redactString(replaceSecrets(value, true)) : redactString(value);

  return {
    redactString,
    redactUrl: (url) => replaceSecrets(url, false),
    redactHeaders<V extends string | string[]>(headers: Record<string, V>): Record<string, V> {
      const out: Record<string, V> = {};
      for (const [name, value] of Object.entries(headers)) {
        const cleanName = redactString(name);
        setOwn(out, cleanName, (Array.isArray(value) ? value.map((v) => redactValue(name, v)) : redactValue(name, value)) as V);
      }
      return out;
    },
    redactJson(value: unknown): unknown {
      return deepMap(value, redactString);
    },
  };
}

function collectNeedles(secrets: readonly string[] | Readonly<Record<string, string | undefined>>): Needle[] {
  const raw: Needle[] = Array.isArray(secrets)
    ? (secrets as readonly string[]).map((text) => ({ text }))
    : Object.entries(secrets as Record<string, string | undefined>).flatMap(([role, text]) => (text ? [{ text, role }] : []));
  const needles: Needle[] = [];
  const seen = new Set<string>();
  for (const n of raw) {
    if (n.text.length < MIN_SECRET_LENGTH) continue;
    // The same secret may also travel percent-encoded (in a query) or JSON-escaped (in a body).
    for (const variant of [n.text, safeEncode(n.text), JSON.stringify(n.text).slice(1, -1)]) {
      if (seen.has(variant)) continue;
      seen.add(variant);
      needles.push({ text: variant, role: n.role });
    }
  }
  // Longest first, so a secret that contains another is replaced whole.
  return needles.sort((a, b) => b.text.length - a.text.length);
}

function safeEncode(text: string): string {
  try {
    return encodeURIComponent(text);
  } catch {
    return text; // lone surrogates cannot be encoded; the raw form is still covered
  }
}

function deepMap(value: unknown, fn: (s: string) => string): unknown {
  if (typeof value === 'string') return fn(value);
  if (Array.isArray(value)) return value.map((v) => deepMap(v, fn));
  if (value !== null && typeof value === 'object') {
    const out: Record<string, unknown> = {};
    for (const [k, v] of Object.entries(value)) setOwn(out, fn(k), deepMap(v, fn));
    return out;
  }
  return value;
}

// Plain assignment of "__proto__" would change the prototype instead of adding a key (JSON.parse makes such keys).
function setOwn<V>(obj: Record<string, V>, key: string, value: V): void {
  Object.defineProperty(obj, key, { value, enumerable: true, writable: true, configurable: true });
}
