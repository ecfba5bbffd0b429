/**
 * The fixtures API under /_fixtures: creates and inspects test data for the suites. It is outside /v1, needs
 * no key and is never rate limited. Contract: docs/reference-server.md and src/conformance/fixtures.ts.
 */
import { KEY_ROLES, type KeyRole } from '../target/schema.js';
import type { App } from './app.js';
import { jsonObject, type Parsed } from './handlers/input.js';
import { signedFileUrl } from './files.js';
import type { AttachmentKind } from './records.js';
import { collectionObject, conversationObject, customerObject, sessionObject, turnObject } from './render.js';
import { empty, fail, invalid, json, notFound, type Reply } from './reply.js';
import type { CustomerInput } from './store.js';

const KINDS: readonly AttachmentKind[] = ['stored', 'external', 'fetching'];

const optString = (v: unknown): v is string | undefined => v === undefined || typeof v === 'string';

/** Dispatches a fixtures request (path below /_fixtures). */
export function handleFixtures(app: App, method: string, path: string, body: Buffer | null, origin = 'http://127.0.0.1'): Reply {
  const segs = path.split('/').slice(1);
  const route = `${method} /${segs.map((s, i) => (i % 2 === 1 && segs.length > 1 && !isLiteral(s) ? ':id' : s)).join('/')}`;
  const id = segs[1] ?? '';
  switch (route) {
    case 'GET /ids':
      return json(200, { data: app.fixtureIds });
    case 'POST /customers':
      return withBody(body, (b) => createCustomers(app, b));
    case 'POST /conversations':
      return withBody(body, (b) => createConversation(app, b));
    case 'GET /conversations/:id':
      return getConversation(app, id);
    case 'POST /messages':
      return withBody(body, (b) => createMessage(app, b));
    case 'POST /messages/:id/delete':
      return deleteMessage(app, id);
    case 'POST /messages/:id/expired-url':
      return withBody(body, (b) => expiredUrl(app, id, b, origin));
    case 'POST /sessions':
      return withBody(body, (b) => createSession(app, b));
    case 'POST /turns':
      return withBody(body, (b) => createTurn(app, b));
    case 'POST /turns/:id/complete':
      return completeTurn(app, id);
    case 'POST /collections':
      return withBody(body, (b) => createCollection(app, b), true);
    case 'POST /articles':
      return withBody(body, (b) => createArticles(app, b));
    case 'POST /keys/:id/revoke':
      return setRevoked(app, id, true);
    case 'POST /keys/:id/restore':
      return setRevoked(app, id, false);
    case 'POST /ratelimit/reset':
      // the second workspace's key counts in its own workspace's buckets: empty those too
      for (const w of [app, ...app.siblings]) w.limiter.reset();
      return empty(204);
    default:
      return notFound('no such fixtures route');
  }
}

function isLiteral(seg: string): boolean {
  return seg === 'delete' || seg === 'complete' || seg === 'reset' || seg === 'expired-url' || seg === 'revoke' || seg === 'restore';
}

/**
 * Revokes (or restores) the key of a role for a while: helpcenter.idempotency.revoked-no-replay revokes the
 * key that made an update, so its identical retry is a revoked grant's own replay (4.9), then restores it.
 */
function setRevoked(app: App, role: string, revoked: boolean): Reply {
  const conn = app.conns.get(role as KeyRole);
  if (!conn) return notFound(`no key of role ${role}`);
  conn.revoked = revoked;
  return empty(204);
}

function withBody(body: Buffer | null, fn: (b: Record<string, unknown>) => Reply, optional = false): Reply {
  const parsed: Parsed<Record<string, unknown>> = jsonObject(body, optional);
  return parsed.ok ? fn(parsed.value) : parsed.reply;
}

function createCustomers(app: App, b: Record<string, unknown>): Reply {
  const list = b.customers;
  if (!Array.isArray(list) || list.length === 0 || list.length > 1000) return invalid('customers must be an array of 1 to 1000 seeds');
  const seeds: CustomerInput[] = [];
  for (const s of list as unknown[]) {
    if (!s || typeof s !== 'object') return invalid('each customer seed must be an object');
    const r = s as Record<string, unknown>;
    if (![r.name, r.email, r.company, r.externalId, r.phone].every(optString)) return invalid('customer seed fields must be strings');
    const ids = r.identities;
    if (
      ids !== undefined &&
      (!Array.isArray(ids) ||
        !ids.every((i: unknown) => {
          const x = i as { type?: unknown; identifier?: unknown } | null;
          return !!x && typeof x.type === 'string' && typeof x.identifier === 'string';
        }))
    )
      return invalid('identities must be an array of {type, identifier} strings');
    seeds.push(r as CustomerInput);
  }
  const made = seeds.map((s) =>
    app.store.addCustomer({
      name: s.name,
      email: s.email,
      company: s.company,
      externalId: s.externalId,
      phone: s.phone,
      identities: s.identities,
    }),
  );
  return json(201, { data: made.map((c) => customerObject(c, app.faults)) });
}

function createConversation(app: App, b: Record<string, unknown>): Reply {
  if (![b.customerId, b.status, b.priority, b.subject].every(optString))
    return invalid('customerId, status, priority and subject must be strings');
  if (b.team !== undefined && b.team !== null && typeof b.team !== 'string') return invalid('team must be a string or null');
  if (b.assignee !== undefined && b.assignee !== null && (typeof b.assignee !== 'object' || Array.isArray(b.assignee)))
    return invalid('assignee must be an object or null');
  const status = b.status as string | undefined;
  const priority = b.priority as string | undefined;
  if (status !== undefined && !app.store.statuses.has(status))
    return fail(422, 'conversations.unknown_status', `status "${status}" is not defined`);
  if (priority !== undefined && !app.store.priorities.has(priority))
    return fail(422, 'conversations.unknown_priority', `priority "${priority}" is not defined`);
  const customerId = b.customerId as string | undefined;
  if (customerId !== undefined && !app.store.customers.has(customerId)) return notFound('no such customer');
  const conv = app.store.addConversation({
    customerId,
    status,
    priority,
    subject: b.subject as string | undefined,
    team: b.team as string | null | undefined,
    assignee: b.assignee as Record<string, unknown> | null | undefined,
  });
  return json(201, { data: conversationObject(conv, app.faults) });
}

