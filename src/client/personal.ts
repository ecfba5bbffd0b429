/**
 * Redaction of response data for CI-facing text (console, step summary, annotations, JUnit and CTRF
 * messages). Those land in CI logs that many people read and that are kept for months; on a staging
 * deployment a response body holds customers' names, emails and phone numbers. Secrets are already gone
 * (redact.ts); this removes what a body says, keeping its shape: JSON keys, numbers, booleans, null and the
 * string values that are identifiers or codes. The full exchange stays in the report files (HTML, results.json).
 */

/** What a removed value becomes. */
export const PERSONAL = '<redacted>';

// String values under these keys name things, not people: kept, since they say what failed (an error code,
// a status key, an id to look up in the report).
const KEPT_KEYS = new Set([
  'id',
  'code',
  'status',
  'priority',
  'channel',
  'type',
  'requestId',
  'customerId',
  'conversationId',
  'sessionId',
  'turnId',
  'runId',
  'proposalId',
  'effectId',
  'channelIdentityId',
  'parentId',
  'locale',
  'emailStatus',
  'lastActiveChannel',
  'language',
  'timezone',
  'createdAt',
  'updatedAt',
  'expiresAt',
  'confirmedAt',
  'undoneAt',
  'firstContactAt',
  'lastSeenAt',
  'archivedAt',
  'lastActivityAt',
  'retentionExpiresAt',
  'approvalMode',
  'contentType',
]);

// "key": "value" — the value may be cut off by a preview (no closing quote; the text ends, or "…" follows).
const JSON_STRING = /"((?:[^"\\]|\\.)*)"(\s*:\s*)"((?:[^"\\]|\\.)*)("|…|$)/g;
// A JSON string inside an array ("tags": ["vip", "x"]): any quoted string after `[` or `,` that is not a key.
const ARRAY_STRING = /([[,]\s*)"((?:[^"\\]|\\.)*)"(?=\s*[,\]])/g;
// Also percent-encoded (%40) as in a search query of a curl line.
const EMAIL = /[A-Za-z0-9._%+-]+(?:@|%40)[A-Za-z0-9.-]+\.[A-Za-z]{2,}/g;
const HAS_EMAIL = /(?:@|%40)[A-Za-z0-9.-]+\.[A-Za-z]{2,}/;
// Query parameters of a request URL: a search term or an external id can be a person's; paging is not.
const QUERY_PARAM = /([?&])([A-Za-z0-9_.[\]-]+)=([^&\s"'#]*)/g;
const KEPT_PARAMS = new Set(['limit', 'cursor', 'after']);
// International phone numbers (+49 30 1234567); bare digit runs are left alone (timestamps, counts).
const PHONE = /\+\d[\d ()./-]{6,}\d/g;

/**
 * `text` with response data removed: JSON string values (but ids and codes), query values (but paging),
 * emails and phone numbers.
 */
export function redactPersonal(text: string): string {
  return text
    .replace(
      JSON_STRING,
      (_m, key: string, colon: string, value: string, end: string) =>
        `"${key}"${colon}"${KEPT_KEYS.has(key) && !HAS_EMAIL.test(value) ? value : PERSONAL}${end === '…' ? '"…' : end === '' ? '"' : end}`,
    )
    .replace(ARRAY_STRING, (_m, lead: string) => `${lead}"${PERSONAL}"`)
    .replace(QUERY_PARAM, (m, sep: string, name: string) => (KEPT_PARAMS.has(name) ? m : `${sep}${name}=${PERSONAL}`))
    .replace(EMAIL, PERSONAL)
    .replace(PHONE, PERSONAL);
}
