/**
 * Conversation status keys and their transitions (spec 3, 4.7, 4.8, 4.10, 7). Status types come from the
 * target's assumptions and, where GET /statuses lists a `type`, from the workspace itself.
 *
 * No shown operation takes a priority key, so conversations.unknown_priority cannot be provoked and has no
 * check; GET /priorities is checked for its keys only.
 */
import { defineSuite, type CheckDef, type SuiteContext } from '../src/conformance/suite.js';
import { STATUS_KEY_PATTERN } from '../src/spec/resources.js';
import type { ClauseId } from '../src/spec/clauses.js';
import { brief, describe, errorCodeOf, jsonObject, runCase, statusOf, type CaseRecorder } from './model/case.js';
import { stateOf } from './model/conversation.js';
import { runConversationModel, UNKNOWN_STATUS_KEY } from './model/conversation-commands.js';
import { assignRequest, resolveRequest } from './model/requests.js';
import { keysOfType, listedKeys, type ListedKey } from './model/status-list.js';
import { freshConversation, stored } from './model/world.js';

const WRITES = { fixtures: true, writes: true } as const;
const SEEDED_STATUSES = ['open', 'pending', 'resolved', 'closed'];
const SEEDED_PRIORITIES = ['low', 'normal', 'high', 'urgent'];

function listCheck(kind: 'statuses' | 'priorities', clause: ClauseId, seeded: string[]): CheckDef {
  return {
    id: `status.${kind}-list`,
    clause,
    title: `GET /${kind} lists keys matching the key pattern, including the seeded ${seeded.join(', ')}`,
    run: (ctx) => runCase(ctx, async (rec) => {
      const x = await rec.send({ method: 'GET', path: `/${kind}`, role: 'admin' });
      rec.require(statusOf(x) === 200, `GET /${kind} to answer 200`, () => describe(x));
      const keys = listedKeys(x.response?.json);
      rec.require(keys !== undefined && keys.length > 0, 'a non-empty list of keys (data array of strings or of objects with key)',
        () => `body ${brief(x.response?.json ?? x.response?.body)}`);
      const bad = keys!.filter((k) => !STATUS_KEY_PATTERN.test(k.key)).map((k) => k.key);
      rec.expect(bad.length === 0, `every key to match ${STATUS_KEY_PATTERN.source}`, () => `keys ${brief(bad)}`);
      const missing = seeded.filter((s) => !keys!.some((k) => k.key === s));
      rec.expect(missing.length === 0, `the seeded keys ${seeded.join(', ')}`, () => `missing ${missing.join(', ')}`);
    }),
  };
}

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
    listCheck('statuses', '4.10.statuses', SEEDED_STATUSES),
    listCheck('priorities', '4.10.priorities', SEEDED_PRIORITIES),
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
      id: 'status.resolve.unknown',
      clause: '7.unknown-status',
      title: 'resolve with an undefined status key is rejected with conversations.unknown_status',
      needs: WRITES,
      run: (ctx) => runCase(ctx, (rec) => rejectedResolve(ctx, rec, UNKNOWN_STATUS_KEY, 'conversations.unknown_status')),
    },
    {
      id: 'status.error-statuses',
      clause: '7.error.status-codes',
      title: 'conversations.invalid_resolution_status and conversations.unknown_status use the assumed HTTP statuses',
      needs: WRITES,
      run: (ctx) => runCase(ctx, async (rec) => {
        const s = ctx.target.assumptions.statuses;
        const active = (await statusKeys(ctx, rec, 'active'))[0];
        const cases: Array<[string | undefined, number, string]> = [
          [active, s.invalidResolutionStatus, 'conversations.invalid_resolution_status'],
          [UNKNOWN_STATUS_KEY, s.unknownStatus, 'conversations.unknown_status'],
        ];
        for (const [key, want, code] of cases) {
          if (key === undefined) continue;
          const { x } = await resolveFresh(ctx, rec, ctx.target.assumptions.defaultCompletedStatus, { status: key });
          rec.expect(statusOf(x) === want, `${code} answered with HTTP ${want}`, () => describe(x), [x]);
        }
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