function getConversation(app: App, id: string): Reply {
  const conv = app.store.conversations.get(id);
  if (!conv) return notFound('no such conversation');
  const c = app.store.customers.get(conv.customerId);
  return json(200, {
    data: conversationObject(conv, app.faults),
    mutations: conv.mutations,
    customer: c ? { ...customerObject(c, app.faults), deleted: c.deletedAt !== null } : null,
  });
}

function createMessage(app: App, b: Record<string, unknown>): Reply {
  if (typeof b.conversationId !== 'string') return invalid('conversationId is required');
  if (!app.store.conversations.has(b.conversationId)) return notFound('no such conversation');
  const kinds = b.attachments ?? [];
  if (!Array.isArray(kinds) || kinds.length > 20 || !kinds.every((k) => KINDS.includes(k as AttachmentKind))) {
    return invalid('attachments must be an array of "stored", "external" or "fetching"');
  }
  const msg = app.store.addMessage(b.conversationId, kinds as AttachmentKind[]);
  return json(201, { data: { id: msg.id, attachments: msg.attachments.map((a, index) => ({ index, kind: a.kind })) } });
}

function deleteMessage(app: App, id: string): Reply {
  const msg = app.store.messages.get(id);
  if (!msg) return notFound('no such message');
  msg.deletedAt ??= app.clock();
  return empty(204);
}

/**
 * A signed URL of a stored attachment as a download issued six minutes ago would have carried it: expired a
 * minute ago (for attachments.expiry, which cannot wait five minutes). A credential like any signed URL.
 */
function expiredUrl(app: App, id: string, b: Record<string, unknown>, origin: string): Reply {
  const msg = app.store.messages.get(id);
  if (!msg) return notFound('no such message');
  const index = b.index ?? 0;
  const att = typeof index === 'number' ? msg.attachments[index] : undefined;
  if (!att || att.kind !== 'stored') return invalid('index must name a stored attachment of the message');
  const expiresAt = app.clock() - 60_000;
  return json(200, { data: { url: signedFileUrl(app, origin, att, expiresAt), expiresAt: new Date(expiresAt).toISOString() } });
}

function ownerOf(app: App, owner: unknown): string | undefined {
  return typeof owner === 'string' && (KEY_ROLES as readonly string[]).includes(owner) ? app.conns.get(owner as KeyRole)?.id : undefined;
}

function createSession(app: App, b: Record<string, unknown>): Reply {
  if (typeof b.conversationId !== 'string') return invalid('conversationId is required');
  if (!app.store.conversations.has(b.conversationId)) return notFound('no such conversation');
  const ownerId = ownerOf(app, b.owner);
  if (!ownerId) return invalid(`owner must be a key role: ${KEY_ROLES.join(', ')}`);
  let lastActivityAt: number | undefined;
  if (b.lastActivityAt !== undefined) {
    lastActivityAt = typeof b.lastActivityAt === 'string' ? Date.parse(b.lastActivityAt) : NaN;
    if (Number.isNaN(lastActivityAt)) return invalid('lastActivityAt must be a date-time');
  }
  const s = app.store.addSession({
    conversationId: b.conversationId,
    ownerId,
    archived: b.archived === true,
    expired: b.expired === true,
    lastActivityAt,
  });
  return json(201, { data: sessionObject(s) });
}

function createTurn(app: App, b: Record<string, unknown>): Reply {
  const session = typeof b.sessionId === 'string' ? app.store.sessions.get(b.sessionId) : undefined;
  if (!session) return notFound('no such session');
  // a turn belongs to its session's owner; `owner` is accepted for symmetry and must agree
  const ownerId = b.owner === undefined ? session.ownerId : ownerOf(app, b.owner);
  if (ownerId !== session.ownerId) return invalid('owner must be the key role that owns the session');
  if (b.state !== 'pending' && b.state !== 'completed') return invalid('state must be "pending" or "completed"');
  const t = app.store.addTurn(session, b.state);
  return json(201, { data: turnObject(t, app.faults, app.dialect) });
}

function completeTurn(app: App, id: string): Reply {
  const t = app.store.turns.get(id);
  if (!t) return notFound('no such turn');
  if (t.status === 'cancelled') return fail(409, 'assistant.turn_cancelled', 'a cancelled turn cannot complete');
  if (t.status === 'pending') app.store.completeTurn(t);
  return empty(204);
}

function createCollection(app: App, b: Record<string, unknown>): Reply {
  if (![b.name, b.slug, b.description].every(optString)) return invalid('name, slug and description must be strings');
  const c = app.store.addCollection({
    name: b.name as string | undefined,
    slug: b.slug as string | undefined,
    description: b.description as string | undefined,
  });
  return json(201, { data: collectionObject(c, 0) });
}

function createArticles(app: App, b: Record<string, unknown>): Reply {
  const n = b.count;
  if (!Number.isSafeInteger(n) || (n as number) < 1 || (n as number) > 1000) return invalid('count must be an integer from 1 to 1000');
  const made = app.store.addArticles(n as number);
  return json(201, { data: { count: made.length, total: app.store.articles.length } });
}
