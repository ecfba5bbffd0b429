/**
 * Renders records as the API's JSON resources (spec part 2). Faults that change a resource's shape are
 * applied here, at the one place each shape is produced.
 */
import type { Dialect } from './dialect.js';
import type { FaultSet } from './fault-set.js';
import type { ArticleRecord, CollectionRecord, ConversationRecord, CustomerRecord, SessionRecord, TurnRecord } from './records.js';

const iso = (ms: number): string => new Date(ms).toISOString();
const isoOrNull = (ms: number | null): string | null => (ms === null ? null : iso(ms));
/** timestamps-no-offset: a local date-time formatter that drops the zone ("2026-11-20T10:00:00"). */
const noOffset = (ms: number): string => iso(ms).slice(0, 19);

/** Dialects with extras add an `object` field naming the resource type (the spec does not close the shapes). */
function tagged(out: Record<string, unknown>, kind: string, extras: boolean): Record<string, unknown> {
  if (extras) out.object = kind;
  return out;
}

/** An unset or empty value: what a server that omits empty optional fields (Go's omitempty) leaves out. */
const isEmpty = (v: unknown): boolean => v === null || v === undefined || v === '' || (Array.isArray(v) && v.length === 0);

/** `out` without the empty values of `optional` keys (dialect strict.omitEmpty); other keys are kept as they are. */
function omitEmpty(out: Record<string, unknown>, optional: readonly string[]): Record<string, unknown> {
  for (const k of optional) if (k in out && isEmpty(out[k])) delete out[k];
  return out;
}

/** The answer object, with its empty fields and those of its action proposals left out when `omit` is set. */
function answerObject(answer: Record<string, unknown>, omit: boolean): Record<string, unknown> {
  if (!omit) return answer;
  const proposals = Array.isArray(answer.actionProposals)
    ? answer.actionProposals.map((p: Record<string, unknown>) => omitEmpty({ ...p }, Object.keys(p)))
    : answer.actionProposals;
  return omitEmpty({ ...answer, actionProposals: proposals }, Object.keys(answer));
}

/** The turn status labels of the default dialect (the internal values). */
const INTERNAL_TURN_STATUS: Dialect['turnStatus'] = { pending: 'pending', completed: 'completed', cancelled: 'cancelled' };

/** The customer as a plain object (list item shape). */
export function customerObject(c: CustomerRecord, faults: FaultSet, extras = false): Record<string, unknown> {
  return tagged(
    {
      id: c.id,
      externalId: c.externalId,
      name: c.name,
      email: c.email,
      phone: c.phone,
      company: c.company,
      language: c.language,
      timezone: c.timezone,
      avatarUrl: c.avatarUrl,
      claimedEmail: c.claimedEmail,
      emailStatus: c.emailStatus,
      lastActiveChannel: c.lastActiveChannel,
      firstContactAt: isoOrNull(c.firstContactAt),
      lastSeenAt: isoOrNull(c.lastSeenAt),
      tags: c.tags,
      metadata: c.metadata,
      createdAt: faults.has('timestamps-no-offset') ? noOffset(c.createdAt) : iso(c.createdAt),
      updatedAt: faults.has('timestamps-no-offset') ? noOffset(c.updatedAt) : iso(c.updatedAt),
      conversationCount: faults.has('customer-count-string') ? String(c.conversationCount) : c.conversationCount,
    },
    'customer',
    extras,
  );
}

/** The customer as JSON bytes, cached on the record (lists render the same customers again and again). */
export function customerJson(c: CustomerRecord, faults: FaultSet, extras = false): Buffer {
  // the cache holds the clean rendering only (extras are fixed for the life of a server, so they may be cached)
  if (faults.has('customer-count-string') || faults.has('timestamps-no-offset'))
    return Buffer.from(JSON.stringify(customerObject(c, faults, extras)));
  return (c.json ??= Buffer.from(JSON.stringify(customerObject(c, faults, extras))));
}

