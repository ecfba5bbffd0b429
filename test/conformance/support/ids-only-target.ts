/**
 * A fixture-ids-only target for a running reference server, as a user without a fixtures API would write
 * it: every key role, allowWrites, the single ids and pools of disposable data. Until the server writes
 * pools itself, they are created here through its /_fixtures API; the target then has no fixtures.api.
 */
import { createClient } from '../../../src/client/client.js';
import { createFixturesClient } from '../../../src/conformance/fixtures-client.js';
import type { RunningReferenceServer } from '../../../src/reference/index.js';
import type { FixtureIds, TargetFileInput } from '../../../src/target/schema.js';
import { targetFromInput } from '../../../src/target/resolve.js';
import type { Target } from '../../../src/target/schema.js';

/** Pool sizes: enough for one run of every suite. */
export const POOL_SIZES = {
  customers: 12,
  conversations: 24,
  pendingTurns: 6,
  collections: 20,
  customerConversations: 2,
  identityCustomers: 2,
};

/** Creates the pools and extra ids on `server` and returns a target without fixtures.api. */
export async function idsOnlyTarget(server: RunningReferenceServer): Promise<Target> {
  const client = createClient({ baseUrl: server.baseUrl, secrets: {} });
  try {
    const api = createFixturesClient(client, server.fixturesUrl);
    const base = server.target.fixtures?.ids ?? {};
    const n = (k: keyof typeof POOL_SIZES) => Array.from({ length: POOL_SIZES[k] }, (_, i) => i);
    const tag = (i: number) => `spgpool${Date.now().toString(36)}${i}`;
    const customers = await api.createCustomers(
      n('customers').map((i) => ({ name: `Pool ${tag(i)}`, email: `${tag(i)}@pool.test`, company: 'pool', externalId: `ext-${tag(i)}` })),
    );
    const conversations: string[] = [];
    for (const _ of n('conversations'))
      conversations.push((await api.createConversation({ status: 'open', assignee: null, team: null })).id);
    const pendingTurns: Array<{ sessionId: string; turnId: string }> = [];
    for (const _ of n('pendingTurns')) {
      const { id: conversationId } = await api.createConversation({});
      const s = await api.createSession({ conversationId, owner: 'admin' });
      pendingTurns.push({ sessionId: s.id, turnId: (await api.createTurn({ sessionId: s.id, owner: 'admin', state: 'pending' })).id });
    }
    const collections: Array<{ id: string; revision: number }> = [];
    for (const i of n('collections')) {
      const c = await api.createCollection({ name: `Pool ${i}`, slug: `pool-${tag(i)}` });
      collections.push({ id: c.id, revision: c.revision });
    }
    const customerConversations: Array<{ customerId: string; conversationId: string }> = [];
    for (const i of n('customerConversations')) {
      const [c] = await api.createCustomers([{ name: `History ${tag(i)}`, email: `${tag(i)}@history.test` }]);
      customerConversations.push({ customerId: c!.id, conversationId: (await api.createConversation({ customerId: c!.id })).id });
    }
    const identityCustomers: Array<{ customerId: string; identifier: string }> = [];
    for (const i of n('identityCustomers')) {
      const identifier = `${tag(i)}@identity-pool.test`;
      const [c] = await api.createCustomers([
        { name: `Identity pool ${tag(i)}`, email: identifier, externalId: `idp-${tag(i)}`, identities: [{ type: 'email', identifier }] },
      ]);
      identityCustomers.push({ customerId: c!.id, identifier });
    }
    const { id: memberConv } = await api.createConversation({});
    const ms = await api.createSession({ conversationId: memberConv, owner: 'member' });
    const memberTurn = {
      conversationId: memberConv,
      sessionId: ms.id,
      turnId: (await api.createTurn({ sessionId: ms.id, owner: 'member', state: 'pending' })).id,
    };
    const { id: crowded } = await api.createConversation({});
    // created in activity order: the last one is the most recently active
    let crowdedNewestChatId = '';
    for (let i = 0; i < 101; i++) crowdedNewestChatId = (await api.createSession({ conversationId: crowded, owner: 'admin' })).id;
    const identifier = `${tag(0)}@identity.test`;
    const [owner] = await api.createCustomers([{ name: 'Identity owner', identities: [{ type: 'email', identifier }] }]);
    const ids: FixtureIds = {
      ...(base as FixtureIds),
      memberTurn,
      crowdedConversationId: crowded,
      crowdedNewestChatId,
      identity: { identifier, customerId: owner!.id },
      pools: { customers: customers.map((c) => c.id), conversations, pendingTurns, collections, customerConversations, identityCustomers },
    };
    const input: TargetFileInput = { ...server.target, fixtures: { ids } };
    return targetFromInput(input, 'ids-only');
  } finally {
    await client.close();
  }
}
