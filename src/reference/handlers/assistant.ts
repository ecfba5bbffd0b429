/**
 * Assistant chats (4.1, 4.2, 4.3): only the owning connection sees a chat, only while its holder is an
 * owner/admin. Another connection gets the dialect's answer: 404 (the chat's existence is not revealed) or
 * 403 (operation not allowed for the connection, part 5.8). Turn statuses use the dialect's values.
 */
import type { App, Call } from '../app.js';
import { isOwnerOrAdmin } from '../connections.js';
import type { SessionRecord, TurnRecord } from '../records.js';
import { sessionObject, turnObject } from '../render.js';
import { fail, json, notFound, type Reply } from '../reply.js';

type Found = { ok: true; session: SessionRecord; turn: TurnRecord } | { ok: false; reply: Reply };

function memberRefusal(app: App, call: Call, op: 'read' | 'cancel' = 'read'): Reply | undefined {
  const f = app.faults;
  // cancel-member-allowed: membership is checked on reads only, so a member's cancel goes through
  if (isOwnerOrAdmin(call.conn) || f.has('chat-member-allowed') || (op === 'cancel' && f.has('cancel-member-allowed'))) return undefined;
  return fail(403, 'assistant.forbidden', 'assistant chats require a current owner or admin');
}

function findTurn(app: App, call: Call, op: 'read' | 'cancel' = 'read'): Found {
  const refusal = memberRefusal(app, call, op);
  if (refusal) return { ok: false, reply: refusal };
  const [sessionId, turnId] = call.params as [string, string];
  const session = app.store.sessions.get(sessionId);
  const turn = app.store.turns.get(turnId);
  if (!session || !turn || turn.sessionId !== session.id) return { ok: false, reply: notFound('no such chat turn') };
  if (session.ownerId !== call.conn.id && !app.faults.has('chat-ownership-leak')) {
    // foreign-cancel-applied: the refusal is answered, but the cancel was already carried out
    if (op === 'cancel' && turn.status === 'pending' && app.faults.has('foreign-cancel-applied')) {
      turn.status = 'cancelled';
      turn.updatedAt = app.clock();
    }
    return { ok: false, reply: foreign(app) };
  }
  if (session.retentionExpiresAt <= app.clock()) return { ok: false, reply: notFound('no such chat turn') };
  return { ok: true, session, turn };
}

/** The refusal of another connection's chat. */
function foreign(app: App): Reply {
  return app.dialect.statuses.foreignChat === 403
    ? fail(403, 'assistant.not_owner', 'this chat belongs to another connection')
    : notFound('no such chat turn');
}

/** GET /ai/assistant/sessions/{sessionId}/turns/{turnId}. */
export function getTurn(app: App, call: Call): Reply {
  const found = findTurn(app, call);
  if (!found.ok) return found.reply;
  const turn = turnObject(found.turn, app.faults, app.dialect);
  return json(200, app.faults.has('turn-unwrapped') ? turn : { data: turn });
}

/** POST …/turns/{turnId}/cancel: pending → cancelled; repeats are safe; completed → 409. */
export function cancelTurn(app: App, call: Call): Reply {
  const found = findTurn(app, call, 'cancel');
  if (!found.ok) return found.reply;
  const { turn, session } = found;
  const f = app.faults;
  if (turn.status === 'completed' && !f.has('cancel-completed-200')) {
    return fail(409, 'assistant.turn_completed', 'the turn has already completed and cannot be cancelled');
  }
  if (turn.status === 'cancelled' && f.has('cancel-repeat-409')) {
    return fail(409, 'assistant.turn_not_pending', 'the turn is not pending');
  }
  // cancel-not-persisted: the answer says cancelled, but the change is never stored
  if (turn.status === 'pending' && f.has('cancel-not-persisted')) {
    return json(200, { data: { ...turnObject(turn, f, app.dialect), status: app.dialect.turnStatus.cancelled } });
  }
  if (turn.status === 'pending') {
    const now = app.clock();
    turn.status = 'cancelled';
    turn.updatedAt = now;
    session.lastActivityAt = Math.max(session.lastActivityAt, now);
    session.updatedAt = now;
  }
  const shown = turnObject(turn, f, app.dialect);
  return json(200, f.has('cancel-unwrapped') ? shown : { data: shown });
}

/** GET /ai/conversations/{conversationId}/assistant/sessions: the caller's unexpired chats, newest first. */
export function listSessions(app: App, call: Call): Reply {
  const refusal = memberRefusal(app, call);
  if (refusal) return refusal;
  const conversationId = call.params[0]!;
  if (!app.store.conversations.has(conversationId)) return notFound('no such conversation');
  const f = app.faults;
  const now = app.clock();
  const hideArchived = f.has('sessions-archived-hidden');
  // sessions-cross-conversation / sessions-expired-listed: one filter of the listing forgotten
  const anyConversation = f.has('sessions-cross-conversation');
  const keepExpired = f.has('sessions-expired-listed');
  const mine: SessionRecord[] = [];
  for (const s of app.store.sessions.values()) {
    if ((s.conversationId !== conversationId && !anyConversation) || s.ownerId !== call.conn.id) continue;
    if ((s.retentionExpiresAt <= now && !keepExpired) || (hideArchived && s.archivedAt !== null)) continue;
    mine.push(s);
  }
  // sessions-limit-before-sort: LIMIT 100 applied to the chats in creation order, before the sort
  if (f.has('sessions-limit-before-sort')) mine.splice(100);
  const dir = f.has('sessions-oldest-first') ? 1 : -1;
  mine.sort((a, b) => dir * (a.lastActivityAt - b.lastActivityAt) || (a.id < b.id ? -1 : 1));
  const listed = f.has('sessions-unbounded') ? mine : mine.slice(0, 100);
  const data = listed.map((s) => sessionObject(s, f, app.dialect.extras, app.dialect.strict.omitEmpty));
  if (f.has('sessions-paginated')) return json(200, { data, hasMore: false, nextCursor: null });
  // dialect listObject: a Stripe-like list object (no pagination key, so 4.3 holds)
  return json(200, app.dialect.strict.listObject ? { object: 'list', data } : { data });
}