/** The conversation with every key present (null where unset). */
export function conversationObject(c: ConversationRecord, faults: FaultSet, extras = false): Record<string, unknown> {
  const out: Record<string, unknown> = {
    id: c.id,
    externalId: c.externalId,
    subject: c.subject,
    status: c.status,
    priority: c.priority,
    channel: c.channel,
    customerId: c.customerId,
    assignee: c.assignee,
    team: c.team,
    tags: c.tags,
    externalObject: c.externalObject,
    metadata: c.metadata,
    channelIdentityId: c.channelIdentityId,
    createdAt: iso(c.createdAt),
    updatedAt: iso(c.updatedAt),
  };
  if (c.routingNotes !== undefined) out.routingNotes = c.routingNotes;
  if (faults.has('conversation-omits-nulls')) {
    for (const k of Object.keys(out)) if (out[k] === null) delete out[k];
  }
  return tagged(out, 'conversation', extras);
}

/** The chat turn (4.1), its status in the dialect's values. */
export function turnObject(t: TurnRecord, faults: FaultSet, dialect?: Dialect): Record<string, unknown> {
  const labels = dialect?.turnStatus ?? INTERNAL_TURN_STATUS;
  const out: Record<string, unknown> = {
    id: t.id,
    sessionId: t.sessionId,
    conversationId: t.conversationId,
    runId: t.runId,
    status: labels[t.status],
    question: t.question,
    approvalMode: t.approvalMode,
  };
  const omit = dialect?.strict.omitEmpty ?? false;
  if (t.answer) out.answer = faults.has('turn-answer-text') ? t.answer.answer : answerObject(t.answer, omit);
  if (t.actionConfirmations) {
    out.actionConfirmations = faults.has('receipt-undo-pending')
      ? t.actionConfirmations.map((r) => ({ ...r, undo: { status: 'pending' } }))
      : t.actionConfirmations;
  }
  out.createdAt = iso(t.createdAt);
  out.updatedAt = iso(t.updatedAt);
  if (!faults.has('turn-missing-expires')) out.expiresAt = iso(t.expiresAt);
  if (omit) omitEmpty(out, ['approvalMode', 'retryOfTurnId', 'answer', 'actionConfirmations']);
  return tagged(out, 'assistant.turn', dialect?.extras ?? false);
}

/**
 * The chat session (4.3); `faults` only on the API side (the fixtures API renders the record as stored).
 * `omit` (dialect strict.omitEmpty) leaves out empty fields: archivedAt while not archived, an empty title.
 */
export function sessionObject(s: SessionRecord, faults?: FaultSet, extras = false, omit = false): Record<string, unknown> {
  const out: Record<string, unknown> = {
    id: s.id,
    conversationId: s.conversationId,
    title: s.title,
    status: s.status,
    createdAt: iso(s.createdAt),
    updatedAt: iso(s.updatedAt),
    lastActivityAt: iso(s.lastActivityAt),
    retentionExpiresAt: iso(s.retentionExpiresAt),
    archivedAt: isoOrNull(s.archivedAt),
  };
  if (omit) omitEmpty(out, ['title', 'archivedAt']);
  // session-title-null: a present title of the wrong type (after omission: a null is a value, not an omission)
  if (faults?.has('session-title-null') && s.archivedAt !== null) out.title = null;
  return tagged(out, 'assistant.session', extras);
}

/**
 * The Help Center collection (4.9); articleCount is computed by the caller. `omit` (dialect
 * strict.omitEmpty) leaves out empty fields: a root's parentId, an empty description, no translations.
 */
export function collectionObject(c: CollectionRecord, articleCount: number, extras = false, omit = false): Record<string, unknown> {
  const translations = c.translations.map((t) => {
    const item = { locale: t.locale, slug: t.slug, name: t.name, description: t.description, revision: t.revision };
    return omit ? omitEmpty(item, ['description']) : item;
  });
  const out = {
    id: c.id,
    parentId: c.parentId,
    slug: c.slug,
    name: c.name,
    description: c.description,
    position: c.position,
    articleCount,
    revision: c.revision,
    createdAt: iso(c.createdAt),
    updatedAt: iso(c.updatedAt),
    translations,
  };
  return tagged(omit ? omitEmpty(out, ['parentId', 'description', 'translations']) : out, 'help.collection', extras);
}

/** A Help Center article list item (the spec does not show its shape; this is the reference choice). */
export function articleObject(a: ArticleRecord): Record<string, unknown> {
  return {
    id: a.id,
    collectionId: a.collectionId,
    title: a.title,
    slug: a.slug,
    locale: a.locale,
    state: a.state,
    createdAt: iso(a.createdAt),
    updatedAt: iso(a.updatedAt),
  };
}
