/**
 * The default data set every reference server starts with, drawn from the seed so two servers with the same
 * seed hold the same ids. The ids the suites need are returned for the self-describing target file.
 */
import type { FixtureIds } from '../target/schema.js';
import type { Connection } from './connections.js';
import type { KeyRole } from '../target/schema.js';
import type { Prng } from './prng.js';
import type { Store } from './store.js';

const FIRST = ['Ada', 'Grace', 'Alan', 'Edsger', 'Barbara', 'Donald', 'Frances', 'Ken', 'Margaret', 'Linus', 'Radia', 'Tim'];
const LAST = [
  'Lovelace',
  'Hopper',
  'Turing',
  'Dijkstra',
  'Liskov',
  'Knuth',
  'Allen',
  'Thompson',
  'Hamilton',
  'Torvalds',
  'Perlman',
  'Berners-Lee',
];
const COMPANIES = ['Acme Corp', 'Globex', 'Initech', 'Umbrella Analytics', 'Hooli', 'Stark Industries', 'Wayne Enterprises'];

/** Seed-data timestamps start here, so listings are stable across runs with the same seed. */
const SEED_EPOCH = Date.UTC(2024, 0, 1);

/** How much default data there is: the normal set, or the sparse world's (worlds/sparse.ts). */
export interface SeedShape {
  customers: number;
  /** The last this many default customers are known by phone alone (no name, email or company). */
  phoneOnly: number;
  /** One seeded conversation per status, owned by the default customers in turn. */
  conversationStatuses: readonly string[];
  articles: number;
}

/** The normal default data set. */
export const DEFAULT_SEED_SHAPE: SeedShape = {
  customers: 60,
  phoneOnly: 0,
  conversationStatuses: ['open', 'pending', 'resolved', 'closed', 'waiting_on_customer', 'open'],
  articles: 40,
};

/** Fills the store with the default data set and returns the ids worth naming in a target file. */
export function seedDefaultData(
  store: Store,
  rng: Prng,
  conns: Map<KeyRole, Connection>,
  shape: SeedShape = DEFAULT_SEED_SHAPE,
): FixtureIds {
  for (let i = 0; i < shape.customers; i++) {
    if (i >= shape.customers - shape.phoneOnly) {
      const phone = `+4930${String(1000000 + i)}`;
      store.addCustomer({
        name: null,
        email: null,
        phone,
        identities: [{ type: 'phone', identifier: phone }],
        createdAt: SEED_EPOCH + i * 3_600_000,
      });
      continue;
    }
    const first = rng.pick(FIRST);
    const last = rng.pick(LAST);
    const n = String(i + 1).padStart(3, '0');
    store.addCustomer({
      name: `${first} ${last}`,
      email: `${first.toLowerCase()}.${last.toLowerCase()}.${n}@example.com`,
      company: i % 3 === 2 ? undefined : rng.pick(COMPANIES),
      externalId: `ext_${n}`,
      phone: `+4930${String(1000000 + i)}`,
      createdAt: SEED_EPOCH + i * 3_600_000,
    });
  }
  const customers = store.customerOrder;
  const conversations = shape.conversationStatuses.map((status, i) =>
    store.addConversation({
      customerId: customers[i % customers.length]!.id,
      status,
      priority: i % 2 ? 'high' : 'normal',
      subject: `Seeded conversation ${i + 1}`,
      team: i === 1 ? 'billing' : null,
      assignee: i === 2 ? { id: 'agent_1', name: 'Agent One' } : null,
    }),
  );
  const conv = conversations[0]!;
  const message = store.addMessage(conv.id, ['stored', 'external', 'fetching']);
  const deleted = store.addMessage(conv.id, ['stored']);
  deleted.deletedAt = SEED_EPOCH;

  const admin = conns.get('admin')!;
  const session = store.addSession({ conversationId: conv.id, ownerId: admin.id });
  const pending = store.addTurn(session, 'pending');
  const completed = store.addTurn(session, 'completed');
  store.addSession({ conversationId: conv.id, ownerId: admin.id, archived: true });
  store.addSession({ conversationId: conv.id, ownerId: conns.get('secondConnection')!.id });
  // an expired admin chat: hidden from the listing (4.3 "unexpired"), so a listing that shows it is a finding
  const expired = store.addSession({ conversationId: conv.id, ownerId: admin.id, expired: true });

  const collection = store.addCollection({ name: 'Getting started', slug: 'getting-started', description: 'First steps' });
  store.addArticles(shape.articles);

  return {
    conversationId: conv.id,
    customerId: customers[0]!.id,
    message: { messageId: message.id, storedIndex: 0, externalIndex: 1, fetchingIndex: 2 },
    deletedMessageId: deleted.id,
    pendingTurn: { sessionId: session.id, turnId: pending.id },
    completedTurn: { sessionId: session.id, turnId: completed.id },
    sessionsConversationId: conv.id,
    expiredChatId: expired.id,
    collectionId: collection.id,
  };
}
