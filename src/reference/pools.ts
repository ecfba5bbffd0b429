/**
 * Pools of disposable data for the ids-only path (docs/reference-server.md, fixture contract): customers a
 * check may delete, conversations it may assign and resolve, pending turns it may cancel, collections it
 * may update. They are created at startup from the seed, so a target file that lists them lets the whole
 * suite run with the fixtures API switched off, and the same seed gives the same pools.
 */
import type { FixtureIds, KeyRole } from '../target/schema.js';
import type { Connection } from './connections.js';
import type { Prng } from './prng.js';
import type { Store } from './store.js';

export type Pools = NonNullable<FixtureIds['pools']>;

/** The pools and the single ids that only fresh data can give (a member's turn, a crowded conversation, an identity). */
export type SeededFixtures = Pick<FixtureIds, 'memberTurn' | 'crowdedConversationId' | 'crowdedNewestChatId' | 'identity'> & {
  pools: Pools;
};

/** Pool sizes: generous, so a full run with retries and shrinking does not run dry. */
export const POOL_SIZES = {
  customers: 40,
  conversations: 60,
  pendingTurns: 20,
  collections: 30,
  customerConversations: 4,
  identityCustomers: 4,
} as const;

/** More chats than the 4.3 listing may return, so its cap can be seen. */
const CROWDED_CHATS = 101;

/** Pool timestamps start here (after the default customers), so listings are the same for the same seed. */
const POOL_EPOCH = Date.UTC(2024, 1, 1);
const STATUS_MIX = ['open', 'pending', 'waiting_on_customer', 'resolved', 'closed', 'spam'];

export type PoolSizes = { readonly [K in keyof typeof POOL_SIZES]: number };

/** Creates the pools (and the single ids only fresh data can give) in the store and returns their ids. */
export function seedPools(store: Store, rng: Prng, conns: Map<KeyRole, Connection>, sizes: PoolSizes = POOL_SIZES): SeededFixtures {
  // a token from the seed makes pool names unique to this server, so a search for one finds only it
  const tag = rng.token(6).toLowerCase();
  // conversations belong to the first default customers (taken before the pool's own are added): new
  // customers would change the customer list; a sparse workspace's phone-only customer owns none
  const owners = store.customerOrder.slice(0, 10).filter((c) => c.name !== null);
  const customers: string[] = [];
  for (let i = 0; i < sizes.customers; i++) {
    const n = String(i + 1).padStart(3, '0');
    customers.push(
      store.addCustomer({
        name: `Pool Customer ${tag} ${n}`,
        email: `pool.${tag}.${n}@example.com`,
        company: 'Disposable Ltd',
        externalId: `pool_${tag}_${n}`,
        createdAt: POOL_EPOCH + i * 3_600_000,
      }).id,
    );
  }
  const conversations: string[] = [];
  for (let i = 0; i < sizes.conversations; i++) {
    conversations.push(
      store.addConversation({
        customerId: owners[i % owners.length]!.id,
        status: STATUS_MIX[i % STATUS_MIX.length],
        priority: i % 2 ? 'normal' : 'low',
        subject: `Pool conversation ${i + 1}`,
        team: i % 3 === 0 ? 'support' : null,
        assignee: i % 4 === 0 ? { id: 'agent_pool', name: 'Pool Agent' } : null,
      }).id,
    );
  }
  // pending turns live in sessions of their own conversation, one session each, owned by the admin key
  const home = store.addConversation({ customerId: owners[0]!.id, subject: 'Pool chats' });
  const admin = conns.get('admin')!;
  const pendingTurns: Pools['pendingTurns'] & object = [];
  for (let i = 0; i < sizes.pendingTurns; i++) {
    const session = store.addSession({ conversationId: home.id, ownerId: admin.id });
    pendingTurns.push({ sessionId: session.id, turnId: store.addTurn(session, 'pending').id });
  }
  // the spec shows no read of a collection, so a pool item carries the revision an update must expect
  const collections: Array<{ id: string; revision: number }> = [];
  for (let i = 0; i < sizes.collections; i++) {
    const n = String(i + 1).padStart(2, '0');
    const c = store.addCollection({ name: `Pool collection ${n}`, slug: `pool-${tag}-${n}`, description: 'Disposable' });
    collections.push({ id: c.id, revision: c.revision });
  }
  // a customer with a conversation of its own: a check deletes the customer and reads the conversation
  const customerConversations: Array<{ customerId: string; conversationId: string }> = [];
  for (let i = 0; i < sizes.customerConversations; i++) {
    const n = String(i + 1).padStart(2, '0');
    const c = store.addCustomer({
      name: `History Customer ${tag} ${n}`,
      email: `history.${tag}.${n}@example.com`,
      externalId: `history_${tag}_${n}`,
      createdAt: POOL_EPOCH + (sizes.customers + i) * 3_600_000,
    });
    customerConversations.push({
      customerId: c.id,
      conversationId: store.addConversation({ customerId: c.id, subject: `History conversation ${n}` }).id,
    });
  }
  const memberHome = store.addConversation({ customerId: owners[0]!.id, subject: 'Member chats' });
  const memberSession = store.addSession({ conversationId: memberHome.id, ownerId: conns.get('member')!.id });
  const memberTurn = { conversationId: memberHome.id, sessionId: memberSession.id, turnId: store.addTurn(memberSession, 'pending').id };
  const crowded = store.addConversation({ customerId: owners[0]!.id, subject: 'Crowded chats' });
  // created in activity order, so the last one is the newest: a listing cut before its sort leaves it out
  let newest = '';
  for (let i = 0; i < CROWDED_CHATS; i++) newest = store.addSession({ conversationId: crowded.id, ownerId: admin.id }).id;
  const identifier = `identity.${tag}@example.com`;
  const owner = store.addCustomer({
    name: `Identity Owner ${tag}`,
    email: identifier,
    externalId: `identity_${tag}`,
    createdAt: POOL_EPOCH + (sizes.customers + sizes.customerConversations) * 3_600_000,
  });
  // last, so every id drawn before stays what it was: customers a check deletes, each with an email identity
  const identityCustomers: Array<{ customerId: string; identifier: string }> = [];
  for (let i = 0; i < sizes.identityCustomers; i++) {
    const n = String(i + 1).padStart(2, '0');
    const email = `identity.pool.${tag}.${n}@example.com`;
    const c = store.addCustomer({
      name: `Identity Pool ${tag} ${n}`,
      email,
      externalId: `identity_pool_${tag}_${n}`,
      createdAt: POOL_EPOCH + (sizes.customers + sizes.customerConversations + 1 + i) * 3_600_000,
    });
    identityCustomers.push({ customerId: c.id, identifier: email });
  }
  return {
    pools: { customers, conversations, pendingTurns, collections, customerConversations, identityCustomers },
    memberTurn,
    crowdedConversationId: crowded.id,
    crowdedNewestChatId: newest,
    identity: { identifier, customerId: owner.id },
  };
}
