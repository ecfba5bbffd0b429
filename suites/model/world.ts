/**
 * Fixture-side views the stateful checks compare the API against: the stored conversation (the server's
 * own record, including its effect counter) and fresh data to act on, so checks never share state.
 */
import type { FixtureConversation } from '../../src/conformance/fixtures.js';
import type { SuiteContext } from '../../src/conformance/suite.js';
import { fixturesOf } from './case.js';
import { type ConversationState, stateOf } from './conversation.js';

export interface StoredConversation {
  state: ConversationState;
  /** Effects the server counted on it so far. */
  mutations: number;
  raw: FixtureConversation;
}

/** Reads the stored conversation through the fixtures API; a missing one is a fixture failure. */
export async function stored(ctx: SuiteContext, id: string): Promise<StoredConversation> {
  const c = await fixturesOf(ctx).getConversation(id);
  if (!c) throw new Error(`fixtures: conversation ${id} not found`);
  return { state: stateOf(c.data), mutations: c.mutations, raw: c };
}

/** Creates a conversation to act on and returns its id and stored view. */
export async function freshConversation(
  ctx: SuiteContext,
  init: { status?: string; team?: string | null; assignee?: Record<string, unknown> | null; customerId?: string } = {},
): Promise<{ id: string; before: StoredConversation }> {
  const { id } = await fixturesOf(ctx).createConversation({ status: 'open', assignee: null, team: null, ...init });
  return { id, before: await stored(ctx, id) };
}

/** Creates a Help Center collection to update and returns its id and current revision. */
export async function freshCollection(ctx: SuiteContext): Promise<{ id: string; revision: number }> {
  const tag = Math.random().toString(36).slice(2, 10);
  return fixturesOf(ctx).createCollection({ name: `spgate ${tag}`, slug: `spgate-${tag}`, description: 'created by spgate' });
}
