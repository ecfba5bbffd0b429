/**
 * Idempotency-Key behaviour of assign and resolve (spec 4.7, 4.8) and of concurrent and per-connection
 * use (assign and collection update). Effects are observed through the operations the spec shows: a
 * second effect of a retry would undo a change made in between (read back with an assign that changes
 * nothing, model/world.ts) or stamp a new updatedAt, and a collection's revision moves once per effect.
 * The spec asks that a retry be safe, not that it repeat the first answer's bytes: a retry may answer the
 * first response or the resource as it stands (readReplay); a re-rendered first answer is a warning only.
 * The collection update's own key rules (4.9) live in the helpcenter suite.
 */
import { defineSuite, type CheckDef, type SuiteContext } from '../src/conformance/suite.js';
import type { Exchange } from '../src/client/exchange.js';
import { describeAnswer, isSuccess, runCase, statusOf, type Recorder } from '../src/conformance/recorder.js';
import { readReplay, type ConversationState } from './model/conversation.js';
import { runConversationModel, statusTypesOf } from './model/conversation-commands.js';
import {
  type AssignBody,
  assignRequest,
  assignValues,
  collectionRequest,
  freshKey,
  keyOfLength,
  resolveRequest,
  statusesRequest,
  uniqueSlug,
} from './model/requests.js';
import { discardIfMadeUpRefused, observe, resolveTo, writableConversation } from './model/world.js';
import { firstUpdate } from './model/collections.js';

const WRITES = { writes: true, data: { conversation: 1 } } as const;

type OpName = 'assign' | 'resolve';

function opRequest(ctx: SuiteContext, op: OpName, id: string, body: unknown, key?: string, role: 'admin' | 'secondConnection' = 'admin') {
  return op === 'assign' ? assignRequest(id, body, key, role) : resolveRequest(ctx.target, id, body, key, role);
}

/**
 * Two different teams the assign checks set (the target file's, else made-up ones: see assignValues). With
 * a single team the second is "" (clearing it, which the spec allows everywhere): a team compared with
 * itself would make a second effect or a replay taken as a new request invisible.
 */
function teams(ctx: SuiteContext): [string, string] {
  const t = assignValues(ctx.target).teams;
  const other = t.find((x) => x !== t[0]);
  return [t[0]!, other ?? ''];
}

/** The team a conversation shows once `team` was assigned ("" clears it: null). */
function shownTeam(team: string): string | null {
  return team === '' ? null : team;
}

/** First body for an operation and a different valid one. */
function bodies(ctx: SuiteContext, op: OpName): [unknown, unknown] {
  if (op === 'assign') {
    const [a, b] = teams(ctx);
    return [{ team: a }, { team: b }];
  }
  const other = statusTypesOf(ctx.target).completed.find((k) => k !== ctx.target.assumptions.defaultCompletedStatus);
  return [{}, { status: other ?? ctx.target.assumptions.defaultCompletedStatus }];
}

/** The conversation's updatedAt an answer shows (for the messages). */
function stampOf(x: Exchange): string {
  return String((x.response?.json as { updatedAt?: unknown } | undefined)?.updatedAt);
}

/**
 * Judges the answer to an identical retry (readReplay): 200 (the retry is safe), and the first response or
 * the conversation as it stands (`latest`, the last answer seen) — never a new write. A first response
 * re-rendered with other bytes is only the IETF draft's SHOULD: a warning.
 */
function judgeReplay(rec: Recorder, retry: Exchange, first: Exchange, latest: Exchange): void {
  if (!rec.expect(statusOf(retry) === 200, 'the identical retry to answer 200 (it is safe)', () => describeAnswer(retry), [first, retry]))
    return;
  const reading = readReplay(retry.response?.json, first.response?.json, latest.response?.json);
  rec.expect(
    reading !== 'new-write',
    'the retry to answer the first response or the conversation as it stands (the same updatedAt), not a new write',
    () => `updatedAt ${stampOf(retry)} (first answer ${stampOf(first)}, latest ${stampOf(latest)})`,
    [first, latest, retry],
  );
  if (reading === 'restored') {
    rec.add({
      clause: 'idempotency.replay.same-response',
      severity: 'warning',
      exchanges: [first, retry],
      expected: 'the first response replayed as it was (IETF Idempotency-Key draft: SHOULD)',
      actual: "the first answer's conversation and updatedAt, with other bytes",
    });
  }
}

