/**
 * Judging a chat listing (spec 4.3: "at most 100 unexpired chats of that conversation"). Pure: the suite
 * sends the request and hands the answer, or its body and response headers, here.
 *
 * Expiry is judged against the server's own clock, read from the response's `Date` header (RFC 9110
 * §6.6.1: the origin's time when the message was generated), because a chat's retentionExpiresAt was
 * written by that clock; the local clock is the fallback when the header is missing or unreadable. A chat
 * counts as expired only when its retentionExpiresAt lies more than EXPIRY_TOLERANCE_MS before that time:
 * `Date` has one-second granularity and the local fallback may be skewed, and a chat expiring while the
 * answer was built is no fault.
 */
import type { Exchange } from '../../src/client/exchange.js';

/** How far in the past retentionExpiresAt must lie before a listed chat counts as expired. */
export const EXPIRY_TOLERANCE_MS = 60_000;

/** One listed chat, as far as these judgements read it. */
export interface ListedSession {
  id: string;
  conversationId: unknown;
  retentionExpiresAt: unknown;
}

/** The chats of a `{ data: [...] }` listing (non-object items are kept with their fields unknown). */
export function listedSessions(body: unknown): ListedSession[] {
  const data = body && typeof body === 'object' && !Array.isArray(body) ? (body as { data?: unknown }).data : undefined;
  if (!Array.isArray(data)) return [];
  return data.map((s) => {
    const o = (s && typeof s === 'object' ? s : {}) as Record<string, unknown>;
    return { id: String(o.id), conversationId: o.conversationId, retentionExpiresAt: o.retentionExpiresAt };
  });
}

/**
 * The chats of a listing answer that shows them: 200 with a `{ data: [...] }` body. Undefined for any other
 * answer (an error, a transport failure, a body without a data array), which shows no chat at all: neither
 * one that should not be there nor its absence.
 */
export function sessionsOf(x: Exchange): ListedSession[] | undefined {
  const body = x.response?.status === 200 ? x.response.json : undefined;
  const data = body && typeof body === 'object' && !Array.isArray(body) ? (body as { data?: unknown }).data : undefined;
  return Array.isArray(data) ? listedSessions(body) : undefined;
}

/**
 * Another key's listing of a conversation's chats, judged against the ids of the owner's chats (`mine`):
 * it must be refused (403 or 404) or show a data array holding none of them. An answer that shows no chats
 * at all (another error, a body without data) shows no leak, and not its absence either. `leaked`: those of
 * `mine` it listed.
 */
export function foreignListing(x: Exchange, mine: readonly string[]): { ok: boolean; leaked: string[] } {
  const seen = sessionsOf(x);
  const leaked = (seen ?? []).map((s) => s.id).filter((id) => mine.includes(id));
  const status = x.response?.status;
  return { ok: status === 403 || status === 404 || (seen !== undefined && leaked.length === 0), leaked };
}

/** Listed chats whose conversationId is not the listed conversation. */
export function foreignSessions(list: readonly ListedSession[], conversationId: string): ListedSession[] {
  return list.filter((s) => s.conversationId !== conversationId);
}

/** The server's time for an answer: its `Date` header when readable, else `fallback` (the local clock). */
export function serverTime(
  headers: Record<string, string | string[]> | undefined,
  fallback: number,
): { at: number; source: 'Date header' | 'local clock' } {
  const raw = headers?.date;
  const value = Array.isArray(raw) ? raw[0] : raw;
  const at = value === undefined ? NaN : Date.parse(value);
  return Number.isNaN(at) ? { at: fallback, source: 'local clock' } : { at, source: 'Date header' };
}

/**
 * Listed chats that had expired when the answer was made: retentionExpiresAt more than the tolerance
 * before `now`. A missing or unreadable retentionExpiresAt is the shape check's finding, not this one's.
 */
export function expiredSessions(list: readonly ListedSession[], now: number, toleranceMs = EXPIRY_TOLERANCE_MS): ListedSession[] {
  return list.filter((s) => {
    const t = typeof s.retentionExpiresAt === 'string' ? Date.parse(s.retentionExpiresAt) : NaN;
    return !Number.isNaN(t) && t < now - toleranceMs;
  });
}
