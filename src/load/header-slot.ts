/**
 * Which response header a raw header name is, whatever its case, without a lowercased copy per header: the
 * names the verifier reads (RateLimit-*, Retry-After, X-Request-Id) and the framing headers the open
 * engine's HTTP/1.1 parser needs (Content-Length, Transfer-Encoding, Connection). Both engines use it.
 */

export const NONE = 0;
export const LIMIT = 1;
export const REMAINING = 2;
export const RESET = 3;
export const RETRY_AFTER = 4;
export const REQUEST_ID = 5;
export const CONTENT_LENGTH = 6;
export const TRANSFER_ENCODING = 7;
export const CONNECTION = 8;

/** `name` equals `lower` ignoring ASCII case (header names are ASCII tokens): no lowercased copy. */
function sameName(name: string, lower: string): boolean {
  for (let i = 0; i < lower.length; i++) {
    let c = name.charCodeAt(i);
    if (c >= 65 && c <= 90) c += 32;
    if (c !== lower.charCodeAt(i)) return false;
  }
  return true;
}

/**
 * `name` is `lower` in any case. A lowercase name is compared whole first (one comparison in the engine's
 * native code: the parser's header names are slices of a line, on which a loop of charCodeAt costs several
 * times more), then character by character ignoring case.
 */
function isName(name: string, lower: string): boolean {
  return name === lower || sameName(name, lower);
}

/**
 * The slot of a raw header name: by length first (only 10, 11, 12, 14, 15, 17 and 19-character names
 * matter), then by one character where two names share a length, then whole.
 */
export function headerSlot(name: string): number {
  switch (name.length) {
    case 10:
      return isName(name, 'connection') ? CONNECTION : NONE;
    case 11:
      return isName(name, 'retry-after') ? RETRY_AFTER : NONE;
    case 12:
      return isName(name, 'x-request-id') ? REQUEST_ID : NONE;
    case 14:
      return isName(name, 'content-length') ? CONTENT_LENGTH : NONE;
    case 15: {
      // ratelimit-Limit or ratelimit-Reset: the eleventh character tells which to compare with.
      const c = name.charCodeAt(10) | 32;
      return c === 108
        ? isName(name, 'ratelimit-limit')
          ? LIMIT
          : NONE
        : c === 114
          ? isName(name, 'ratelimit-reset')
            ? RESET
            : NONE
          : NONE;
    }
    case 17:
      return isName(name, 'transfer-encoding') ? TRANSFER_ENCODING : NONE;
    case 19:
      return isName(name, 'ratelimit-remaining') ? REMAINING : NONE;
    default:
      return NONE;
  }
}