function replayCheck(op: OpName): CheckDef {
  return {
    id: `idempotency.${op}.replay`,
    clause: 'idempotency.replay',
    title: `${op}: an identical retry under the same key succeeds and takes effect once (it answers the first response or the conversation as it stands)`,
    needs: WRITES,
    run: (ctx) =>
      runCase(ctx, async (rec) => {
        const id = await writableConversation(ctx);
        const key = freshKey();
        const [body, other] = bodies(ctx, op);
        const first = await rec.send(opRequest(ctx, op, id, body, key));
        if (op === 'assign') discardIfMadeUpRefused(rec, ctx.target, body as AssignBody, first);
        rec.require(statusOf(first) === 200, `${op} to answer 200`, () => describeAnswer(first));
        // A change in between, without a key: a second effect of the retry would undo it.
        const between = await rec.send(opRequest(ctx, op, id, other));
        if (op === 'assign') discardIfMadeUpRefused(rec, ctx.target, other as AssignBody, between);
        rec.require(statusOf(between) === 200, `a second ${op} without a key to answer 200 (to set up the case)`, () =>
          describeAnswer(between),
        );
        const now = await observe(rec, id, teamOf(between));
        const retry = await rec.send(opRequest(ctx, op, id, body, key));
        judgeReplay(rec, retry, first, now.x);
        const after = await observe(rec, id, now.state.team);
        rec.expect(
          sameState(after.state, now.state),
          `the retry to take no second effect (${showState(now.state)} kept)`,
          () => showState(after.state),
          [first, between, retry, after.x],
        );
      }),
  };
}

function conflictCheck(op: OpName): CheckDef {
  return {
    id: `idempotency.${op}.conflict`,
    clause: op === 'assign' ? '4.7.idempotency.conflict' : '4.8.idempotency.conflict',
    title: `${op}: reusing a key with a different body returns 409 and changes nothing`,
    needs: WRITES,
    run: (ctx) =>
      runCase(ctx, async (rec) => {
        const id = await writableConversation(ctx);
        const key = freshKey();
        const [body, other] = bodies(ctx, op);
        const first = await rec.send(opRequest(ctx, op, id, body, key));
        if (op === 'assign') discardIfMadeUpRefused(rec, ctx.target, body as AssignBody, first);
        rec.require(statusOf(first) === 200, `${op} to answer 200`, () => describeAnswer(first));
        const mid = await observe(rec, id, teamOf(first));
        const second = await rec.send(opRequest(ctx, op, id, other, key));
        rec.expect(statusOf(second) === 409, 'HTTP 409 for the same key with a different body', () => describeAnswer(second));
        const after = await observe(rec, id, mid.state.team);
        rec.expect(
          sameState(after.state, mid.state),
          `the conflicting request to take no effect (${showState(mid.state)} kept)`,
          () => showState(after.state),
          [first, second, after.x],
        );
      }),
  };
}

/**
 * Puts the conversation where `body` of `op` would visibly change it: the other body applied first
 * (resolve: another completed key, when the workspace has one). Returns the state read back.
 */
async function setUpFor(ctx: SuiteContext, rec: Recorder, op: OpName, id: string) {
  const [, other] = bodies(ctx, op);
  if (op === 'resolve') {
    const o = (other as { status?: string }).status;
    if (o !== undefined && o !== ctx.target.assumptions.defaultCompletedStatus) await resolveTo(ctx, rec, id, o);
    return observe(rec, id, null);
  }
  return observe(rec, id, (other as { team: string }).team);
}

async function lengthCase(ctx: SuiteContext, rec: Recorder, id: string, op: OpName, length: number, valid: boolean): Promise<void> {
  const [body] = bodies(ctx, op);
  const before = valid ? undefined : await setUpFor(ctx, rec, op, id);
  const x = await rec.send(opRequest(ctx, op, id, body, keyOfLength(length)));
  if (valid && op === 'assign') discardIfMadeUpRefused(rec, ctx.target, body as AssignBody, x);
  if (valid || !before) {
    rec.expect(statusOf(x) === 200, `${op} with a ${length}-character key to succeed`, () => describeAnswer(x), [x]);
    return;
  }
  const s = statusOf(x) ?? 0;
  rec.expect(s >= 400 && s < 500, `${op} with a ${length}-character key to be rejected (4xx)`, () => describeAnswer(x), [x]);
  const after = await observe(rec, id, before.state.team);
  rec.expect(
    sameState(after.state, before.state),
    `a rejected ${length}-character key to take no effect (${showState(before.state)} kept)`,
    () => showState(after.state),
    [x, after.x],
  );
}

