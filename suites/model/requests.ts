/**
 * Request builders for the operations the stateful suites drive. Paths the spec leaves "not shown" come
 * from the target's assumptions, so the suites never hard-code them.
 */
import { randomUUID } from 'node:crypto';
import type { RequestSpec } from '../../src/client/types.js';
import type { KeyRole, Target } from '../../src/target/schema.js';

export interface AssignBody {
  assignee?: { id: string };
  team?: string;
}

export interface ResolveBody {
  status?: string;
}

export interface CollectionBody {
  name?: string;
  slug?: string;
  locale?: string;
  expectedRevision: number;
  parentId?: string | null;
  description?: string;
  position?: number;
}

/** Made-up values, used only where the target file names none: a server that validates them refuses them. */
const MADE_UP = { assigneeIds: ['agt_spgate_a', 'agt_spgate_b'], teams: ['tier-1', 'tier-2'] } as const;

/**
 * Assignee ids and teams the assign checks use: the target file's (fixtures.ids.assigneeIds / teams), else
 * made-up ones. `supplied` says which, so a 4xx refusal of a made-up value discards the case (the spec does
 * not require a server to accept an unknown assignee), while one of a supplied value is judged.
 */
export function assignValues(target: Target): {
  assigneeIds: readonly string[];
  teams: readonly string[];
  supplied: { assigneeIds: boolean; teams: boolean };
} {
  const ids = target.fixtures.ids;
  const assigneeIds = ids.assigneeIds?.length ? ids.assigneeIds : MADE_UP.assigneeIds;
  const teams = ids.teams?.length ? ids.teams : MADE_UP.teams;
  return { assigneeIds, teams, supplied: { assigneeIds: assigneeIds !== MADE_UP.assigneeIds, teams: teams !== MADE_UP.teams } };
}

/** Fills `{conversationId}` (and similar) placeholders of an assumed path template. */
export function fillPath(template: string, values: Record<string, string>): string {
  return template.replace(/\{(\w+)\}/g, (m, name: string) => (name in values ? encodeURIComponent(values[name]!) : m));
}

function withKey(key: string | undefined): Record<string, string> | undefined {
  return key === undefined ? undefined : { 'Idempotency-Key': key };
}

/** POST /conversations/{id}/assign. */
export function assignRequest(conversationId: string, body: unknown, key?: string, role: KeyRole = 'admin'): RequestSpec {
  return {
    method: 'POST',
    path: `/conversations/${encodeURIComponent(conversationId)}/assign`,
    json: body,
    headers: withKey(key),
    role,
  };
}

/** GET /statuses (4.10; its answer is read with model/status-list's lenient reader). */
export function statusesRequest(role: KeyRole = 'admin'): RequestSpec {
  return { method: 'GET', path: '/statuses', role };
}

/** POST on the assumed resolve path (spec 4.8: the exact path is not shown). */
export function resolveRequest(target: Target, conversationId: string, body: unknown, key?: string, role: KeyRole = 'admin'): RequestSpec {
  return {
    method: 'POST',
    path: fillPath(target.assumptions.resolvePath, { conversationId, id: conversationId }),
    json: body,
    headers: withKey(key),
    role,
  };
}

/** PUT /authoring/collections/{id}; the Idempotency-Key header is always sent (4.9 lists it as a header). */
export function collectionRequest(collectionId: string, body: unknown, key: string, role: KeyRole = 'helpDelegated'): RequestSpec {
  return {
    method: 'PUT',
    path: `/authoring/collections/${encodeURIComponent(collectionId)}`,
    json: body,
    headers: { 'Idempotency-Key': key },
    role,
  };
}

/** GET /ai/assistant/sessions/{sessionId}/turns/{turnId}. */
export function getTurnRequest(sessionId: string, turnId: string, role: KeyRole = 'admin'): RequestSpec {
  return { method: 'GET', path: `/ai/assistant/sessions/${encodeURIComponent(sessionId)}/turns/${encodeURIComponent(turnId)}`, role };
}

/** POST …/turns/{turnId}/cancel (no body). */
export function cancelTurnRequest(sessionId: string, turnId: string, role: KeyRole = 'admin'): RequestSpec {
  return {
    method: 'POST',
    path: `/ai/assistant/sessions/${encodeURIComponent(sessionId)}/turns/${encodeURIComponent(turnId)}/cancel`,
    role,
  };
}

/** GET /ai/conversations/{conversationId}/assistant/sessions. */
export function sessionsRequest(conversationId: string, role: KeyRole = 'admin'): RequestSpec {
  return { method: 'GET', path: `/ai/conversations/${encodeURIComponent(conversationId)}/assistant/sessions`, role };
}

/** GET /messages/{messageId}/attachments/{index}/download. */
export function downloadRequest(messageId: string, index: number, role: KeyRole = 'admin'): RequestSpec {
  return { method: 'GET', path: `/messages/${encodeURIComponent(messageId)}/attachments/${index}/download`, role };
}

/**
 * A fresh Idempotency-Key that no earlier request used. Keys live per connection across conversations,
 * so uniqueness must be global, not per case; the value itself has no effect on behaviour.
 */
export function freshKey(length = 36): string {
  let s = '';
  while (s.length < length) s += randomUUID().replaceAll('-', '');
  return s.slice(0, length);
}

/** A key of exactly `length` characters whose prefix is unique (for the length-bound checks). */
export function keyOfLength(length: number): string {
  const unique = freshKey(Math.min(length, 32));
  return (unique + 'k'.repeat(Math.max(0, length - unique.length))).slice(0, length);
}

let slugCount = 0;

/**
 * A conservative collection slug (lowercase letters and digits in runs joined by single dashes, the form
 * every validating Help Center accepts) that no other case and no earlier run uses: `base` made
 * conservative, then the check's seed, the clock and a counter. A Help Center that keeps slugs unique
 * would refuse one an earlier run left on another collection.
 */
export function uniqueSlug(seed: number, base: string): string {
  const head =
    base
      .toLowerCase()
      .replace(/[^a-z0-9]+/g, '-')
      .replace(/^-+|-+$/g, '') || 'spgate';
  return `${head}-${(seed >>> 0).toString(36)}${Date.now().toString(36)}${(slugCount++).toString(36)}`;
}
