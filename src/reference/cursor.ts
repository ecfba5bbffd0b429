/**
 * Opaque list cursors: a JSON payload signed with HMAC-SHA256 and bound to the endpoint and the filter values
 * it was issued for, so a tampered, truncated or foreign cursor is detected instead of silently misread.
 */
import { createHmac, timingSafeEqual } from 'node:crypto';

export type CursorCheck<T> = { ok: true; payload: T } | { ok: false; reason: 'malformed' | 'signature' | 'foreign' };

const CACHE_SIZE = 2048;

export class CursorSigner {
  /** Signed cursors by content: list traversals sign the same positions again and again. */
  private cache = new Map<string, string>();

  constructor(private readonly secret: string) {}

  private mac(body: string): Buffer {
    return createHmac('sha256', this.secret).update(body).digest().subarray(0, 18);
  }

  /** Signs a payload for an endpoint and a binding (the filter values). */
  sign(endpoint: string, binding: string, payload: unknown): string {
    const text = JSON.stringify({ e: endpoint, b: binding, p: payload });
    const hit = this.cache.get(text);
    if (hit !== undefined) return hit;
    const body = Buffer.from(text).toString('base64url');
    const token = body + '.' + this.mac(body).toString('base64url');
    if (this.cache.size >= CACHE_SIZE) this.cache.clear();
    this.cache.set(text, token);
    return token;
  }

  /**
   * The same cursor in standard base64 with the whole 256-bit signature, so it always ends in "=" and must be
   * percent-encoded in a URL. Only the cursor-raw-query fault issues it.
   */
  signStandard(endpoint: string, binding: string, payload: unknown): string {
    const body = Buffer.from(JSON.stringify({ e: endpoint, b: binding, p: payload })).toString('base64');
    return body + '.' + createHmac('sha256', this.secret).update(body).digest('base64');
  }

  /** Verifies a cursor; `checkBinding` false skips the binding check (only the cursor-unbound-filter fault). */
  verify<T>(token: string, endpoint: string, binding: string, checkBinding = true): CursorCheck<T> {
    const dot = token.indexOf('.');
    if (dot <= 0 || dot !== token.lastIndexOf('.') || token.length > 2048) return { ok: false, reason: 'malformed' };
    const body = token.slice(0, dot);
    // compare the text, not decoded bytes: base64url decoding ignores stray characters a tamperer may add
    const given = Buffer.from(token.slice(dot + 1));
    const standard = token.endsWith('=');
    const expected = Buffer.from(
      standard ? createHmac('sha256', this.secret).update(body).digest('base64') : this.mac(body).toString('base64url'),
    );
    if (given.length !== expected.length || !timingSafeEqual(given, expected)) return { ok: false, reason: 'signature' };
    let parsed: { e?: unknown; b?: unknown; p?: unknown };
    try {
      parsed = JSON.parse(Buffer.from(body, 'base64url').toString('utf8')) as typeof parsed;
    } catch {
      return { ok: false, reason: 'malformed' };
    }
    if (parsed.e !== endpoint || (checkBinding && parsed.b !== binding)) return { ok: false, reason: 'foreign' };
    return { ok: true, payload: parsed.p as T };
  }
}
