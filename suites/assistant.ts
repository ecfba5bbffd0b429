/**
 * Assistant chats (spec 2, 3, 4.1–4.3): action receipts, the cancel state machine, access limited to the
 * owning connection while its holder is an owner/admin, and the session listing rules. Turn and session
 * shapes are checked by the shapes suite.
 */
import { defineSuite, type CheckOutcome, type SuiteContext } from '../src/conformance/suite.js';
import type { Exchange } from '../src/client/exchange.js';
import type { TurnRef } from '../src/conformance/fixtures/needs.js';
import { Moved } from '../src/conformance/fixtures/provider.js';
import { ActionReceipt, Answer, TurnEnvelope } from '../src/spec/resources.js';
import { checkDataEnvelope, describeIssues, shapeIssues } from '../src/checks/shape.js';
import type { z } from 'zod';
import { describeAnswer, fromViolation, jsonObject, runCase, statusOf, type Recorder } from '../src/conformance/recorder.js';
import { canonicalJson } from './model/conversation.js';
import { cancelTurnRequest, getTurnRequest, sessionsRequest } from './model/requests.js';
import { cannotJudge, dataOf } from './model/world.js';
import { isPaginationKey } from './model/pagination-keys.js';
import {
  EXPIRY_TOLERANCE_MS,
  expiredSessions,
  foreignListing,
  foreignSessions,
  serverTime,
  sessionsOf,
  type ListedSession,
} from './model/sessions.js';

/** A turn from the provider chain: pool pending turns may be cancelled; the others are only read. */
function turn(ctx: SuiteContext, kind: 'readPendingTurn' | 'completedTurn'): Promise<TurnRef> {
  return dataOf(ctx).get(kind);
}

/** What breaks the spec's model in `value` (date-times that are ISO 8601 but not RFC 3339 are the shape checks' warning). */
function issues(schema: z.ZodType, value: unknown): string | undefined {
  const { errors } = shapeIssues(schema, value);
  return errors.length ? describeIssues(errors, 10) : undefined;
}

function turnOf(x: Exchange): Record<string, unknown> | undefined {
  const data = jsonObject(x)?.data;
  return data && typeof data === 'object' && !Array.isArray(data) ? (data as Record<string, unknown>) : undefined;
}

function turnStatus(x: Exchange): string {
  return String(turnOf(x)?.status);
}

/** A conversation with at least two admin chats, one archived (fixtures.ids.sessionsConversationId). */
function sessionsConversation(ctx: SuiteContext): Promise<string> {
  return dataOf(ctx).get('sessionsConversation');
}

/** The sessions conversation's listing, required to answer 200. */
async function sessionsListing(ctx: SuiteContext, rec: Recorder): Promise<{ conversationId: string; x: Exchange }> {
  const conversationId = await sessionsConversation(ctx);
  const x = await rec.send(sessionsRequest(conversationId));
  rec.require(statusOf(x) === 200, 'the listing to answer 200', () => describeAnswer(x));
  return { conversationId, x };
}

/** The chats of the sessions listing, or the check inconclusive (unless already failed) when its body shows none. */
function readableListing(rec: Recorder, x: Exchange): ListedSession[] | undefined {
  const list = sessionsOf(x);
  if (!list) cannotJudge(rec, `the listing answered ${describeAnswer(x)}: no data array to read its chats from`);
  return list;
}

/** A pool turn's read, or Moved when it shows no pending turn (completed or cancelled by itself, gone). */
async function readPending(ctx: SuiteContext, rec: Recorder, c: TurnRef): Promise<Exchange | Moved> {
  const t = ctx.target.assumptions.turnStatus;
  const before = await rec.send(getTurnRequest(c.sessionId, c.turnId));
  if (statusOf(before) !== 200 || !turnOf(before))
    return new Moved(`turn ${c.turnId}: its read answered HTTP ${statusOf(before) ?? 'none'} with no turn`);
  const status = turnStatus(before);
  return status === t.completed || status === t.cancelled ? new Moved(`turn ${c.turnId} was already ${status}`) : before;
}

/**
 * A refused cancel of a turn read pending a moment before: re-read, a turn that shows completed completed by
 * itself in between (the 409 was right), so the item moved on; otherwise the refusal is the server's.
 */
