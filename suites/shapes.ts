/**
 * Resource shapes (spec part 2 and 4.10): conversations from assign/resolve keep every key, and customers,
 * turns, sessions, download descriptors, collections, /me, /statuses and /priorities fit the model. A shape
 * failure is reported under the narrowest clause it breaks (2.datetime, 2.conversation.key-pattern,
 * 4.1.turn.get; see checks/shape.ts); ids and request ids carry their prefixes (2.id-prefixes, assumed).
 */
import fc from 'fast-check';
import { checkBodyShape, checkDataEnvelope } from '../src/checks/shape.js';
import { checkIdPrefixes, conversationIdsOf, customerPageIdsOf, requestIdsOf, type FoundId } from '../src/checks/id-prefixes.js';
import type { Exchange } from '../src/client/exchange.js';
import { defineSuite, type CheckOutcome, type SuiteContext } from '../src/conformance/suite.js';
import { runProperty } from '../src/conformance/property.js';
import type { ClauseViolation } from '../src/checks/envelope.js';
import { assignValues, resolveRequest, uniqueSlug } from './model/requests.js';
import { jsonObject, describeAnswer, fromViolation, runCase, statusOf } from '../src/conformance/recorder.js';
import { storedAttachment } from '../src/conformance/data.js';
import { listedKeys } from './model/status-list.js';
import {
  AttachmentDescriptor,
  Collection,
  Conversation,
  CustomerPage,
  SessionList,
  STATUS_KEY_PATTERN,
  TurnEnvelope,
} from '../src/spec/resources.js';
import { asPage } from '../src/conformance/paging.js';
import { cannotJudge } from './model/world.js';
import { firstUpdate } from './model/collections.js';
import { inconclusive } from '../src/conformance/inconclusive.js';

/** Assign cases over the assignee ids and teams the target names (assignValues), or made-up ones. */
function conversationCase(values: { assigneeIds: readonly string[]; teams: readonly string[] }) {
  const team = fc.constantFrom(...values.teams);
  const assignee = fc.constantFrom(...values.assigneeIds);
  return fc.record({
    team: fc.option(team, { nil: null }),
    assignee: fc.option(
      assignee.map((id) => ({ id })),
      { nil: null },
    ),
    action: fc.oneof(
      fc.record({
        kind: fc.constant('assign' as const),
        team: fc.option(fc.oneof(team, fc.constant('')), { nil: undefined }),
        assigneeId: fc.option(fc.oneof(assignee, fc.constant('')), { nil: undefined }),
      }),
      fc.record({ kind: fc.constant('resolve' as const) }),
    ),
  });
}

/**
 * GET /statuses or /priorities lists keys matching the pattern, including the known ones. The response
 * shape is "not shown" (4.10): a body the lenient reader (listedKeys) cannot read, or a read that did not
 * succeed (5xx, transport error), judges nothing and makes the check inconclusive; another error fails it.
 */
function checkKeyList(ctx: SuiteContext, path: '/statuses' | '/priorities', seeded: string[]): Promise<CheckOutcome> {
  const clauseId = path === '/statuses' ? '4.10.statuses' : '4.10.priorities';
  return runCase(ctx, async (rec) => {
    const x = await rec.send({ method: 'GET', path });
    const status = statusOf(x);
    if (status === undefined || status >= 500) return cannotJudge(rec, `GET ${path} answered ${describeAnswer(x)}: no keys to judge`);
    rec.require(status === 200, `GET ${path}: HTTP 200 with a list of keys`, () => describeAnswer(x), [x]);
    const keys = listedKeys(x.response?.json)?.map((k) => k.key);
    if (!keys) {
      return cannotJudge(
        rec,
        `GET ${path} answered a body in a shape spgate cannot read (the shape is not shown, 4.10): ${x.response?.body.slice(0, 120) ?? ''}`,
        'a list spgate reads: an array, or data/statuses/priorities/items of strings or objects with key, value, slug, code, id or name',
      );
    }
    // An empty list with no known keys to look for shows no key to judge: it judges nothing.
    if (keys.length === 0 && seeded.length === 0) {
      return cannotJudge(rec, `GET ${path} listed no keys: no key to hold to the pattern`, `a workspace with ${path.slice(1)} defined`);
    }
    const bad = keys.filter((k) => !STATUS_KEY_PATTERN.test(k));
    rec.expect(
      bad.length === 0,
      `every key matching ${String(STATUS_KEY_PATTERN)}`,
      () => `keys ${bad.map((k) => JSON.stringify(k)).join(', ')}`,
      [x],
    );
    const absent = seeded.filter((k) => !keys.includes(k));
    // Status keys come from the target's assumptions (a real workspace may differ from a seeded one): assumed.
    if (!rec.expect(absent.length === 0, `the known keys ${seeded.join(', ')}`, () => `missing ${absent.join(', ')}`, [x])) {
      rec.failures.at(-1)!.clause = path === '/statuses' ? '4.10.keys.known' : clauseId;
    }
  });
}

