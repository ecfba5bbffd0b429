/**
 * Renders records as the API's JSON resources (spec part 2). Faults that change a resource's shape are
 * applied here, at the one place each shape is produced.
 */
import type { FaultSet } from './fault-set.js';
import type {
  ArticleRecord, CollectionRecord, ConversationRecord, CustomerRecord, SessionRecord, TurnRecord,
} from './records.js';

const iso = (ms: number): string => new Date(ms).toISOString();
const isoOrNull = (ms: number | null): string | null => (ms === null ? null : iso(ms));
/** timestamps-no-offset: a local date-time formatter that drops the zone ("2026-11-20T10:00:00"). */
const noOffset = (ms: number): string => iso(ms).slice(0, 19);

/** The customer as a plain object (list item shape). */
export function customerObject(c: CustomerRecord, faults: FaultSet): Record<string, unknown> {
  return {
    id: c.id, externalId: c.externalId, name: c.name, email: c.email, phone: c.phone, company: c.company,
    language: c.language, timezone: c.timezone, avatarUrl: c.avatarUrl, claimedEmail: c.claimedEmail,
    emailStatus: c.emailStatus, lastActiveChannel: c.lastActiveChannel, firstContactAt: isoOrNull(c.firstContactAt),
    lastSeenAt: isoOrNull(c.lastSeenAt), tags: c.tags, metadata: c.metadata,
    createdAt: faults.has('timestamps-no-offset') ? noOffset(c.createdAt) : iso(c.createdAt),
    updatedAt: faults.has('timestamps-no-offset') ? noOffset(c.updatedAt) : iso(c.updatedAt),
    conversationCount: faults.has('customer-count-string') ? String(c.conversationCount) : c.conversationCount,
  };
}

/** The customer as JSON bytes, cached on the record (lists render the same customers again and again). */
export function customerJson(c: CustomerRecord, faults: FaultSet): Buffer {
  // the cache holds the clean rendering only
  if (faults.has('customer-count-string') || faults.has('timestamps-no-offset')) return Buffer.from(JSON.stringify(customerObject(c, faults)));
  return (c.json ??= Buffer.from(JSON.stringify(customerObject(c, faults))));
}

/** The conversation with every key present (null where unset). */
export function conversationObject(c: ConversationRecord, faults: FaultSet): Record<string, unknown> {
  const out: Record<string, unknown> = {
    id: c.id, externalId: c.externalId, subject: c.subject, status: c.status, priority: c.priority,
    channel: c.channel, customerId: c.customerId, assignee: c.assignee, team: c.team, tags: c.tags,
    externalObject: c.externalObject, metadata: c.metadata, channelIdentityId: c.channelIdentityId,
    createdAt: iso(c.createdAt), updatedAt: iso(c.updatedAt),
  };
  if (c.routingNotes !== undefined) out.routingNotes = c.routingNotes;
  if (faults.has('conversation-omits-nulls')) {
    for (const k of Object.keys(out)) if (out[k] === null) delete out[k];
  }
  return out;
}

/** The chat turn (4.1). */
export function turnObject(t: TurnRecord, faults: FaultSet): Record<string, unknown> {
  const out: Record<string, unknown> = {
    id: t.id, sessionId: t.sessionId, conversationId: t.conversationId, runId: t.runId, status: t.status,
    question: t.question, approvalMode: t.approvalMode,
  };
  if (t.answer && !faults.has('turn-answer-dropped')) out.answer = t.answer;
  if (t.actionConfirmations) {
    out.actionConfirmations = faults.has('receipt-undo-pending')
      ? t.actionConfirmations.map((r) => ({ ...r, undo: { status: 'pending' } }))
      : t.actionConfirmations;
  }
  out.createdAt = iso(t.createdAt);
  out.updatedAt = iso(t.updatedAt);
  if (!faults.has('turn-missing-expires')) out.expiresAt = iso(t.expiresAt);
  return out;
}

/** The chat session (4.3); `faults` only on the API side (the fixtures API renders the record as stored). */
export function sessionObject(s: SessionRecord, faults?: FaultSet): Record<string, unknown> {
  return {
    id: s.id, conversationId: s.conversationId, title: faults?.has('session-title-null') && s.archivedAt !== null ? null : s.title, status: s.status, createdAt: iso(s.createdAt),
    updatedAt: iso(s.updatedAt), lastActivityAt: iso(s.lastActivityAt), retentionExpiresAt: iso(s.retentionExpiresAt),
    archivedAt: isoOrNull(s.archivedAt),
  };
}

/** The Help Center collection (4.9); articleCount is computed by the caller. */
export function collectionObject(c: CollectionRecord, articleCount: number): Record<string, unknown> {
  return {
    id: c.id, parentId: c.parentId, slug: c.slug, name: c.name, description: c.description, position: c.position,
    articleCount, revision: c.revision, createdAt: iso(c.createdAt), updatedAt: iso(c.updatedAt),
    translations: c.translations.map((t) => ({ locale: t.locale, slug: t.slug, name: t.name, description: t.description, revision: t.revision })),
  };
}

/** A Help Center article list item (the spec does not show its shape; this is the reference choice). */
export function articleObject(a: ArticleRecord): Record<string, unknown> {
  return {
    id: a.id, collectionId: a.collectionId, title: a.title, slug: a.slug, locale: a.locale, state: a.state,
    createdAt: iso(a.createdAt), updatedAt: iso(a.updatedAt),
  };
}
