/**
 * Conversation status keys and their transitions (spec 3, 4.7, 4.8, 4.10, 7). Status types come from the
 * target's assumptions and, where GET /statuses lists a `type`, from the workspace itself.
 *
 * No shown operation takes a priority key, so conversations.unknown_priority cannot be provoked and has no
 * check. The key lists (4.10) and conversations.unknown_status (7) are checked by the shapes and errors
 * suites; the model here still predicts unknown_status so its sequences stay meaningful.
 */
import { defineSuite, type SuiteContext } from '../src/conformance/suite.js';
import { describeAnswer, errorCodeOf, jsonObject, runCase, statusOf, type Recorder } from '../src/conformance/recorder.js';
import type { ConversationState } from './model/conversation.js';
import { runConversationModel } from './model/conversation-commands.js';
import { assignRequest, resolveRequest } from './model/requests.js';
import { keysOfType, listedKeys, type ListedKey } from './model/status-list.js';
import { observe, resolveTo, shownState, writableConversation } from './model/world.js';

const WRITES = { writes: true, data: { conversation: 1 } } as const;
/** Status keys of each type: assumed ones plus those GET /statuses lists with a type. */
async function statusKeys(ctx: SuiteContext, rec: Recorder, type: 'active' | 'completed'): Promise<string[]> {
  const x = await rec.send({ method: 'GET', path: '/statuses', role: 'admin' });
  const listed: ListedKey[] | undefined = statusOf(x) === 200 ? listedKeys(x.response?.json) : undefined;
  const a = ctx.target.assumptions;
  return keysOfType(type === 'active' ? a.activeStatuses : a.completedStatuses, listed, type);
}

/**
 * Puts the conversation in a completed status other than `avoid` when the workspace has one, so a resolve
 * to `avoid` must visibly move it (conversations reach active statuses through no shown operation).
 */
async function awayFrom(ctx: SuiteContext, rec: Recorder, id: string, avoid: string, completed: string[]): Promise<string | undefined> {
  const other = completed.find((k) => k !== avoid);
  return other === undefined ? undefined : (await resolveTo(ctx, rec, id, other)).status;
}

/** A rejected resolve: the code named, and the status (read back through assign) left as it was. */
async function rejectedResolve(ctx: SuiteContext, rec: Recorder, id: string, key: string, code: string): Promise<void> {
  const from = await resolveTo(ctx, rec, id, ctx.target.assumptions.defaultCompletedStatus);
  const x = await rec.send(resolveRequest(ctx.target, id, { status: key }));
  rec.expect(errorCodeOf(x) === code, `resolve with "${key}" to be rejected with ${code}`, () => describeAnswer(x), [x]);
  const after = await observe(rec, id, from.team);
  rec.expect(after.state.status === from.status, `the status to stay ${from.status}`, () => `status ${after.state.status}`, [x, after.x]);
}

function showState(s: ConversationState | undefined): string {
  return s ? `status ${s.status}, assignee ${s.assigneeId ?? 'null'}, team ${s.team ?? 'null'}` : 'no conversation';
}

