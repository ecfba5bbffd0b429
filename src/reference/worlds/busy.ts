/**
 * The busy world: another client writes all the time, as on a shared staging. Every step a CRM sync adds a
 * customer (at the end of the list: it is the newest) and soft-deletes another, and an agent changes a
 * conversation (status, priority, assignee or team). It never touches what the target file hands out (any id
 * in fixtures.ids, nor a conversation holding their chats): those belong to the checks.
 */
import type { FixtureIds } from '../../target/schema.js';
import { AGENTS, TEAMS } from '../dialect.js';
import type { Prng } from '../prng.js';
import type { Store } from '../store.js';

/** Every third synced customer opens a conversation, so agents always have work beyond the seed's. */
const CONVERSATION_EVERY = 3;

/** Starts the other client; returns the function that stops it (the timer never keeps a process alive). */
export function startBusy(store: Store, fixtureIds: FixtureIds, rng: Prng, intervalMs: number, clock: () => number): () => void {
  const own = protectedIds(fixtureIds, store);
  const customers = [...store.customers.values()].filter((c) => c.deletedAt === null && !own.has(c.id)).map((c) => c.id);
  const conversations = [...store.conversations.keys()].filter((id) => !own.has(id));
  const statuses = [...store.statuses.keys()];
  const priorities = [...store.priorities.keys()];
  let step = 0;
  const tick = (): void => {
    step++;
    const token = rng.token(8).toLowerCase();
    const added = store.addCustomer({ name: `Synced ${token}`, email: `sync.${token}@example.net`, externalId: `crm_sync_${token}` });
    customers.push(added.id);
    if (step % CONVERSATION_EVERY === 0)
      conversations.push(store.addConversation({ customerId: added.id, subject: `Synced request ${token}` }).id);
    // soft-delete one customer the sync no longer has (any but the newest, which the sync just made)
    if (customers.length > 1) {
      const at = rng.int(customers.length - 1);
      const c = store.customers.get(customers[at]!);
      customers[at] = customers[customers.length - 2]!;
      customers.splice(customers.length - 2, 1);
      if (c && c.deletedAt === null) {
        c.deletedAt = clock();
        c.updatedAt = c.deletedAt;
        c.json = undefined;
      }
    }
    const conv = conversations.length ? store.conversations.get(conversations[rng.int(conversations.length)]!) : undefined;
    if (conv) {
      const what = rng.int(4);
      if (what === 0) conv.status = rng.pick(statuses);
      else if (what === 1) conv.priority = rng.pick(priorities);
      else if (what === 2) conv.assignee = rng.next() < 0.3 ? null : { id: rng.pick(AGENTS), name: 'Staging Agent' };
      else conv.team = rng.next() < 0.3 ? null : rng.pick(TEAMS);
      conv.updatedAt = clock();
    }
    store.touch();
  };
  const timer = setInterval(tick, intervalMs);
  timer.unref();
  return () => clearInterval(timer);
}

/** Every id the target file names, and the conversations that hold its chats and turns. */
function protectedIds(ids: FixtureIds, store: Store): Set<string> {
  const out = new Set<string>();
  const walk = (v: unknown): void => {
    if (typeof v === 'string') out.add(v);
    else if (Array.isArray(v)) v.forEach(walk);
    else if (v && typeof v === 'object') Object.values(v).forEach(walk);
  };
  walk(ids);
  for (const id of [...out]) {
    const holder = store.sessions.get(id)?.conversationId ?? store.turns.get(id)?.conversationId;
    if (holder) out.add(holder);
  }
  return out;
}
