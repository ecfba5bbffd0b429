/**
 * A pure model of one conversation under assign and resolve (spec 3, 4.7, 4.8), including the
 * Idempotency-Key store of the calling connection. `predict` says what the API must answer; `compare`
 * lists every mismatch with the clause it violates; `advance` moves the model on from what was observed.
 *
 * The model trusts the server on what it cannot know in advance (timestamps, the exact first response
 * stored under a key), so it records the observed first response and demands that replays repeat it.
 */
import type { ClauseId } from '../../src/spec/clauses.js';
import type { AssignBody, ResolveBody } from './requests.js';

export type Op = 'assign' | 'resolve';

export interface ConversationState {
  status: string;
  assigneeId: string | null;
  team: string | null;
}

export interface StatusTypes {
  active: readonly string[];
  completed: readonly string[];
  defaultCompleted: string;
}

export interface StoredResponse {
  status: number;
  /** Canonical JSON text of the response body. */
  body: string;
  /** The body as parsed (to tell a re-rendered first answer from a new write, readReplay). */
  json?: unknown;
}

interface KeyEntry {
  op: Op;
  /** Canonical JSON text of the request body first sent under the key. */
  body: string;
  /** The body object as first sent, so a replay resends it byte for byte. */
  sent: unknown;
  /** The first answer; undefined when it was not a success (such keys are never reused). */
  response?: StoredResponse;
}

export interface ConversationModel {
  state: ConversationState;
  types: StatusTypes;
  keys: Map<string, KeyEntry>;
  /** The latest 200 answer showing the conversation: a replay may show it as it stands (readReplay). */
  latest?: unknown;
}

export type Request = { op: 'assign'; body: AssignBody; key?: string } | { op: 'resolve'; body: ResolveBody; key?: string };

export type Prediction =
  | { kind: 'effect'; next: ConversationState }
  | { kind: 'replay'; response: StoredResponse }
  | { kind: 'conflict' }
  | { kind: 'rejected'; code: 'conversations.invalid_resolution_status' | 'conversations.unknown_status' };

/** What one request produced, as far as the model needs it. */
export interface Observation {
  status: number | undefined;
  /** Canonical JSON of the body (empty when none). */
  body: string;
  errorCode?: string;
  /** The conversation state the response shows (200 only). */
  shown?: ConversationState;
  /** The parsed answer (a replay's is read with readReplay). */
  json?: unknown;
  /** The latest 200 answer showing the conversation after the request (this one, or the read-back's). */
  latest?: unknown;
  /**
   * The conversation after the request: the state a 200 answer shows, else the state read back with an
   * assign that changes nothing (world.ts observe), so "no effect" is seen through shown operations.
   */
  stored: ConversationState;
}

export interface Mismatch {
  clause: ClauseId;
  expected: string;
  actual: string;
}

/** A new model of a conversation in `state`, as `latest` (the answer that showed it) shows it. */
export function initialModel(state: ConversationState, types: StatusTypes, latest?: unknown): ConversationModel {
  return { state: { ...state }, types, keys: new Map(), latest };
}

/**
 * What a 200 answer to an identical retry shows, judged by updatedAt (part 2: every write stamps it):
 * `same` — the first response, byte for byte (canonically); `restored` — the first response re-rendered
 * (its state and updatedAt, other bytes differ); `current` — the conversation as it stands (the state and
 * updatedAt of `latest`, the last answer seen); `new-write` — another updatedAt: the retry wrote again.
 */
export type ReplayReading = 'same' | 'restored' | 'current' | 'new-write';

/** Reads a replay's answer against the first answer under the key and the latest answer (see ReplayReading). */
export function readReplay(retry: unknown, first: unknown, latest: unknown): ReplayReading {
  if (canonicalJson(retry) === canonicalJson(first)) return 'same';
  const stamp = (v: unknown): string | undefined => {
    if (!v || typeof v !== 'object') return undefined;
    const o = v as Record<string, unknown>;
    return typeof o.updatedAt === 'string' ? `${o.updatedAt} ${canonicalJson(stateOf(o))}` : undefined;
  };
  const mine = stamp(retry);
  if (mine !== undefined && mine === stamp(first)) return 'restored';
  if (mine !== undefined && mine === stamp(latest)) return 'current';
  return 'new-write';
}

