/**
 * The data the stateful checks act on, and how they observe it through operations the spec shows only:
 * a conversation's state is what assign and resolve return (there is no shown read of a conversation),
 * a collection's revision is what its update returns. Data comes from ctx.data (fixtures API, target-file
 * pools or fixtures.command), so the same check runs against any deployment.
 */
import type { Exchange } from '../../src/client/exchange.js';
import type { SuiteContext } from '../../src/conformance/suite.js';
import type { CheckData } from '../../src/conformance/fixtures/provider.js';
import { FixtureUnavailable } from '../../src/conformance/fixtures/provider.js';
import { inconclusive } from '../../src/conformance/inconclusive.js';
import type { KeyRole, Target } from '../../src/target/schema.js';
import { type Recorder, describeAnswer, jsonObject, statusOf } from '../../src/conformance/recorder.js';
import { type ConversationState, stateOf } from './conversation.js';
import { type AssignBody, assignRequest, assignValues, resolveRequest } from './requests.js';

/**
 * A read the check judges by did not succeed (a non-2xx answer, a transport error, a body without what it
 * must show, a bounded walk cut short): it shows neither the finding nor its absence. The check is
 * inconclusive with `reason` (and `remedy`, what would let it judge), unless it has already failed on
 * something else: then that failure is its verdict, this returns, and the caller judges no further.
 */
export function cannotJudge(rec: Recorder, reason: string, remedy?: string): void {
  if (rec.failures.length === 0) inconclusive(reason, remedy);
}

/** The run's fixture data for this check (the runner always sets it; a bare context has none). */
export function dataOf(ctx: SuiteContext): CheckData {
  if (!ctx.data) throw new FixtureUnavailable('no fixture provider in this context');
  return ctx.data;
}

/** A conversation this check may assign and resolve freely (a pool item: any status). */
export function writableConversation(ctx: SuiteContext): Promise<string> {
  return dataOf(ctx).get('conversation');
}

/** The conversation's state as a 200 answer of assign or resolve shows it, or undefined. */
export function shownState(x: Exchange): ConversationState | undefined {
  const body = jsonObject(x);
  return statusOf(x) === 200 && body && typeof body.status === 'string' ? stateOf(body) : undefined;
}

/**
 * Reads the conversation's state with an assign that changes nothing: it sets the team to the value it
 * already holds (`team`, or clears it when null/unknown). Assign leaves the status alone (spec 3), so the
 * answer shows status, assignee and team as they stand. Stops the case when the answer shows no state.
 */
export async function observe(
  rec: Recorder,
  id: string,
  team: string | null,
  role: KeyRole = 'admin',
): Promise<{ state: ConversationState; x: Exchange }> {
  const x = await rec.send(assignRequest(id, { team: team ?? '' }, undefined, role));
  const state = shownState(x);
  rec.require(
    state !== undefined,
    'an assign that keeps the team to answer 200 with the conversation (used to read its state)',
    () => describeAnswer(x),
    [x],
  );
  return { state: state!, x };
}

/** Resolves to `status` without a key and requires success (to put a pool conversation in a known state). */
export async function resolveTo(ctx: SuiteContext, rec: Recorder, id: string, status: string): Promise<ConversationState> {
  const x = await rec.send(resolveRequest(ctx.target, id, { status }));
  const state = shownState(x);
  rec.require(
    state?.status === status,
    `resolve with "${status}" to answer 200 with status ${status} (to set up the case)`,
    () => describeAnswer(x),
    [x],
  );
  return state!;
}

/** A Help Center collection the helpDelegated key may update, with its current revision. */
export function writableCollection(ctx: SuiteContext): Promise<{ id: string; revision: number }> {
  return dataOf(ctx).get('collection');
}

/**
 * Discards the case when `x` refused (4xx other than 409) an assign that sets an assignee id or team the
 * target file did not supply (assignValues: made-up ones): the spec does not require a server to accept an
 * assignee it does not know. A refusal of a supplied value, or of a clearing "", is left to the check.
 */
export function discardIfMadeUpRefused(rec: Recorder, target: Target, body: AssignBody, x: Exchange): void {
  const s = statusOf(x) ?? 0;
  if (s < 400 || s >= 500 || s === 409) return;
  const v = assignValues(target);
  const madeUpId = !v.supplied.assigneeIds && !!body.assignee?.id;
  const madeUpTeam = !v.supplied.teams && !!body.team;
  if (madeUpId || madeUpTeam) {
    rec.discard(
      `assign ${JSON.stringify(body)} (made-up ${madeUpId ? 'assignee id' : 'team'}; fixtures.ids.${madeUpId ? 'assigneeIds' : 'teams'} names none) was refused: ${describeAnswer(x)}`,
    );
  }
}
