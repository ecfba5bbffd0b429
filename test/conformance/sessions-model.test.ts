/**
 * The pure judgements of a chat listing (suites/model/sessions.ts): which chats belong to another
 * conversation, which had expired by the server's own clock, and where that clock is read.
 */
import { describe, expect, it } from 'vitest';
import { EXPIRY_TOLERANCE_MS, expiredSessions, foreignSessions, listedSessions, serverTime } from '../../suites/model/sessions.js';

const NOW = Date.parse('2026-11-23T12:00:00Z');
const at = (ms: number): string => new Date(NOW + ms).toISOString();
const list = (...items: Array<Record<string, unknown>>) => listedSessions({ data: items });

describe('foreignSessions', () => {
  it("finds chats of other conversations and none when every chat is the listed one's", () => {
    const l = list({ id: 'a', conversationId: 'conv_1' }, { id: 'b', conversationId: 'conv_2' }, { id: 'c' });
    expect(foreignSessions(l, 'conv_1').map((s) => s.id)).toEqual(['b', 'c']);
    expect(foreignSessions(list({ id: 'a', conversationId: 'conv_1' }), 'conv_1')).toEqual([]);
  });

  it('reads nothing from a body that is not a { data: [...] } listing', () => {
    expect(listedSessions([{ id: 'a' }])).toEqual([]);
    expect(listedSessions(null)).toEqual([]);
  });
});

describe('expiredSessions', () => {
  it('flags a chat that expired well before the answer', () => {
    const l = list({ id: 'old', retentionExpiresAt: at(-86_400_000) }, { id: 'live', retentionExpiresAt: at(86_400_000) });
    expect(expiredSessions(l, NOW).map((s) => s.id)).toEqual(['old']);
  });

  it('tolerates expiry within the tolerance (Date granularity, skew, expiring while answered)', () => {
    const l = list({ id: 'edge', retentionExpiresAt: at(-EXPIRY_TOLERANCE_MS + 1) }, { id: 'now', retentionExpiresAt: at(0) });
    expect(expiredSessions(l, NOW)).toEqual([]);
    expect(expiredSessions(list({ id: 'past', retentionExpiresAt: at(-EXPIRY_TOLERANCE_MS - 1) }), NOW).map((s) => s.id)).toEqual(['past']);
  });

  it('accepts any RFC 3339 offset and leaves unreadable values to the shape check', () => {
    const l = list(
      { id: 'offset', retentionExpiresAt: '2026-11-23T13:30:00+02:00' },
      { id: 'junk', retentionExpiresAt: 'soon' },
      { id: 'none' },
    );
    expect(expiredSessions(l, NOW).map((s) => s.id)).toEqual(['offset']);
  });
});

describe('serverTime', () => {
  it('reads the Date header (RFC 9110 IMF-fixdate), else falls back to the local clock', () => {
    expect(serverTime({ date: 'Mon, 23 Nov 2026 12:00:00 GMT' }, 0)).toEqual({ at: NOW, source: 'Date header' });
    expect(serverTime({ date: ['Mon, 23 Nov 2026 12:00:00 GMT'] }, 0).source).toBe('Date header');
    expect(serverTime({ date: 'not a date' }, 5)).toEqual({ at: 5, source: 'local clock' });
    expect(serverTime({}, 7)).toEqual({ at: 7, source: 'local clock' });
    expect(serverTime(undefined, 9).source).toBe('local clock');
  });
});