/** JSON with object keys sorted, so equal bodies compare equal whatever the key order. */
export function canonicalJson(value: unknown): string {
  return (
    JSON.stringify(value, (_k, v: unknown) =>
      v && typeof v === 'object' && !Array.isArray(v)
        ? Object.fromEntries(Object.entries(v as Record<string, unknown>).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)))
        : v,
    ) ?? ''
  );
}

/** The answer the API owes to `req` given the model. */
export function predict(model: ConversationModel, req: Request): Prediction {
  if (req.key !== undefined) {
    const entry = model.keys.get(req.key);
    if (entry?.response) {
      return entry.body === canonicalJson(req.body) && entry.op === req.op
        ? { kind: 'replay', response: entry.response }
        : { kind: 'conflict' };
    }
  }
  if (req.op === 'assign') {
    const next = { ...model.state };
    if (req.body.assignee) next.assigneeId = req.body.assignee.id === '' ? null : req.body.assignee.id;
    if (req.body.team !== undefined) next.team = req.body.team === '' ? null : req.body.team;
    return { kind: 'effect', next };
  }
  const wanted = req.body.status;
  if (wanted === undefined) return { kind: 'effect', next: { ...model.state, status: model.types.defaultCompleted } };
  if (model.types.completed.includes(wanted)) return { kind: 'effect', next: { ...model.state, status: wanted } };
  if (model.types.active.includes(wanted)) return { kind: 'rejected', code: 'conversations.invalid_resolution_status' };
  return { kind: 'rejected', code: 'conversations.unknown_status' };
}

function sameState(a: ConversationState, b: ConversationState): boolean {
  return a.status === b.status && a.assigneeId === b.assigneeId && a.team === b.team;
}

function show(s: ConversationState): string {
  return `status=${s.status} assignee=${s.assigneeId ?? 'null'} team=${s.team ?? 'null'}`;
}

function effectClause(req: Request): ClauseId {
  if (req.op === 'assign') return '3.assign.sets-and-clears';
  return req.body.status === undefined ? '3.resolve.default-status' : '3.resolve.completed-key';
}

/** Every way `obs` departs from `prediction`, each tagged with the clause it violates. */
export function compare(model: ConversationModel, req: Request, prediction: Prediction, obs: Observation): Mismatch[] {
  const out: Mismatch[] = [];
  const got = `HTTP ${obs.status ?? 'none'}${obs.errorCode ? ` ${obs.errorCode}` : ''}`;
  switch (prediction.kind) {
    case 'effect': {
      if (obs.status !== 200 || !obs.shown) {
        out.push({ clause: effectClause(req), expected: `200 with the conversation (${show(prediction.next)})`, actual: got });
        break;
      }
      const shown = obs.shown;
      if (req.op === 'assign') {
        if (shown.status !== model.state.status) {
          out.push({
            clause: '3.assign.status-unchanged',
            expected: `status stays ${model.state.status}`,
            actual: `status ${shown.status}`,
          });
        }
        if (shown.assigneeId !== prediction.next.assigneeId || shown.team !== prediction.next.team) {
          out.push({ clause: '3.assign.sets-and-clears', expected: show(prediction.next), actual: show(shown) });
        }
      } else if (shown.status !== prediction.next.status) {
        out.push({ clause: effectClause(req), expected: `status ${prediction.next.status}`, actual: `status ${shown.status}` });
      }
      break;
    }
    case 'replay': {
      const r = prediction.response;
      // The spec asks that the retry be safe: the first answer, or the conversation as it stands, without a
      // new write. Whether a re-rendered first answer is byte-identical is idempotency.replay's own warning.
      if (obs.status !== r.status) {
        out.push({ clause: 'idempotency.replay', expected: `the retry answered like the first request (HTTP ${r.status})`, actual: got });
      } else if (readReplay(obs.json, r.json, model.latest) === 'new-write') {
        out.push({
          clause: 'idempotency.replay',
          expected: 'the first response, or the conversation as it stands (its updatedAt): no new write',
          actual: `${got} with another updatedAt (${obs.body})`,
        });
      }
      if (!sameState(obs.stored, model.state)) {
        out.push({
          clause: 'idempotency.replay',
          expected: `no new effect from an identical retry (${show(model.state)})`,
          actual: show(obs.stored),
        });
      }
      break;
    }
    case 'conflict': {
      const clause: ClauseId = req.op === 'assign' ? '4.7.idempotency.conflict' : '4.8.idempotency.conflict';
      if (obs.status !== 409) out.push({ clause, expected: 'HTTP 409 for a reused key with a different body', actual: got });
      if (!sameState(obs.stored, model.state))
        out.push({ clause, expected: `no effect from a conflicting request (${show(model.state)})`, actual: show(obs.stored) });
      break;
    }
    case 'rejected': {
      const clause: ClauseId = prediction.code === 'conversations.unknown_status' ? '7.unknown-status' : '3.resolve.active-key-rejected';
      if (obs.errorCode !== prediction.code) out.push({ clause, expected: `an error with code ${prediction.code}`, actual: got });
      if (obs.stored.status !== model.state.status)
        out.push({ clause, expected: `status stays ${model.state.status}`, actual: `status ${obs.stored.status}` });
      break;
    }
  }
  return out;
}