export const statusSuite = defineSuite({
  name: 'status',
  description: 'Status and priority keys, resolve transitions, assign leaving status alone, clearing assignee and team',
  checks: [
    {
      id: 'status.resolve.default',
      clause: '3.resolve.default-status',
      title: 'resolve without status moves to the default completed status',
      needs: WRITES,
      run: (ctx) => runCase(ctx, async (rec) => {
        const want = ctx.target.assumptions.defaultCompletedStatus;
        const id = await writableConversation(ctx);
        await awayFrom(ctx, rec, id, want, await statusKeys(ctx, rec, 'completed'));
        const x = await rec.send(resolveRequest(ctx.target, id, {}));
        const shown = jsonObject(x);
        rec.expect(statusOf(x) === 200 && shown?.status === want, `200 with status ${want}`,
          () => `${describeAnswer(x)}${shown ? `, status ${String(shown.status)}` : ''}`);
        const after = await observe(rec, id, shownState(x)?.team ?? null);
        rec.expect(after.state.status === want, `the status read back to be ${want}`, () => `status ${after.state.status}`);
      }),
    },
    {
      id: 'status.resolve.completed-keys',
      clause: '3.resolve.completed-key',
      title: 'resolve with each completed-type key moves to that key',
      needs: WRITES,
      run: (ctx) => runCase(ctx, async (rec) => {
        const id = await writableConversation(ctx);
        const keys = await statusKeys(ctx, rec, 'completed');
        for (const key of keys) {
          await awayFrom(ctx, rec, id, key, keys);
          const x = await rec.send(resolveRequest(ctx.target, id, { status: key }));
          const shown = shownState(x);
          rec.expect(shown?.status === key, `resolve with "${key}" to answer 200 with status ${key}`,
            () => `${describeAnswer(x)}${shown ? `, status ${shown.status}` : ''}`, [x]);
        }
      }),
    },
    {
      id: 'status.resolve.active-keys',
      clause: '3.resolve.active-key-rejected',
      title: 'resolve with each active-type key is rejected with conversations.invalid_resolution_status and changes nothing',
      needs: WRITES,
      run: (ctx) => runCase(ctx, async (rec) => {
        const id = await writableConversation(ctx);
        for (const key of await statusKeys(ctx, rec, 'active')) await rejectedResolve(ctx, rec, id, key, 'conversations.invalid_resolution_status');
      }),
    },
    {
      id: 'status.assign.model',
      clause: '3.assign.status-unchanged',
      title: 'random assign/resolve sequences: assign never changes the status',
      needs: WRITES,
      run: (ctx) => runConversationModel(ctx, { focus: ['3.assign.status-unchanged'], keys: false }),
    },
    {
      id: 'status.assign.sets-and-clears',
      clause: '3.assign.sets-and-clears',
      title: 'assign sets assignee and team; assignee.id "" and team "" clear them',
      needs: WRITES,
      run: (ctx) => runCase(ctx, async (rec) => {
        const id = await writableConversation(ctx);
        const steps: Array<[unknown, string | null, string | null, string]> = [
          [{ assignee: { id: 'agt_spgate_a' }, team: 'tier-1' }, 'agt_spgate_a', 'tier-1', 'set both'],
          [{ assignee: { id: '' } }, null, 'tier-1', 'assignee.id "" clears the assignee only'],
          [{ team: '' }, null, null, 'team "" clears the team'],
        ];
        for (const [body, assigneeId, team, what] of steps) {
          const x = await rec.send(assignRequest(id, body));
          const seen = shownState(x);
          rec.expect(seen?.assigneeId === assigneeId && seen.team === team,
            `${what}: assignee ${assigneeId ?? 'null'}, team ${team ?? 'null'}`,
            () => (seen ? `assignee ${seen.assigneeId ?? 'null'}, team ${seen.team ?? 'null'}` : describeAnswer(x)), [x]);
        }
      }),
    },
    {
      id: 'status.assign.body-required',
      clause: '4.7.assign.body-required',
      title: 'assign with neither assignee nor team is rejected and changes nothing',
      needs: WRITES,
      run: (ctx) => runCase(ctx, async (rec) => {
        const id = await writableConversation(ctx);
        const before = await observe(rec, id, 'tier-1');
        const x = await rec.send(assignRequest(id, {}));
        const s = statusOf(x) ?? 0;
        rec.expect(s >= 400 && s < 500, `a 4xx rejection (assumed ${ctx.target.assumptions.statuses.validation})`, () => describeAnswer(x));
        const after = await observe(rec, id, 'tier-1');
        rec.expect(showState(after.state) === showState(before.state), `no effect (${showState(before.state)})`, () => showState(after.state), [x, after.x]);
      }),
    },
  ],
});

export default statusSuite;
