/**
 * Conversation status keys and their transitions (spec 3, 4.7, 4.8, 4.10, 7). Status types come from the
 * target's assumptions and, where GET /statuses lists a `type`, from the workspace itself.
 *
 * No shown operation takes a priority key, so conversations.unknown_priority cannot be provoked and has no
 * check. The key lists (4.10) and conversations.unknown_status (7) are checked by the shapes and errors
 * suites; the model here still predicts unknown_status so its sequences stay meaningful.
 */
import { defineSuite, type SuiteContext } from '../src/conformance/suite.js';
import { describe, errorCodeOf, jsonObject, runCase, statusOf, type CaseRecorder } from './model/case.js';
import { stateOf } from './model/conversation.js';
import { runConversationModel } from './model/conversation-commands.js';
import { assignRequest, resolveRequest } from './model/requests.js';
import { keysOfType, listedKeys, type ListedKey } from './model/status-list.js';
import { freshConversation, stored } from './model/world.js';

const WRITES = { fixtures: true, writes: true } as const;
/** Status keys of each type: assumed ones plus those GET /statuses lists with a type. */
async function statusKeys(ctx: SuiteContext, rec: CaseRecorder, type: 'active' | 'completed'): Promise<string[]> {
  const x = await rec.send({ method: 'GET', path: '/statuses', role: 'admin' });
  const listed: ListedKey[] | undefined = statusOf(x) === 200 ? listedKeys(x.response?.json) : undefined;
  const a = ctx.target.assumptions;
  return keysOfType(type === 'active' ? a.activeStatuses : a.completedStatuses, listed, type);
}

/** Resolves a fresh conversation (in `from`) with `body` and returns the exchange and stored state after. */
async function resolveFresh(ctx: SuiteContext, rec: CaseRecorder, from: string, body: unknown) {
  const { id } = await freshConversation(ctx, { status: from });
  const x = await rec.send(resolveRequest(ctx.target, id, body));
  const after = await stored(ctx, id);
  return { x, after, shown: jsonObject(x) };
}

/** A rejected resolve: the code named, and the stored status left as it was. */
async function rejectedResolve(ctx: SuiteContext, rec: CaseRecorder, key: string, code: string): Promise<void> {
  const from = ctx.target.assumptions.defaultCompletedStatus === key ? 'open' : ctx.target.assumptions.defaultCompletedStatus;
  const { x, after } = await resolveFresh(ctx, rec, from, { status: key });
  rec.expect(errorCodeOf(x) === code, `resolve with "${key}" to be rejected with ${code}`, () => describe(x), [x]);
  rec.expect(after.state.status === from, `the status to stay ${from}`, () => `status ${after.state.status}`, [x]);
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
        const { x, after, shown } = await resolveFresh(ctx, rec, 'open', {});
        rec.expect(statusOf(x) === 200 && shown?.status === want, `200 with status ${want}`,
          () => `${describe(x)}${shown ? `, status ${String(shown.status)}` : ''}`);
        rec.expect(after.state.status === want, `the stored status to be ${want}`, () => `status ${after.state.status}`);
      }),
    },
    {
      id: 'status.resolve.completed-keys',
      clause: '3.resolve.completed-key',
      title: 'resolve with each completed-type key moves to that key',
      needs: WRITES,
      run: (ctx) => runCase(ctx, async (rec) => {
        for (const key of await statusKeys(ctx, rec, 'completed')) {
          const { x, after, shown } = await resolveFresh(ctx, rec, 'open', { status: key });
          rec.expect(statusOf(x) === 200 && shown?.status === key && after.state.status === key, `resolve with "${key}" to answer 200 with status ${key}`,
            () => `${describe(x)}, stored status ${after.state.status}`, [x]);
        }
      }),
    },
    {
      id: 'status.resolve.active-keys',
      clause: '3.resolve.active-key-rejected',
      title: 'resolve with each active-type key is rejected with conversations.invalid_resolution_status and changes nothing',
      needs: WRITES,
      run: (ctx) => runCase(ctx, async (rec) => {
        for (const key of await statusKeys(ctx, rec, 'active')) await rejectedResolve(ctx, rec, key, 'conversations.invalid_resolution_status');
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
        const { id } = await freshConversation(ctx);
        const steps: Array<[unknown, string | null, string | null, string]> = [
          [{ assignee: { id: 'agt_spgate_a' }, team: 'tier-1' }, 'agt_spgate_a', 'tier-1', 'set both'],
          [{ assignee: { id: '' } }, null, 'tier-1', 'assignee.id "" clears the assignee only'],
          [{ team: '' }, null, null, 'team "" clears the team'],
        ];
        for (const [body, assigneeId, team, what] of steps) {
          const x = await rec.send(assignRequest(id, body));
          const shown = jsonObject(x);
          const seen = shown && statusOf(x) === 200 ? stateOf(shown) : undefined;
          const after = await stored(ctx, id);
          rec.expect(seen?.assigneeId === assigneeId && seen.team === team && after.state.assigneeId === assigneeId && after.state.team === team,
            `${what}: assignee ${assigneeId ?? 'null'}, team ${team ?? 'null'}`,
            () => (seen ? `assignee ${seen.assigneeId ?? 'null'}, team ${seen.team ?? 'null'}` : describe(x)), [x]);
        }
      }),
    },
    {
      id: 'status.assign.body-required',
      clause: '4.7.assign.body-required',
      title: 'assign with neither assignee nor team is rejected and changes nothing',
      needs: WRITES,
      run: (ctx) => runCase(ctx, async (rec) => {
        const { id, before } = await freshConversation(ctx, { team: 'tier-1' });
        const x = await rec.send(assignRequest(id, {}));
        const s = statusOf(x) ?? 0;
        rec.expect(s >= 400 && s < 500, `a 4xx rejection (assumed ${ctx.target.assumptions.statuses.validation})`, () => describe(x));
        const after = await stored(ctx, id);
        rec.expect(after.mutations === before.mutations, 'no effect', () => `${after.mutations - before.mutations} effects`);
      }),
    },
  ],
});

export default statusSuite;