/**
 * Moves the model on. The stored state wins: a mismatch is reported once, by the check that owns its
 * clause, and later predictions start from what the server really holds.
 */
export function advance(model: ConversationModel, req: Request, prediction: Prediction, obs: Observation): void {
  model.state = { ...obs.stored };
  if (obs.latest !== undefined) model.latest = obs.latest;
  if (req.key !== undefined && prediction.kind === 'effect' && !model.keys.has(req.key)) {
    const response =
      obs.status !== undefined && obs.status >= 200 && obs.status < 300
        ? { status: obs.status, body: obs.body, json: obs.json }
        : undefined;
    model.keys.set(req.key, { op: req.op, body: canonicalJson(req.body), sent: req.body, response });
  }
}

/** The model's view of a rendered conversation (assignee inner fields are not shown; `id` is what assign sets). */
export function stateOf(conversation: Record<string, unknown>): ConversationState {
  const a = conversation.assignee;
  let assigneeId: string | null = null;
  if (a && typeof a === 'object') {
    const id = (a as Record<string, unknown>).id;
    assigneeId = typeof id === 'string' ? id : canonicalJson(a);
  }
  const team = conversation.team;
  return { status: String(conversation.status), assigneeId, team: typeof team === 'string' ? team : null };
}

/**
 * A keyless request that makes a second effect of `req` visible, or undefined when none is needed (applying
 * `req` again would change the state as it stands) or none exists (resolve with one completed status). A
 * retry whose second effect would leave the state as it is shows that effect only by a new updatedAt, which
 * a clock that has not ticked since the last write hides: so the state is moved away first, with a clearing
 * "" where one does the job (never a made-up value) and `values` otherwise.
 */
export function unmaskingMove(
  model: ConversationModel,
  req: Request,
  values: { assigneeIds: readonly string[]; teams: readonly string[] },
): Request | undefined {
  const again = predict({ ...model, keys: new Map() }, { op: req.op, body: req.body } as Request);
  if (again.kind !== 'effect' || !sameState(again.next, model.state)) return undefined;
  if (req.op === 'resolve') {
    const status = model.types.completed.find((k) => k !== again.next.status);
    return status === undefined ? undefined : { op: 'resolve', body: { status } };
  }
  const other = (sent: string, choices: readonly string[]): string | undefined => (sent !== '' ? '' : choices.find((c) => c !== ''));
  const body: AssignBody = {};
  const assignee = req.body.assignee ? other(req.body.assignee.id, values.assigneeIds) : undefined;
  const team = req.body.team !== undefined ? other(req.body.team, values.teams) : undefined;
  if (assignee !== undefined) body.assignee = { id: assignee };
  if (team !== undefined) body.team = team;
  return Object.keys(body).length ? { op: 'assign', body } : undefined;
}

/** Keys of `op` whose first answer was a success, in first-use order (candidates for reuse). */
export function reusableKeys(model: ConversationModel, op: Op): Array<{ key: string; sent: unknown }> {
  const out: Array<{ key: string; sent: unknown }> = [];
  for (const [key, e] of model.keys) if (e.op === op && e.response) out.push({ key, sent: e.sent });
  return out;
}