async function completedMeanwhile(ctx: SuiteContext, rec: Recorder, c: TurnRef, x: Exchange): Promise<Moved | undefined> {
  if (statusOf(x) === 200) return undefined;
  const again = await rec.send(getTurnRequest(c.sessionId, c.turnId));
  const completed = ctx.target.assumptions.turnStatus.completed;
  return turnStatus(again) === completed
    ? new Moved(`turn ${c.turnId} completed by itself between its read and the cancel (HTTP ${statusOf(x) ?? 'none'})`)
    : undefined;
}

/**
 * Cancels the first pool turn a read shows pending (4.1), passing over turns that moved on by themselves
 * before the read or between the read and the cancel: never a state the check did not cause.
 */
function cancelPoolTurn(ctx: SuiteContext, rec: Recorder): Promise<{ c: TurnRef; before: Exchange; x: Exchange }> {
  return dataOf(ctx).confirmed('pendingTurn', async (c) => {
    const before = await readPending(ctx, rec, c);
    if (before instanceof Moved) return before;
    const x = await rec.send(cancelTurnRequest(c.sessionId, c.turnId));
    return (await completedMeanwhile(ctx, rec, c, x)) ?? { c, before, x };
  });
}

async function receiptsCheck(ctx: SuiteContext): Promise<CheckOutcome> {
  let none = false;
  const outcome = await runCase(ctx, async (rec) => {
    const c = await turn(ctx, 'completedTurn');
    const x = await rec.send(getTurnRequest(c.sessionId, c.turnId));
    rec.require(statusOf(x) === 200, 'GET of a completed turn to answer 200', () => describeAnswer(x));
    const receipts = turnOf(x)?.actionConfirmations;
    if (receipts === undefined || (Array.isArray(receipts) && receipts.length === 0)) {
      none = true;
      return;
    }
    rec.require(Array.isArray(receipts), 'actionConfirmations to be an array', () => typeof receipts);
    (receipts as unknown[]).forEach((r, i) => {
      const bad = issues(ActionReceipt, r);
      rec.expect(bad === undefined, `receipt ${i} to have the fields of an action receipt`, () => bad ?? '');
    });
  });
  return none && outcome.status === 'passed'
    ? {
        status: 'inconclusive',
        cases: outcome.cases,
        reason: 'the completed turn carries no action receipts',
        remedy: 'fixtures.ids.completedTurn: a turn with a confirmed action (actionConfirmations)',
      }
    : outcome;
}