function teamOf(x: Exchange): string | null {
  const t = (x.response?.json as { team?: unknown } | undefined)?.team;
  return typeof t === 'string' ? t : null;
}

function sameState(a: ConversationState, b: ConversationState): boolean {
  return a.status === b.status && a.assigneeId === b.assigneeId && a.team === b.team;
}

function showState(s: ConversationState): string {
  return `status ${s.status}, assignee ${s.assigneeId ?? 'null'}, team ${s.team ?? 'null'}`;
}

/**
 * Opens as many pooled connections as there will be concurrent requests, so the burst goes out on warm
 * sockets in one tick and reaches the server together instead of staggered by connection set-up.
 */
async function warmUp(rec: Recorder, n: number): Promise<void> {
  await Promise.all(Array.from({ length: n }, () => rec.send(statusesRequest())));
}

async function concurrentAssign(ctx: SuiteContext, rec: Recorder): Promise<void> {
  const id = await writableConversation(ctx);
  const [one, two] = teams(ctx);
  const set = await rec.send(assignRequest(id, { team: two }));
  discardIfMadeUpRefused(rec, ctx.target, { team: two }, set);
  rec.require(statusOf(set) === 200, `an assign of team ${two} to answer 200 (to set up the case)`, () => describeAnswer(set), [set]);
  // Racing duplicates that each take effect within one clock tick leave identical answers and the same
  // state, which no shown operation can tell apart; a fixtures API's effect count is the one extra witness.
  const counted = async (): Promise<number | undefined> => (await ctx.fixtures?.getConversation(id))?.mutations;
  const before = await counted();
  const key = freshKey();
  await warmUp(rec, 5);
  const xs = await Promise.all(Array.from({ length: 5 }, () => rec.send(assignRequest(id, { team: one }, key))));
  const ok = xs.filter((x) => statusOf(x) === 200);
  rec.require(ok.length >= 1, 'at least one of 5 concurrent identical assigns to succeed', () => xs.map(describeAnswer).join(', '), xs);
  // A concurrent duplicate may be refused with 409 while the first is in flight; anything else is wrong.
  rec.expect(
    xs.every((x) => statusOf(x) === 200 || statusOf(x) === 409),
    'each concurrent duplicate to answer 200 (replay) or 409 (in progress)',
    () => xs.map(describeAnswer).join(', '),
    xs,
  );
  // Each effect stamps its own updatedAt, so 200s showing different ones show more than one effect.
  rec.expect(
    ok.every((x) => readReplay(x.response?.json, ok[0]!.response?.json, ok[0]!.response?.json) !== 'new-write'),
    'every 200 to show the same conversation and updatedAt (one effect)',
    () => `updatedAt ${ok.map(stampOf).join(', ')}`,
    ok,
  );
  const after = await counted();
  if (before !== undefined && after !== undefined) {
    rec.expect(
      after - before === 1,
      '5 concurrent identical assigns to take effect once (fixtures API effect count)',
      () => `${after - before} effects`,
      xs,
    );
  }
  // A duplicate still running behind the answers would undo this change.
  const moved = await rec.send(assignRequest(id, { team: two }));
  rec.require(statusOf(moved) === 200, 'a later assign without a key to answer 200', () => describeAnswer(moved));
  const replay = await rec.send(assignRequest(id, { team: one }, key));
  judgeReplay(rec, replay, ok[0]!, moved);
  const later = await observe(rec, id, two);
  rec.expect(
    later.state.team === shownTeam(two),
    `5 concurrent identical assigns and a retry to take effect once (team ${JSON.stringify(two)} set later kept)`,
    () => `team ${later.state.team ?? 'null'}`,
    [...xs, moved, replay, later.x],
  );
}

