/**
 * The other cursor format a dialect can pick: random tokens that mean nothing to the client, with the
 * position kept server-side. A tampered or truncated token is simply unknown, so it is refused (400) like a
 * tampered signed cursor. Tokens come from the seeded generator, so the same seed and the same requests give
 * the same tokens; the same position and filters always get the same token back.
 */
import type { CursorCheck } from './cursor.js';
import type { Prng } from './prng.js';

interface Entry {
  e: string;
  b: string;
  p: unknown;
}

/** Bounded, but far above what one run traverses: an evicted cursor would be refused like a tampered one. */
const MAX_TOKENS = 200_000;
const B64 = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/';

export class OpaqueCursors {
  private byToken = new Map<string, Entry>();
  private byContent = new Map<string, string>();

  constructor(private readonly rng: Prng) {}

  /** A token for a position of an endpoint under a binding (the filter values). */
  sign(endpoint: string, binding: string, payload: unknown): string {
    return this.issue(endpoint, binding, payload, false);
  }

  /**
   * The same kind of token in standard base64 ("+", "/" and a trailing "="), so it must be percent-encoded in
   * a URL. Only the cursor-raw-query fault issues it.
   */
  signStandard(endpoint: string, binding: string, payload: unknown): string {
    return this.issue(endpoint, binding, payload, true);
  }

  /** Looks a token up; `checkBinding` false skips the binding check (only the cursor-unbound-filter fault). */
  verify<T>(token: string, endpoint: string, binding: string, checkBinding = true): CursorCheck<T> {
    const entry = token.length <= 64 ? this.byToken.get(token) : undefined;
    if (!entry) return { ok: false, reason: 'malformed' };
    if (entry.e !== endpoint || (checkBinding && entry.b !== binding)) return { ok: false, reason: 'foreign' };
    return { ok: true, payload: entry.p as T };
  }

  private issue(endpoint: string, binding: string, payload: unknown, standard: boolean): string {
    const content = JSON.stringify([standard, endpoint, binding, payload]);
    const known = this.byContent.get(content);
    if (known !== undefined) return known;
    let token: string;
    do token = standard ? this.standardToken() : 'c_' + this.rng.token(24);
    while (this.byToken.has(token));
    if (this.byToken.size >= MAX_TOKENS) {
      this.byToken.clear();
      this.byContent.clear();
    }
    this.byToken.set(token, { e: endpoint, b: binding, p: payload });
    this.byContent.set(content, token);
    return token;
  }

  /** 23 base64 characters and "=": always needs percent-encoding in a query string. */
  private standardToken(): string {
    let out = '+';
    for (let i = 0; i < 21; i++) out += B64[this.rng.int(64)];
    return out + '/=';
  }
}
