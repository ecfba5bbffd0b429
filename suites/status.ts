/**
 * Conversation status keys and their transitions (spec 3, 4.7, 4.8, 4.10, 7). Status types come from the
 * target's assumptions and, where GET /statuses lists a `type`, from the workspace itself.
 *
 * No shown operation takes a priority key, so conversations.unknown_priority cannot be provoked and has no
 * check. The key lists (4.10) and conversations.unknown_status (7) are checked by the shapes and errors
 * suites; the model here still predicts unknown_status so its sequences stay meaningful.
 */
import { defineSuite, type CheckOutcome, type SuiteContext } from '../src/conformance/suite.js';
import { FixtureUnavailable } from '../src/conformance/fixtures/provider.js';
import { describeAnswer, errorCodeOf, jsonObject, runCase, statusOf, type Recorder } from '../src/conformance/recorder.js';
import type { ConversationState } from './model/conversation.js';
import { runConversationModel } from './model/conversation-commands.js';
import { type AssignBody, assignRequest, assignValues, resolveRequest, statusesRequest } from './model/requests.js';
import { keysOfType, listedKeys, type ListedKey } from './model/status-list.js';
import { cannotJudge, dataOf, discardIfMadeUpRefused, observe, resolveTo, shownState, writableConversation } from './model/world.js';
import {
  completedWalk,
  expectedStatus,
  formOf,
  ResolveCoverage,
  typeOfStatus,
  type ResolveForm,
  type StartType,
} from './model/resolve-coverage.js';
import type { ResolveBody } from './model/requests.js';

const WRITES = { writes: true, data: { conversation: 1 } } as const;
/** Pool conversations status.resolve.any-state takes at most: pools are finite, so it stops early. */
const ANY_STATE_MAX_TAKEN = 4;
/** It stops taking once this many active-type starts were met (one per resolve form). */
const ANY_STATE_ACTIVE_WANTED = 2;
/**
 * Status keys of each type: assumed ones plus those GET /statuses lists with a type. A 200 listing whose
 * shape the lenient reading does not recognise adds none (its shape is not shown). A /statuses that did not
 * answer 200 shows none of the workspace's own keys: a check that judges `every` key of the type cannot
 * judge then (skipped naming the answer, unless it already failed); the others go on with the assumed keys.
 */