export const assistantSuite = defineSuite({
  name: 'assistant',
  description: 'Assistant chat turns (shape, cancel), owner-only and admin-only access, session listing',
  checks: [
    {
      id: 'assistant.receipt.shape',
      clause: '2.receipt.shape',
      title: 'action receipts of a completed turn have their required fields and a valid undo.status',
      needs: { data: { completedTurn: 1 } },
      run: receiptsCheck,
    },
    {
      id: 'assistant.turn.completed-answer',
      clause: '3.turn.completed-has-answer',
      title: 'a completed turn has its answer populated',
      needs: { data: { completedTurn: 1 } },
      run: (ctx) =>
        runCase(ctx, async (rec) => {
          const completed = ctx.target.assumptions.turnStatus.completed;
          const c = await turn(ctx, 'completedTurn');
          const x = await rec.send(getTurnRequest(c.sessionId, c.turnId));
          rec.require(statusOf(x) === 200, 'GET of the completed turn to answer 200', () => describeAnswer(x));
          const t = turnOf(x);
          // Turn status values are "not shown" (part 3): the value is the target's assumption.
          if (
            !rec.expect(
              t?.status === completed,
              `status ${completed} (assumptions.turnStatus.completed)`,
              () => `status ${String(t?.status)}`,
            )
          )
            rec.failures.at(-1)!.clause = '3.turn.status-values';
          // "An answer may be withheld if its retained sources are no longer accessible" (part 2): an absent
          // answer shows neither a populated answer nor a missing one.
          if (t?.answer === undefined) {
            return cannotJudge(
              rec,
              'the completed turn carries no answer, which part 2 allows ("an answer may be withheld if its retained sources are no longer accessible")',
              'fixtures.ids.completedTurn: a completed turn whose answer is not withheld',
            );
          }
          const bad = issues(Answer, t.answer);
          rec.expect(bad === undefined, 'an answer object once the turn completed', () => `answer: ${bad}`);
        }),
    },
    {
      id: 'assistant.cancel.pending',
      clause: '3.turn.cancel-pending',
      title: 'cancelling a pending turn moves it to cancelled',
      needs: { writes: true, data: { pendingTurn: 1 } },
      run: (ctx) =>
        runCase(ctx, async (rec) => {
          const cancelled = ctx.target.assumptions.turnStatus.cancelled;
          const { c, before, x } = await cancelPoolTurn(ctx, rec);
          rec.expect(
            statusOf(x) === 200 && turnStatus(x) !== turnStatus(before),
            `200 with a status other than the pending turn's ${turnStatus(before)}`,
            () => `${describeAnswer(x)}, status ${turnStatus(x)}`,
          );
          // Turn status values are "not shown" (part 3): the value is the target's assumption.
          if (
            statusOf(x) === 200 &&
            !rec.expect(
              turnStatus(x) === cancelled,
              `status ${cancelled} (assumptions.turnStatus.cancelled)`,
              () => `status ${turnStatus(x)}`,
            )
          )
            rec.failures.at(-1)!.clause = '3.turn.status-values';
          const g = await rec.send(getTurnRequest(c.sessionId, c.turnId));
          rec.expect(
            turnStatus(g) === turnStatus(x),
            `the turn to read back with the status the cancel answered (${turnStatus(x)})`,
            () => `${describeAnswer(g)}, status ${turnStatus(g)}`,
          );
        }),
    },
    {
      id: 'assistant.cancel.repeat',
      clause: '3.turn.cancel-repeat-safe',
      title: 'an identical repeat of a cancel answers 200 with the same status',
      needs: { writes: true, data: { pendingTurn: 1 } },
      run: (ctx) =>
        runCase(ctx, async (rec) => {
          const { c, x: first } = await cancelPoolTurn(ctx, rec);
          rec.require(statusOf(first) === 200, 'the first cancel to answer 200', () => describeAnswer(first));
          const again = await rec.send(cancelTurnRequest(c.sessionId, c.turnId));
          rec.expect(
            statusOf(again) === 200 && turnStatus(again) === turnStatus(first),
            `the repeat to answer 200 with status ${turnStatus(first)}`,
            () => `${describeAnswer(again)}, status ${turnStatus(again)}`,
          );
        }),
    },
    {
      id: 'assistant.cancel.completed',
      clause: '3.turn.cancel-completed-409',
      title: 'cancelling a completed turn answers 409 and leaves it unchanged',
      // A clean server refuses, so the shared completed turn stays as it is; only a faulty one would change it.
      needs: { writes: true, data: { completedTurn: 1 } },
      run: (ctx) =>
        runCase(ctx, async (rec) => {
          const c = await turn(ctx, 'completedTurn');
          const before = await rec.send(getTurnRequest(c.sessionId, c.turnId));
          rec.require(statusOf(before) === 200, 'GET of the completed turn to answer 200', () => describeAnswer(before));
          const x = await rec.send(cancelTurnRequest(c.sessionId, c.turnId));
          rec.expect(statusOf(x) === 409, 'HTTP 409', () => describeAnswer(x));
          const after = await rec.send(getTurnRequest(c.sessionId, c.turnId));
          // Two reads that show no turn (an error, a body without data) compare equal but show nothing.
          const unread = [before, after].find((r) => statusOf(r) !== 200 || !turnOf(r));
          if (unread)
            return cannotJudge(
              rec,
              `whether the completed turn changed is unknown: a read of it answered ${describeAnswer(unread)}${statusOf(unread) === 200 ? ', no turn under data' : ''}`,
            );
          rec.expect(
            canonicalJson(turnOf(after)) === canonicalJson(turnOf(before)),
            'the turn unchanged',
            () => `status ${turnStatus(before)} → ${turnStatus(after)}`,
          );
        }),
    },
    {
      id: 'assistant.owner-only',
      clause: '4.1.chat.owner-only',
      title:
        "another connection can neither read nor cancel a chat turn (403 or 404) nor see the owner's chats in its listing (403, 404, or 200 without them)",
      needs: { writes: true, roles: ['secondConnection'], data: { pendingTurn: 1, sessionsConversation: 1 } },
      run: (ctx) =>
        runCase(ctx, async (rec) => {
          const conversationId = await sessionsConversation(ctx);
          const refused = (x: Exchange) => statusOf(x) === 403 || statusOf(x) === 404;
          const { before, read, cancel, own } = await dataOf(ctx).confirmed('pendingTurn', async (c) => {
            const before = await readPending(ctx, rec, c);
            if (before instanceof Moved) return before;
            const read = await rec.send(getTurnRequest(c.sessionId, c.turnId, 'secondConnection'));
            const cancel = await rec.send(cancelTurnRequest(c.sessionId, c.turnId, 'secondConnection'));
            const own = await rec.send(getTurnRequest(c.sessionId, c.turnId));
            // Refused both ways, a turn that now shows completed finished by itself (a foreign cancel that went
            // through would have cancelled it): it shows nothing about the foreign cancel.
            const completed = ctx.target.assumptions.turnStatus.completed;
            if (refused(read) && refused(cancel) && turnStatus(own) === completed)
              return new Moved(`turn ${c.turnId} completed by itself during the check`);
            return { before, read, cancel, own };
          });
          rec.expect(refused(read), "reading another connection's turn to be refused (403 or 404)", () => describeAnswer(read), [read]);
          rec.expect(refused(cancel), "cancelling another connection's turn to be refused (403 or 404)", () => describeAnswer(cancel), [
            cancel,
          ]);
          // A refused cancel that cancels anyway is the foreign connection acting on the chat (4.1/4.2 "only the
          // API key … that owns the chat"): the spec's rule, whatever the status values are called. Compared
          // with the status the owner read before, so no assumed value is needed.
          rec.expect(
            statusOf(own) === 200 && turnStatus(own) === turnStatus(before),
            `the owner's turn unchanged by the foreign cancel (status ${turnStatus(before)})`,
            () => `${describeAnswer(own)}, status ${turnStatus(own)}`,
            [cancel, own],
          );
          // The owner's chats of a conversation must not show in another connection's listing of it.
          const mine = await rec.send(sessionsRequest(conversationId));
          // the owner's listing is what the foreign one is judged by: unreadable, it judges nothing
          const ownListing = readableListing(rec, mine);
          if (!ownListing) return;
          const ownChats = ownListing.map((s) => s.id);
          rec.require(ownChats.length > 0, "the owner's listing to answer 200 with its chats", () => describeAnswer(mine), [mine]);
          const list = await rec.send(sessionsRequest(conversationId, 'secondConnection'));
          const { ok, leaked } = foreignListing(list, ownChats);
          rec.expect(
            ok,
            "another connection's listing to be refused (403 or 404) or not to show the owner's chats (200 with data)",
            () => (leaked.length ? `listed ${leaked.join(', ')} in ${list.id}` : describeAnswer(list)),
            [mine, list],
          );
        }),
    },
    {
      id: 'assistant.admin-only',
      clause: '4.1.chat.admin-only',
      title: 'a key whose holder is no longer owner/admin cannot read its chats or list them (403)',
      needs: { roles: ['member'], data: { memberTurn: 1 } },
      run: (ctx) =>
        runCase(ctx, async (rec) => {
          const c = await dataOf(ctx).get('memberTurn');
          const read = await rec.send(getTurnRequest(c.sessionId, c.turnId, 'member'));
          rec.expect(statusOf(read) === 403, 'reading its own chat turn to be refused with 403', () => describeAnswer(read), [read]);
          const list = await rec.send(sessionsRequest(c.conversationId, 'member'));
          rec.expect(statusOf(list) === 403, 'listing its chats to be refused with 403', () => describeAnswer(list), [list]);
        }),
    },
    {
      id: 'assistant.cancel.admin-only',
      clause: '4.2.cancel.admin-only',
      title: 'a key whose holder is no longer owner/admin cannot cancel its own chat turn (403)',
      // A clean server refuses, so the shared memberTurn stays pending; only a faulty one would change it.
      needs: { writes: true, roles: ['member'], data: { memberTurn: 1 } },
      run: (ctx) =>
        runCase(ctx, async (rec) => {
          const c = await dataOf(ctx).get('memberTurn');
          const x = await rec.send(cancelTurnRequest(c.sessionId, c.turnId, 'member'));
          rec.expect(
            statusOf(x) === 403,
            'cancelling its own chat turn to be refused with 403 (same access rules as 4.1)',
            () => describeAnswer(x),
            [x],
          );
        }),
    },
    {
      id: 'assistant.cancel.response',
      clause: '4.2.cancel.response',
      title: 'cancelling a pending turn answers 200 { data: <chat turn> } with that turn, fitting the turn model',
      needs: { writes: true, data: { pendingTurn: 1 } },
      run: (ctx) =>
        runCase(ctx, async (rec) => {
          const { c, x } = await cancelPoolTurn(ctx, rec);
          // The shapes suite's envelope + turn-model check: envelope faults under 4.2, item faults under 2.turn.shape.
          const v = checkDataEnvelope(x, TurnEnvelope, '4.2.cancel.response', '2.turn.shape', 'the cancelled turn');
          rec.add(v ? fromViolation(v, [x]) : undefined);
          if (v) return;
          const id = turnOf(x)?.id;
          rec.expect(id === c.turnId, `data to be the cancelled turn (id ${c.turnId})`, () => `data.id ${String(id)}`, [x]);
        }),
    },
    {
      id: 'assistant.sessions.max-100',
      clause: '4.3.sessions.max-100',
      title:
        'with more than 100 unexpired chats, the listing returns the newest 100 at most: newest activity first, the most recently active chat first',
      needs: { data: { crowdedConversation: 1 } },
      run: async (ctx) => {
        const { conversationId: id, newestChatId: newest } = await dataOf(ctx).get('crowdedConversation');
        return runCase(ctx, async (rec) => {
          const x = await rec.send(sessionsRequest(id));
          rec.require(statusOf(x) === 200, 'the listing to answer 200', () => describeAnswer(x));
          const list = readableListing(rec, x);
          if (!list) return;
          rec.expect(list.length <= 100, 'at most 100 chats', () => `${list.length} chats`);
          // A LIMIT taken before the sort still lists at most 100, ordered; it shows by leaving the newest out.
          const times = ((jsonObject(x)?.data ?? []) as Array<{ lastActivityAt?: unknown }>).map((d) =>
            Date.parse(String(d?.lastActivityAt)),
          );
          rec.expect(
            times.every((t, i) => i === 0 || !(t > times[i - 1]!)),
            'the chats newest activity first (lastActivityAt non-increasing)',
            () =>
              `lastActivityAt in listed order: ${times
                .slice(0, 5)
                .map((t) => new Date(t).toISOString())
                .join(', ')}…`,
          );
          // Without the newest chat's id a LIMIT before the sort (the 100 oldest, ordered) looks the same as the newest 100.
          if (newest === undefined) {
            return cannotJudge(
              rec,
              "which 100 chats were listed (the newest 100, not any 100) is unknown without the crowded conversation's most recently active chat",
              'add fixtures.ids.crowdedNewestChatId: the most recently active chat of fixtures.ids.crowdedConversationId (or a fixtures.command that answers crowdedConversation with { conversationId, newestChatId })',
            );
          }
          rec.expect(list[0]?.id === newest, `the most recently active chat ${newest} listed first: the newest 100, not any 100`, () =>
            list.some((s) => s.id === newest)
              ? `listed at position ${list.findIndex((s) => s.id === newest) + 1}`
              : `not listed; first ${String(list[0]?.id)}`,
          );
        });
      },
    },
    {
      id: 'assistant.sessions.order',
      clause: '4.3.sessions.order',
      title: 'chats are listed newest activity first',
      needs: { data: { sessionsConversation: 1 } },
      run: (ctx) =>
        runCase(ctx, async (rec) => {
          const { x } = await sessionsListing(ctx, rec);
          // a listing without a data array shows no order (its shape is shapes.session's finding)
          if (!readableListing(rec, x)) return;
          const data = (jsonObject(x)?.data ?? []) as Array<{ lastActivityAt?: unknown }>;
          // A chat may omit lastActivityAt (shapes.session allows it): the order is judged over those that show it.
          const times = data.map((d) => Date.parse(String(d.lastActivityAt))).filter((t) => !Number.isNaN(t));
          if (times.length < 2) {
            return cannotJudge(
              rec,
              `${times.length} of ${data.length} listed chats show a lastActivityAt, so no order can be seen`,
              'fixtures.ids.sessionsConversationId: a conversation with two or more chats whose lastActivityAt is shown',
            );
          }
          const ordered = times.every((t, i) => i === 0 || times[i - 1]! >= t);
          rec.expect(
            ordered,
            'lastActivityAt non-increasing over the listed chats that show one',
            () => `lastActivityAt ${data.map((d) => String(d.lastActivityAt)).join(', ')}`,
          );
        }),
    },
    {
      id: 'assistant.sessions.archived',
      clause: '4.3.sessions.archived-included',
      title: 'archived chats are included in the listing',
      needs: { data: { sessionsConversation: 1 } },
      run: (ctx) =>
        runCase(ctx, async (rec) => {
          const { x } = await sessionsListing(ctx, rec);
          if (!readableListing(rec, x)) return;
          const data = (jsonObject(x)?.data ?? []) as Array<{ archivedAt?: unknown }>;
          const archived = data.filter((d) => d && typeof d.archivedAt === 'string' && d.archivedAt !== '');
          rec.expect(
            archived.length > 0,
            "the conversation's archived chat to be listed (archivedAt set)",
            () => `listed ${data.length} chats, none archived`,
          );
        }),
    },
    {
      id: 'assistant.sessions.this-conversation',
      clause: '4.3.sessions.this-conversation',
      title: 'only chats of the listed conversation are listed (every conversationId is that conversation)',
      needs: { data: { sessionsConversation: 1 } },
      run: (ctx) =>
        runCase(ctx, async (rec) => {
          const { conversationId, x } = await sessionsListing(ctx, rec);
          const list = readableListing(rec, x);
          if (!list) return;
          rec.require(list.length > 0, "the conversation's chats to be listed", () => 'an empty listing');
          const foreign = foreignSessions(list, conversationId);
          rec.expect(
            foreign.length === 0,
            `every listed chat to have conversationId ${conversationId}`,
            () =>
              `${foreign.length} of ${list.length} chats of other conversations: ${foreign
                .slice(0, 3)
                .map((s) => `${s.id} (${String(s.conversationId)})`)
                .join(', ')}`,
          );
        }),
    },
    {
      id: 'assistant.sessions.unexpired',
      clause: '4.3.sessions.unexpired',
      title: `no listed chat has expired (retentionExpiresAt more than ${EXPIRY_TOLERANCE_MS / 1000} s before the answer's Date header), and the known expired chat (fixtures.ids.expiredChatId) is left out`,
      needs: { data: { sessionsConversation: 1 } },
      async run(ctx) {
        // An expired chat the listing must leave out is known only from the target file, with its conversation.
        const ids = ctx.target.fixtures.ids;
        const known =
          ids.expiredChatId !== undefined && ids.sessionsConversationId !== undefined
            ? { chat: ids.expiredChatId, conversationId: ids.sessionsConversationId }
            : undefined;
        return runCase(ctx, async (rec) => {
          const x = known ? await rec.send(sessionsRequest(known.conversationId)) : (await sessionsListing(ctx, rec)).x;
          rec.require(statusOf(x) === 200, 'the listing to answer 200', () => describeAnswer(x));
          const list = readableListing(rec, x);
          if (!list) return;
          // The server's clock wrote retentionExpiresAt, so its Date header is the measure (local clock as fallback).
          const now = serverTime(x.response?.headers, x.timings.start + x.timings.total);
          const expired = expiredSessions(list, now.at);
          rec.expect(
            expired.length === 0,
            `no chat whose retentionExpiresAt is over ${EXPIRY_TOLERANCE_MS / 1000} s before ${new Date(now.at).toISOString()} (${now.source})`,
            () =>
              `expired chats listed: ${expired
                .slice(0, 3)
                .map((s) => `${s.id} (retentionExpiresAt ${String(s.retentionExpiresAt)})`)
                .join(', ')}`,
          );
          // A listing without expired chats shows the filter only when an expired chat was there to leave out.
          if (!known) {
            return cannotJudge(
              rec,
              'no expired chat is known in the listed conversation, so a listing without one shows no filtering',
              'fixtures.ids.expiredChatId: a chat of fixtures.ids.sessionsConversationId whose retention has expired',
            );
          }
          rec.expect(
            !list.some((s) => s.id === known.chat),
            `the expired chat ${known.chat} (fixtures.ids.expiredChatId) left out`,
            () => `listed ${known.chat}`,
          );
        });
      },
    },
    {
      id: 'assistant.sessions.no-pagination',
      clause: '4.3.sessions.no-pagination',
      title: 'the listing is { data: [...] } without pagination keys',
      needs: { data: { sessionsConversation: 1 } },
      run: (ctx) =>
        runCase(ctx, async (rec) => {
          const { x } = await sessionsListing(ctx, rec);
          const body = jsonObject(x) ?? {};
          rec.require(Array.isArray(body.data), 'a data array', () => `keys ${Object.keys(body).join(', ') || 'none'}`);
          // Other top-level keys (`object: "list"`, vendor fields) are not forbidden; pagination keys are.
          const paging = Object.keys(body).filter(isPaginationKey);
          rec.expect(paging.length === 0, 'no pagination keys beside data', () => `pagination keys ${paging.join(', ')}`);
        }),
    },
  ],
});

export default assistantSuite;
