/** POST /conversations/{id}/assign (4.7), POST on the dialect's resolve path (4.8), GET /conversations/{id}. */
import type { App, Call } from '../app.js';
import { canonicalJson } from '../idempotency.js';
import type { ConversationRecord } from '../records.js';
import { conversationObject } from '../render.js';
import { fail, invalid, json, notFound, type Reply } from '../reply.js';
import { AGENTS, TEAMS } from '../dialect.js';
import { DEFAULT_COMPLETED_STATUS } from '../store.js';
import { idempotencyKey, jsonObject, withValidationStatus } from './input.js';

/** The status keys the spec names as seeded (part 2); only the resolve-from-custom-refused fault reads them. */
const SEEDED_STATUS_KEYS: readonly string[] = ['open', 'pending', 'resolved', 'closed'];

/** Returns one conversation (a reference-server addition; the spec does not show a read endpoint). */
export function getConversation(app: App, call: Call): Reply {
  const conv = app.store.conversations.get(call.params[0]!);
  return conv ? json(200, conversationObject(conv, app.faults, app.dialect.extras)) : notFound('no such conversation');
}

/** Assigns or unassigns a conversation; never changes its status. */
export function assignConversation(app: App, call: Call): Promise<Reply> | Reply {
  return idempotent(app, call, 'assign', (body) => {
    const conv = app.store.conversations.get(call.params[0]!);
    if (!conv) return notFound('no such conversation');
    const { assignee, team } = body;
    if (assignee === undefined && team === undefined && !app.faults.has('assign-empty-accepted'))
      return invalid('at least one of assignee or team is required');
    if (
      assignee !== undefined &&
      (!assignee || typeof assignee !== 'object' || Array.isArray(assignee) || typeof (assignee as { id?: unknown }).id !== 'string')
    ) {
      return invalid('assignee must be an object with a string id');
    }
    if (team !== undefined && typeof team !== 'string') return invalid('team must be a string');
    // strict-inputs: only the workspace's agents and teams are accepted; "" still clears (4.7), and a value the
    // conversation already holds (set before the lists changed, like the pools' "support") is kept, not refused
    if (app.dialect.strict.assignees) {
      const id = (assignee as { id?: string } | undefined)?.id;
      if (id && id !== conv.assignee?.id && !(AGENTS as readonly string[]).includes(id))
        return invalid(`assignee "${id}" is not an agent of this workspace`);
      if (team && team !== conv.team && !(TEAMS as readonly string[]).includes(team))
        return invalid(`team "${team}" is not a team of this workspace`);
    }
    if (assignee !== undefined) {
      const a = assignee as Record<string, unknown> & { id: string };
      conv.assignee = a.id === '' ? null : { ...a };
    }
    if (team !== undefined && !(team === '' && app.faults.has('assign-empty-team-kept'))) conv.team = team === '' ? null : team;
    if (app.faults.has('assign-reopens')) conv.status = 'open';
    return touched(app, conv);
  });
}

/** Moves a conversation to a completed-type status (the default one when none is given). */
export function resolveConversation(app: App, call: Call): Promise<Reply> | Reply {
  return idempotent(app, call, 'resolve', (body) => {
    const conv = app.store.conversations.get(call.params[0]!);
    if (!conv) return notFound('no such conversation');
    const f = app.faults;
    const status = body.status;
    const st = app.dialect.statuses;
    if (status !== undefined && typeof status !== 'string') return invalid('status must be a string');
    // resolve-from-custom-refused: a transition table that knows only the four seeded statuses as sources
    if (f.has('resolve-from-custom-refused') && !SEEDED_STATUS_KEYS.includes(conv.status)) {
      return fail(409, 'conversations.invalid_transition', `a conversation in status "${conv.status}" cannot be resolved`);
    }
    if (status === undefined) {
      conv.status = f.has('resolve-default-closed') ? 'closed' : DEFAULT_COMPLETED_STATUS;
      return touched(app, conv);
    }
    const def = app.store.statuses.get(status);
    if (!def) {
      return f.has('unknown-status-code')
        ? fail(st.invalidResolutionStatus, 'conversations.invalid_resolution_status', `"${status}" is not a completed-type status`)
        : fail(st.unknownStatus, 'conversations.unknown_status', `status "${status}" is not defined in this workspace`);
    }
    if (def.type === 'active' && !f.has('resolve-active-accepted')) {
      return fail(
        st.invalidResolutionStatus,
        'conversations.invalid_resolution_status',
        `"${status}" is an active-type status; resolve needs a completed-type one`,
      );
    }
    // resolve-custom-completed-default: only the well-known completed keys are honoured, others fall back
    conv.status =
      f.has('resolve-custom-completed-default') && status !== 'resolved' && status !== 'closed' ? DEFAULT_COMPLETED_STATUS : status;
    return touched(app, conv);
  });
}

/** The conversation as it is now (a replay under dialect strict-inputs' replayCurrent). */
function current(app: App, id: string): Reply {
  const conv = app.store.conversations.get(id);
  return conv ? json(200, conversationObject(conv, app.faults, app.dialect.extras)) : notFound('no such conversation');
}

function touched(app: App, conv: ConversationRecord): Reply {
  // Every effect stamps a later updatedAt than the one before, even within one millisecond (as a database's
  // commit timestamp or row version would): a duplicate effect is then always visible to a client, which is
  // what makes the idempotency-race fault observable on a fast machine, where racing duplicates land in one ms.
  conv.updatedAt = Math.max(app.clock(), conv.updatedAt + 1);
  conv.mutations++;
  const out = conversationObject(conv, app.faults, app.dialect.extras);
  // conversation-status-label: the answer shows the status's display name instead of its key
  if (app.faults.has('conversation-status-label')) out.status = app.store.statuses.get(conv.status)?.name ?? conv.status;
  return json(200, out);
}

/** Parses the body and runs the operation under its Idempotency-Key (optional, 8..255 characters). */
function idempotent(app: App, call: Call, route: string, exec: (body: Record<string, unknown>) => Reply): Promise<Reply> | Reply {
  const pattern = app.faults.has('idempotency-key-length') ? /^[^]{7,255}$/ : /^[^]{8,255}$/;
  const key = idempotencyKey(call.headers, pattern, false, '8 to 255 characters long');
  if (!key.ok) return key.reply;
  const bodyStatus = app.dialect.statuses.bodyValidation;
  const body = jsonObject(call.body, true);
  if (!body.ok) return withValidationStatus(bodyStatus, body.reply);
  const run = (): Reply => withValidationStatus(bodyStatus, exec(body.value));
  if (key.value === undefined) return run();
  return app.idem.run(
    { connectionId: call.conn.id, resource: `${route}:${call.params[0]}`, key: key.value, fingerprint: canonicalJson(body.value) },
    run,
    app.dialect.strict.replayCurrent ? () => current(app, call.params[0]!) : undefined,
  );
}