export const idempotencySuite = defineSuite({
  name: 'idempotency',
  description: 'Idempotency-Key replay, conflicts, key bounds, concurrency and per-connection scope (assign, resolve, collection update)',
  checks: [
    replayCheck('assign'),
    replayCheck('resolve'),
    conflictCheck('assign'),
    conflictCheck('resolve'),
    {
      id: 'idempotency.key-length',
      clause: '4.7.idempotency.key-length',
      title: 'assign and resolve accept keys of 8 and 255 characters and reject 7 and 256',
      needs: WRITES,
      run: (ctx) =>
        runCase(ctx, async (rec) => {
          const id = await writableConversation(ctx);
          for (const op of ['assign', 'resolve'] as const) {
            for (const [length, valid] of [
              [7, false],
              [8, true],
              [255, true],
              [256, false],
            ] as const) {
              await lengthCase(ctx, rec, id, op, length, valid);
            }
          }
        }),
    },
    {
      id: 'idempotency.model',
      clause: 'idempotency.replay',
      title: 'random assign/resolve sequences with fresh and reused keys match the model (replays, conflicts, single effects)',
      needs: WRITES,
      run: (ctx) =>
        runConversationModel(ctx, { focus: ['idempotency.replay', '4.7.idempotency.conflict', '4.8.idempotency.conflict'], keys: true }),
    },
    {
      id: 'idempotency.concurrent.assign',
      clause: 'idempotency.concurrent',
      title: '5 concurrent identical assigns under one key take effect once',
      needs: WRITES,
      run: (ctx) => runCase(ctx, (rec) => concurrentAssign(ctx, rec)),
    },
    {
      id: 'idempotency.concurrent.collection',
      clause: 'idempotency.concurrent',
      title: '5 concurrent identical collection updates under one key advance the revision once',
      needs: { writes: true, data: { collection: 1 }, roles: ['helpDelegated'] },
      run: (ctx) =>
        runCase(ctx, async (rec) => {
          // The burst is the check's first update: all five refused as stale, the pool item was edited since the seed.
          const { c, xs } = await firstUpdate(ctx, async (c) => {
            const key = freshKey();
            const body = { name: 'spgate concurrent', slug: uniqueSlug(ctx.fc.seed, 'spgate concurrent'), expectedRevision: c.revision };
            await warmUp(rec, 5);
            return Promise.all(Array.from({ length: 5 }, () => rec.send(collectionRequest(c.id, body, key))));
          });
          const ok = xs.filter((x) => statusOf(x) === 200);
          rec.require(
            ok.length >= 1,
            'at least one of 5 concurrent identical updates to succeed',
            () => xs.map(describeAnswer).join(', '),
            xs,
          );
          const revisions = new Set(ok.map((x) => (x.response?.json as { revision?: unknown } | undefined)?.revision));
          rec.expect(revisions.size === 1, 'every 200 to show the same revision', () => `revisions ${[...revisions].join(', ')}`, ok);
          const shown = [...revisions][0];
          // If a duplicate had taken effect, the revision would have moved past the one shown.
          const follow = await rec.send(
            collectionRequest(
              c.id,
              { name: 'spgate follow-up', slug: uniqueSlug(ctx.fc.seed, 'spgate follow-up'), expectedRevision: shown },
              freshKey(),
            ),
          );
          rec.expect(
            statusOf(follow) === 200,
            `an update expecting revision ${String(shown)} to succeed (one effect only)`,
            () => describeAnswer(follow),
            [...xs, follow],
          );
        }),
    },
    {
      id: 'idempotency.per-connection',
      clause: 'idempotency.per-connection',
      title: 'the same key used by two connections with different bodies takes effect for each',
      needs: { ...WRITES, roles: ['secondConnection'] },
      run: (ctx) =>
        runCase(ctx, async (rec) => {
          const id = await writableConversation(ctx);
          const [one, two] = teams(ctx);
          const key = freshKey();
          const a = await rec.send(assignRequest(id, { team: one }, key, 'admin'));
          discardIfMadeUpRefused(rec, ctx.target, { team: one }, a);
          rec.require(statusOf(a) === 200, "the first connection's assign to succeed", () => describeAnswer(a));
          const b = await rec.send(assignRequest(id, { team: two }, key, 'secondConnection'));
          const team = (b.response?.json as { team?: unknown } | undefined)?.team;
          rec.expect(
            statusOf(b) === 200 && (team ?? null) === shownTeam(two),
            `the second connection's request under the same key to take its own effect (team ${JSON.stringify(two)})`,
            () => `${describeAnswer(b)}${isSuccess(b) ? `, team ${String(team)}` : ''}`,
          );
          const replay = await rec.send(assignRequest(id, { team: one }, key, 'admin'));
          judgeReplay(rec, replay, a, b);
          const after = await observe(rec, id, two);
          rec.expect(
            after.state.team === shownTeam(two),
            `the first connection's retry to take no second effect (team ${JSON.stringify(two)} kept)`,
            () => `team ${after.state.team ?? 'null'}`,
            [a, b, replay, after.x],
          );
        }),
    },
  ],
});

export default idempotencySuite;