export default defineSuite({
  name: 'shapes',
  description: 'Resource shapes (spec part 2, 4.10)',
  checks: [
    {
      id: 'shapes.conversation',
      clause: '2.conversation.shape',
      title: 'Assign and resolve answer a conversation with every key present (null when unset)',
      needs: { writes: true, data: { conversation: 1 } },
      async run(ctx) {
        // Taken before the property (running out of data skips the check); each case sets its start state.
        const convId = await ctx.data!.get('conversation');
        const values = assignValues(ctx.target);
        // A made-up assignee or team may be refused (the spec does not require a server to accept one): such a
        // case is discarded. A refusal of the target's own values, or of clearing (""), is judged.
        const madeUp = (team: string | undefined, assigneeId: string | undefined) =>
          (!!team && !values.supplied.teams) || (!!assigneeId && !values.supplied.assigneeIds);
        const refusedMadeUp = (x: Exchange, team: string | undefined, assigneeId: string | undefined) =>
          madeUp(team, assigneeId) && (statusOf(x) ?? 0) >= 400 && (statusOf(x) ?? 0) < 500 && statusOf(x) !== 429;
        let rfc3339: { v: ClauseViolation; x: Exchange } | undefined;
        const judged = (x: Exchange) => {
          const v = checkBodyShape(x, Conversation, '2.conversation.shape', 'a conversation');
          // Date-times that are ISO 8601 but not RFC 3339: one warning for the check, not a failing case.
          if (v?.severity === 'warning') rfc3339 ??= { v, x };
          return v?.severity === 'warning' ? undefined : v;
        };
        const outcome = await runProperty(
          ctx,
          conversationCase(values),
          async (c, rec) => {
            const id = encodeURIComponent(convId);
            const setup = await rec.send({
              method: 'POST',
              path: `/conversations/${id}/assign`,
              json: { team: c.team ?? '', assignee: { id: c.assignee?.id ?? '' } },
            });
            if (refusedMadeUp(setup, c.team ?? undefined, c.assignee?.id))
              rec.discard(`made-up assignee/team refused: ${describeAnswer(setup)}`);
            const sv = judged(setup);
            if (sv) rec.require(false, sv.expected, () => sv.actual, undefined, sv.clause);
            const x =
              c.action.kind === 'assign'
                ? await rec.send({
                    method: 'POST',
                    path: `/conversations/${id}/assign`,
                    json: {
                      ...(c.action.team !== undefined ? { team: c.action.team } : {}),
                      ...(c.action.assigneeId !== undefined || c.action.team === undefined
                        ? { assignee: { id: c.action.assigneeId ?? '' } }
                        : {}),
                    },
                  })
                : await rec.send(resolveRequest(ctx.target, id, {}));
            if (c.action.kind === 'assign' && refusedMadeUp(x, c.action.team, c.action.assigneeId))
              rec.discard(`made-up assignee/team refused: ${describeAnswer(x)}`);
            const v = judged(x);
            if (v) rec.require(false, v.expected, () => v.actual, undefined, v.clause);
          },
          {
            examples: [
              { team: null, assignee: null, action: { kind: 'resolve' } },
              { team: values.teams[0]!, assignee: null, action: { kind: 'assign', team: '', assigneeId: undefined } },
            ],
          },
        );
        const warned = rfc3339 as { v: ClauseViolation; x: Exchange } | undefined;
        if (outcome.status !== 'passed' || !warned) return outcome;
        return { status: 'failed', cases: outcome.cases, failures: [fromViolation(warned.v, [warned.x])] };
      },
    },
    {
      id: 'shapes.customer',
      clause: '2.customer.shape',
      title: 'Customer list pages fit the model ({ data: [customer], hasMore, nextCursor })',
      run: (ctx) =>
        runCase(ctx, async (t) => {
          let cursor: string | undefined;
          for (let p = 0; p < 3; p++) {
            const x = await ctx.send({ method: 'GET', path: '/customers', query: { limit: 100, cursor } });
            const v = checkBodyShape(x, CustomerPage, '2.customer.shape', 'a customer page');
            t.add(v ? fromViolation(v, [x]) : undefined);
            const page = asPage(x);
            if (v || !page?.nextCursor) break;
            cursor = page.nextCursor;
          }
        }),
    },
    {
      id: 'shapes.turn',
      clause: '2.turn.shape',
      title: 'GET of a pending and a completed chat turn answers 200 { data: <turn> } (4.1.turn.get) with a turn that fits the model',
      needs: { data: { readPendingTurn: 1, completedTurn: 1 } },
      run: (ctx) =>
        runCase(ctx, async (t) => {
          for (const state of ['pending', 'completed'] as const) {
            const turn = await ctx.data!.get(state === 'pending' ? 'readPendingTurn' : 'completedTurn');
            const x = await ctx.send({
              method: 'GET',
              path: `/ai/assistant/sessions/${encodeURIComponent(turn.sessionId)}/turns/${encodeURIComponent(turn.turnId)}`,
            });
            const v = checkDataEnvelope(x, TurnEnvelope, '4.1.turn.get', '2.turn.shape', `a ${state} turn`);
            t.add(v ? fromViolation(v, [x]) : undefined);
          }
        }),
    },
    {
      id: 'shapes.session',
      clause: '2.session.shape',
      title: 'The chat session list fits the model ({ data: [session] })',
      needs: { data: { sessionsConversation: 1 } },
      run: (ctx) =>
        runCase(ctx, async (t) => {
          const convId = await ctx.data!.get('sessionsConversation');
          const x = await ctx.send({ method: 'GET', path: `/ai/conversations/${encodeURIComponent(convId)}/assistant/sessions` });
          const v = checkBodyShape(x, SessionList, '2.session.shape', 'a session list');
          t.add(v ? fromViolation(v, [x]) : undefined);
        }),
    },
    {
      id: 'shapes.descriptor',
      clause: '2.descriptor.shape',
      title: 'The attachment download descriptor fits the model',
      needs: { data: { storedAttachment: 1 } },
      run: (ctx) =>
        runCase(ctx, async (t) => {
          const att = await storedAttachment(ctx);
          if (!att) inconclusive('no stored attachment to download', 'fixtures.ids.message.storedIndex or fixtures.command');
          const x = await ctx.send({
            method: 'GET',
            path: `/messages/${encodeURIComponent(att.messageId)}/attachments/${att.index}/download`,
          });
          const v = checkBodyShape(x, AttachmentDescriptor, '2.descriptor.shape', 'a download descriptor');
          t.add(v ? fromViolation(v, [x]) : undefined);
        }),
    },
    {
      id: 'shapes.collection',
      clause: '2.collection.shape',
      title: 'A collection update answers a collection that fits the model',
      needs: { writes: true, roles: ['helpDelegated'], data: { collection: 1 } },
      run: (ctx) =>
        runCase(ctx, async (t) => {
          // A pool collection edited since the seed answers its first update as stale: passed over for the next.
          const {
            xs: [x],
          } = await firstUpdate(ctx, async (col) => {
            // A slug no earlier run left on another collection (a Help Center may keep slugs unique), and a key
            // of its own: a fixed slug per seed was refused (409) on the next run that updated another collection.
            const slug = uniqueSlug(ctx.fc.seed, 'spgate-shapes');
            return [
              await ctx.send({
                method: 'PUT',
                path: `/authoring/collections/${encodeURIComponent(col.id)}`,
                role: 'helpDelegated',
                headers: { 'idempotency-key': `spgate-shape-${slug}-${col.id}`.slice(0, 128) },
                json: { name: 'Spgate shapes', slug, description: 'shape check', expectedRevision: col.revision },
              }),
            ];
          });
          // A refusal shows no collection: the update's required-ness and validation are not shown (4.9), and a
          // pool collection may have moved on (409), so a refused update judges nothing of the shape.
          const s = statusOf(x!);
          if (s === undefined || s < 200 || s > 299) {
            return cannotJudge(
              t,
              `the collection update answered ${describeAnswer(x)}: no collection to judge`,
              'fixtures.ids.pools.collections: a collection the helpDelegated key may update with name, slug, description and expectedRevision',
            );
          }
          const v = checkBodyShape(x, Collection, '2.collection.shape', 'a collection');
          t.add(v ? fromViolation(v, [x]) : undefined);
        }),
    },
    {
      id: 'shapes.id-prefixes',
      clause: '2.id-prefixes',
      title: 'Ids carry the prefixes of part 2: customers cus_, conversations conv_, channel identities cid_, request ids req_',
      run: (ctx) =>
        runCase(ctx, async (t) => {
          // Answers that showed none of the ids they were read for: no finding there, and no absence of one either.
          const unseen: string[] = [];
          const look = (x: Exchange, ids: FoundId[]) => {
            const v = checkIdPrefixes([...ids, ...requestIdsOf(x)]);
            t.add(v ? fromViolation(v, [x]) : undefined);
          };
          const page = await ctx.send({ method: 'GET', path: '/customers', query: { limit: 100 } });
          const listed = page.response?.status === 200 && Array.isArray(jsonObject(page)?.data);
          if (!listed) unseen.push(`the customer list answered ${describeAnswer(page)}`);
          look(page, listed ? customerPageIdsOf(page.response!.json) : []);
          // A conversation is only answered by assign/resolve (the spec shows no read), so this part needs writes.
          const convId = ctx.target.allowWrites ? await ctx.data?.get('conversationId').catch(() => undefined) : undefined;
          if (convId !== undefined) {
            const x = await ctx.send({
              method: 'POST',
              path: `/conversations/${encodeURIComponent(convId)}/assign`,
              json: { team: assignValues(ctx.target).teams[0] },
            });
            const shown = x.response?.status === 200 && jsonObject(x) !== undefined;
            if (!shown) unseen.push(`the assign answered ${describeAnswer(x)}`);
            look(x, shown ? conversationIdsOf(x.response!.json) : []);
          }
          // An error answer: its X-Request-Id and error.requestId.
          const miss = await ctx.send({ method: 'GET', path: '/spgate-no-such-route' });
          look(miss, []);
          if (unseen.length)
            cannotJudge(
              t,
              `customer or conversation ids were not seen: ${unseen.join('; ')}`,
              assignValues(ctx.target).supplied.teams ? undefined : 'fixtures.ids.teams: a team the workspace accepts',
            );
        }),
    },
    {
      id: 'shapes.me',
      clause: '4.10.me',
      title: 'GET /me answers 200 with a JSON object',
      run: (ctx) =>
        runCase(ctx, async (t) => {
          const x = await ctx.send({ method: 'GET', path: '/me' });
          t.add(
            x.response?.status === 200 && jsonObject(x)
              ? undefined
              : { expected: 'HTTP 200 with a JSON object', actual: describeAnswer(x), exchanges: [x] },
          );
        }),
    },
    {
      id: 'shapes.statuses',
      clause: '4.10.statuses',
      title: 'GET /statuses lists keys matching the key pattern, including the known ones',
      run: (ctx) => checkKeyList(ctx, '/statuses', [...ctx.target.assumptions.activeStatuses, ...ctx.target.assumptions.completedStatuses]),
    },
    {
      id: 'shapes.priorities',
      clause: '4.10.priorities',
      title: 'GET /priorities lists keys matching the key pattern, including the seeded ones',
      run: (ctx) => checkKeyList(ctx, '/priorities', ctx.target.source === 'embedded' ? ['low', 'normal', 'high', 'urgent'] : []),
    },
  ],
});
