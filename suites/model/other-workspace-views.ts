/**
 * More parts of auth.other-workspace (spec 5.1, model/other-workspace.ts): the Help Center articles list
 * (help:read reads drafts too, 5.4), GET /me (the workspace behind the key, 4.10) and a team change (an
 * assign that sets only the team: free text every workspace accepts, so no validation of an assignee can
 * refuse it first). A foreign key must see none of this workspace's articles, be told its own workspace by
 * /me, and change no team here. The articles' and /me's shapes are not shown: a record is the same as one of
 * this workspace's when its id and, where shown, createdAt are; /me's workspace is read from a `workspace`
 * (string or object with an id) or `workspaceId` field, and a /me without one leaves that part untried.
 */
import type { Exchange } from '../../src/client/exchange.js';
import { describeAnswer, jsonObject, statusOf, type Recorder } from '../../src/conformance/recorder.js';
import { inconclusive } from '../../src/conformance/inconclusive.js';
import type { SuiteContext } from '../../src/conformance/suite.js';
import type { ConversationState } from './conversation.js';
import { assignRequest, assignValues } from './requests.js';
import { cannotJudge, dataOf, shownState } from './world.js';
import type { Parts } from './parts.js';
import { unanswered } from './parts.js';

const OTHER = 'otherWorkspace' as const;

type Item = { id: string; createdAt?: unknown };

function itemsOf(x: Exchange): Item[] | undefined {
  const data = jsonObject(x)?.data;
  if (statusOf(x) !== 200 || !Array.isArray(data)) return undefined;
  return data.filter((d): d is Item => !!d && typeof d === 'object' && typeof (d as { id?: unknown }).id === 'string');
}

/** The workspace a GET /me answer names (its shape is not shown: `workspace` string or { id }, or `workspaceId`). */
export function workspaceOf(x: Exchange): string | undefined {
  const top = jsonObject(x);
  for (const o of [top?.data, top]) {
    if (!o || typeof o !== 'object') continue;
    const r = o as Record<string, unknown>;
    const w = r.workspace ?? r.workspaceId ?? r.workspace_id;
    if (typeof w === 'string' && w !== '') return w;
    if (w && typeof w === 'object' && typeof (w as { id?: unknown }).id === 'string') return (w as { id: string }).id;
  }
  return undefined;
}

async function articlesPart(rec: Recorder): Promise<void> {
  const list = { method: 'GET', path: '/authoring/articles', query: { limit: 100 } } as const;
  const a = await rec.send({ ...list, role: 'admin' });
  const mine = itemsOf(a);
  if (!mine?.length)
    inconclusive(
      `the admin key's articles list ${mine ? 'is empty' : `answered ${describeAnswer(a)}`}`,
      'a Help Center article in this workspace',
    );
  const x = await rec.send({ ...list, role: OTHER });
  if (unanswered(x)) return cannotJudge(rec, `the articles list with the otherWorkspace key answered ${describeAnswer(x)}`);
  const seen = itemsOf(x);
  // The foreign key may lack help:read (403) or be told no such list (404): both refuse.
  rec.expect(
    seen !== undefined || [403, 404].includes(statusOf(x)!),
    'the articles list with the otherWorkspace key: 200 with a data array, 403 or 404',
    () => describeAnswer(x),
    [x],
  );
  const byId = new Map(mine!.map((m) => [m.id, m]));
  const leaked = (seen ?? [])
    .filter((s) => byId.has(s.id) && (byId.get(s.id)!.createdAt === undefined || byId.get(s.id)!.createdAt === s.createdAt))
    .map((s) => s.id);
  rec.expect(
    leaked.length === 0,
    "the articles list with the otherWorkspace key: none of this workspace's articles (drafts included)",
    () => `${leaked.length} of them listed: ${leaked.slice(0, 3).join(', ')}`,
    [a, x],
  );
}

async function mePart(rec: Recorder): Promise<void> {
  const a = await rec.send({ method: 'GET', path: '/me', role: 'admin' });
  const mine = workspaceOf(a);
  if (!mine)
    inconclusive(
      `the admin key's GET /me ${statusOf(a) === 200 ? 'names no workspace field (workspace, workspaceId)' : `answered ${describeAnswer(a)}`}`,
    );
  const x = await rec.send({ method: 'GET', path: '/me', role: OTHER });
  const theirs = workspaceOf(x);
  if (!theirs)
    return cannotJudge(
      rec,
      `GET /me with the otherWorkspace key ${statusOf(x) === 200 ? 'names no workspace field' : `answered ${describeAnswer(x)}`}`,
    );
  rec.expect(
    theirs !== mine,
    'GET /me with the otherWorkspace key to name its own workspace, not this one (5.1)',
    () => `workspace ${theirs}, this workspace's`,
    [a, x],
  );
}

/** The conversation's state as the admin key's assign clearing the team shows it, or undefined. */
async function stateOf(rec: Recorder, id: string, when: string): Promise<{ state: ConversationState; x: Exchange } | undefined> {
  const x = await rec.send(assignRequest(id, { team: '' }));
  const state = shownState(x);
  if (!state) cannotJudge(rec, `the admin key's assign that reads conversation ${id}'s state ${when} answered ${describeAnswer(x)}`);
  return state && { state, x };
}

async function teamPart(ctx: SuiteContext, rec: Recorder): Promise<void> {
  const id = await dataOf(ctx).get('conversation');
  const before = await stateOf(rec, id, 'before the team change');
  if (!before) return;
  const team = assignValues(ctx.target).teams[0]!;
  const x = await rec.send(assignRequest(id, { team }, undefined, OTHER));
  if (!unanswered(x)) {
    rec.expect(
      [403, 404, 400, 422, ctx.target.assumptions.statuses.validation].includes(statusOf(x)!),
      "HTTP 403 or 404 (or a validation refusal) for changing the team of this workspace's conversation with the otherWorkspace key",
      () => describeAnswer(x),
      [x],
    );
  }
  // Read back with an assign that keeps the assignee and leaves the team alone: clearing it would hide the change.
  const read = await rec.send(assignRequest(id, { assignee: { id: before.state.assigneeId ?? '' } }));
  const state = shownState(read);
  if (!state)
    return cannotJudge(
      rec,
      `the admin key's assign that reads conversation ${id}'s team after the change answered ${describeAnswer(read)}`,
    );
  const after = { state, x: read };
  rec.expect(
    after.state.team === before.state.team,
    `the conversation's team unchanged by the otherWorkspace key's assign of team ${team}`,
    () => `team ${String(before.state.team)} → ${String(after.state.team)}`,
    [before.x, x, after.x],
  );
}

/** The articles list and /me parts (reads). */
export async function viewParts(parts: Parts): Promise<void> {
  await parts.run('the articles list', articlesPart);
  await parts.run('GET /me', mePart);
}

/** The team change part (a write). */
export async function teamChangePart(ctx: SuiteContext, parts: Parts): Promise<void> {
  await parts.run('a team change', (rec) => teamPart(ctx, rec));
}