async function statusKeys(ctx: SuiteContext, rec: Recorder, type: 'active' | 'completed', every = true): Promise<string[]> {
  const x = await rec.send(statusesRequest());
  if (every && statusOf(x) !== 200)
    cannotJudge(rec, `the workspace's ${type}-type status keys are unknown: GET /statuses answered ${describeAnswer(x)}`);
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

/** Pool conversations status.resolve.default looks through for one not already in the default status. */
const DEFAULT_MAX_TAKEN = 3;

/**
 * A pool conversation that is not in the default completed status `want`, so that a resolve without status
 * must visibly move it: put in another completed status when the workspace has one, else one of the pool's
 * that starts elsewhere. With one completed status and every conversation taken already in it, a resolve
 * that did nothing would look the same as one that worked: the check cannot judge.
 */
async function awayFromDefault(ctx: SuiteContext, rec: Recorder, want: string, completed: string[]): Promise<string> {
  let id = await writableConversation(ctx);
  if ((await awayFrom(ctx, rec, id, want, completed)) !== undefined) return id;
  for (let taken = 1; ; taken++) {
    if ((await observe(rec, id, null)).state.status !== want) return id;
    const next = taken < DEFAULT_MAX_TAKEN ? await nextConversation(ctx) : undefined;
    if (next === undefined) {
      cannotJudge(
        rec,
        `the workspace has one completed-type status (${want}) and the ${taken} pool conversation(s) taken were already in it: a resolve that did nothing would look the same`,
        'a second completed-type status (GET /statuses, assumptions.completedStatuses), or fixtures.ids.pools.conversations in an active-type status',
      );
      return id; // cannotJudge returns only when the check already failed
    }
    id = next;
  }
}

/** Another pool conversation, or undefined when the pool has run out. */
async function nextConversation(ctx: SuiteContext): Promise<string | undefined> {
  try {
    return await writableConversation(ctx);
  } catch (err) {
    if (err instanceof FixtureUnavailable) return undefined;
    throw err;
  }
}

/** A rejected resolve: the code named, and the status (read back through assign) left as it was. */
async function rejectedResolve(ctx: SuiteContext, rec: Recorder, id: string, key: string, code: string): Promise<void> {
  const from = await resolveTo(ctx, rec, id, ctx.target.assumptions.defaultCompletedStatus);
  const x = await rec.send(resolveRequest(ctx.target, id, { status: key }));
  rec.expect(errorCodeOf(x) === code, `resolve with "${key}" to be rejected with ${code}`, () => describeAnswer(x), [x]);
  const after = await observe(rec, id, from.team);
  rec.expect(after.state.status === from.status, `the status to stay ${from.status}`, () => `status ${after.state.status}`, [x, after.x]);
}

/**
 * Resolve from every state (3, state "any"): pool conversations resolved from the status they start in
 * (learnt with an assign, which leaves the status alone), then every completed key as a starting state of
 * both forms. The outcome's note names the starting states covered; a run that did not meet both kinds is
 * inconclusive, naming the pool item that would let it judge.
 */
async function resolveFromAnyState(ctx: SuiteContext): Promise<CheckOutcome> {
  const coverage = new ResolveCoverage();
  let poolShort = false;
  const outcome = await runCase(ctx, async (rec) => {
    const def = ctx.target.assumptions.defaultCompletedStatus;
    const completed = await statusKeys(ctx, rec, 'completed');
    const active = await statusKeys(ctx, rec, 'active');
    const otherKey = completed.find((k) => k !== def) ?? def;
    /** One resolve from `start`, judged by the status answered; returns the status it now has. */
    const step = async (id: string, start: string, body: ResolveBody): Promise<{ ok: boolean; now: string }> => {
      const type = typeOfStatus(start, active, completed);
      const want = expectedStatus(body, def);
      const x = await rec.send(resolveRequest(ctx.target, id, body));
      const shown = shownState(x);
      const what = body.status === undefined ? 'without status' : `with "${body.status}"`;
      const ok = rec.expect(
        shown?.status === want,
        `from ${start} (${type}-type), resolve ${what} to answer 200 with status ${want}`,
        () => `${describeAnswer(x)}${shown ? `, status ${shown.status}` : ''}`,
        [x],
      );
      coverage.add(start, type, formOf(body), ok);
      return { ok, now: ok ? want : (await observe(rec, id, shown?.team ?? null)).state.status };
    };
    const taken: Array<{ id: string; now: string }> = [];
    const perType = new Map<StartType, number>();
    while (taken.length < ANY_STATE_MAX_TAKEN && (perType.get('active') ?? 0) < ANY_STATE_ACTIVE_WANTED) {
      let id: string;
      try {
        id = await dataOf(ctx).get('conversation');
      } catch (err) {
        // The first one missing skips the check (the runner names the field); later ones only shorten it.
        if (!(err instanceof FixtureUnavailable) || taken.length === 0) throw err;
        poolShort = true;
        break;
      }
      const start = (await observe(rec, id, null)).state.status;
      const type = typeOfStatus(start, active, completed);
      const n = perType.get(type) ?? 0;
      perType.set(type, n + 1);
      const form: ResolveForm = n % 2 === 0 ? 'default' : 'key';
      taken.push({ id, now: (await step(id, start, form === 'default' ? {} : { status: otherKey })).now });
    }
    // Completed-type starts can be made: walk the first conversation through every completed key.
    const first = taken[0]!;
    for (const s of completedWalk(completed, def)) {
      const r = await step(first.id, first.now, s.body);
      first.now = r.now;
      if (!r.ok) break; // the walk's later steps assumed this one's status
    }
  });
  if (outcome.status !== 'passed') return outcome;
  // Resolving only from completed statuses says nothing of the active ones the rows also start from.
  if (coverage.missing().length > 0) {
    return {
      status: 'inconclusive',
      cases: outcome.cases,
      reason: coverage.note(poolShort),
      remedy: `fixtures.ids.pools.conversations: conversations in an ${coverage.missing().join(' and in a ')}-type status (the spec shows no operation that reopens one)`,
    };
  }
  return { ...outcome, note: coverage.note(poolShort) };
}

/**
 * Whether a rendered assignee shows the one assigned (`id`), or none (null). Its inner fields are not shown
 * (part 2): an `id` is held to the id assigned, but an assignee rendered without one ({ agentId }, { name })
 * only has to be present.
 */
export function showsAssignee(rendered: unknown, id: string | null): boolean {
  if (id === null) return rendered === null;
  if (!rendered || typeof rendered !== 'object' || Array.isArray(rendered)) return false;
  const shownId = (rendered as Record<string, unknown>).id;
  return shownId === undefined || shownId === id;
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
      run: (ctx) =>
        runCase(ctx, async (rec) => {
          const want = ctx.target.assumptions.defaultCompletedStatus;
          // Any completed key other than the default will do: the assumed ones are enough.
          const completed = await statusKeys(ctx, rec, 'completed', false);
          const id = await awayFromDefault(ctx, rec, want, completed);
          const x = await rec.send(resolveRequest(ctx.target, id, {}));
          const shown = jsonObject(x);
          rec.expect(
            statusOf(x) === 200 && shown?.status === want,
            `200 with status ${want}`,
            () => `${describeAnswer(x)}${shown ? `, status ${String(shown.status)}` : ''}`,
          );
          const after = await observe(rec, id, shownState(x)?.team ?? null);
          rec.expect(after.state.status === want, `the status read back to be ${want}`, () => `status ${after.state.status}`);
        }),
    },
    {
      id: 'status.resolve.completed-keys',
      clause: '3.resolve.completed-key',
      title: 'resolve with each completed-type key moves to that key',
      needs: WRITES,
      run: (ctx) =>
        runCase(ctx, async (rec) => {
          const id = await writableConversation(ctx);
          const keys = await statusKeys(ctx, rec, 'completed');
          for (const key of keys) {
            await awayFrom(ctx, rec, id, key, keys);
            const x = await rec.send(resolveRequest(ctx.target, id, { status: key }));
            const shown = shownState(x);
            rec.expect(
              shown?.status === key,
              `resolve with "${key}" to answer 200 with status ${key}`,
              () => `${describeAnswer(x)}${shown ? `, status ${shown.status}` : ''}`,
              [x],
            );
          }
        }),
    },
    {
      id: 'status.resolve.any-state',
      clause: '3.resolve.any-state',
      title:
        "resolve works from every starting status (the pool conversations' own, active-type and completed-type): without status → the default completed status, with a completed key → that key; the starting states covered are reported",
      needs: { writes: true, data: { conversation: ANY_STATE_MAX_TAKEN } },
      run: resolveFromAnyState,
    },
    {
      id: 'status.resolve.active-keys',
      clause: '3.resolve.active-key-rejected',
      title: 'resolve with each active-type key is rejected with conversations.invalid_resolution_status and changes nothing',
      needs: WRITES,
      run: (ctx) =>
        runCase(ctx, async (rec) => {
          const id = await writableConversation(ctx);
          for (const key of await statusKeys(ctx, rec, 'active'))
            await rejectedResolve(ctx, rec, id, key, 'conversations.invalid_resolution_status');
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
      run: (ctx) =>
        runCase(ctx, async (rec) => {
          const id = await writableConversation(ctx);
          const v = assignValues(ctx.target);
          const [agent, team] = [v.assigneeIds[0]!, v.teams[0]!];
          const steps: Array<[AssignBody, string | null, string | null, string]> = [
            [{ assignee: { id: agent }, team }, agent, team, 'set both'],
            [{ assignee: { id: '' } }, null, team, 'assignee.id "" clears the assignee only'],
            [{ team: '' }, null, null, 'team "" clears the team'],
          ];
          for (const [body, assigneeId, teamWanted, what] of steps) {
            const x = await rec.send(assignRequest(id, body));
            discardIfMadeUpRefused(rec, ctx.target, body, x);
            const seen = shownState(x);
            rec.expect(
              seen !== undefined && showsAssignee(jsonObject(x)?.assignee, assigneeId) && seen.team === teamWanted,
              `${what}: assignee ${assigneeId ?? 'null'}, team ${teamWanted ?? 'null'}`,
              () => (seen ? `assignee ${seen.assigneeId ?? 'null'}, team ${seen.team ?? 'null'}` : describeAnswer(x)),
              [x],
            );
          }
        }),
    },
    {
      id: 'status.assign.body-required',
      clause: '4.7.assign.body-required',
      title: 'assign with neither assignee nor team is rejected and changes nothing',
      needs: WRITES,
      run: (ctx) =>
        runCase(ctx, async (rec) => {
          const id = await writableConversation(ctx);
          // A team set first, so that an empty assign that cleared it would show.
          const team = assignValues(ctx.target).teams[0]!;
          const set = await rec.send(assignRequest(id, { team }));
          discardIfMadeUpRefused(rec, ctx.target, { team }, set);
          const before = await observe(rec, id, team);
          const x = await rec.send(assignRequest(id, {}));
          const s = statusOf(x) ?? 0;
          rec.expect(s >= 400 && s < 500, `a 4xx rejection (assumed ${ctx.target.assumptions.statuses.validation})`, () =>
            describeAnswer(x),
          );
          const after = await observe(rec, id, team);
          rec.expect(
            showState(after.state) === showState(before.state),
            `no effect (${showState(before.state)})`,
            () => showState(after.state),
            [x, after.x],
          );
        }),
    },
  ],
});

export default statusSuite;
