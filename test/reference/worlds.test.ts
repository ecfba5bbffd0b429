/**
 * The reference server's worlds (staging conditions, not faults): each changes what it names and nothing the
 * target file hands out, and stops with the server. Observed through /v1 as a client would, no fixtures API.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createApp } from '../../src/reference/app.js';
import { dialectOf } from '../../src/reference/dialect.js';
import { parseWorlds } from '../../src/reference/index.js';
import { startHarness, type Harness } from './helpers.js';

const SEED = 42;
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

interface Customer {
  id: string;
  name: string | null;
  email: string | null;
  company: string | null;
  phone: string | null;
}

/** Every listed customer, page by page (bounded). */
async function walk(h: Harness, limit = 100, maxPages = 200): Promise<{ items: Customer[]; pages: number }> {
  const items: Customer[] = [];
  let cursor: string | null = null;
  let pages = 0;
  do {
    const res = await h.api(`/customers?limit=${limit}${cursor ? `&cursor=${encodeURIComponent(cursor)}` : ''}`);
    expect(res.status).toBe(200);
    items.push(...(res.json.data as Customer[]));
    cursor = res.json.nextCursor;
    pages++;
  } while (cursor && pages < maxPages);
  return { items, pages };
}

describe('parseWorlds', () => {
  it('reads names, comma lists, repeated specs and options, with the documented defaults', () => {
    expect(parseWorlds([])).toEqual({});
    expect(parseWorlds(['big,busy', 'drifting', 'sparse'])).toEqual({
      big: { customers: 50_000 },
      busy: { intervalMs: 200 },
      drifting: { afterMs: 20_000 },
      sparse: {},
    });
    expect(parseWorlds(['big=12000', 'busy=50ms', 'drifting=2s'])).toEqual({
      big: { customers: 12_000 },
      busy: { intervalMs: 50 },
      drifting: { afterMs: 2000 },
    });
    expect(parseWorlds(['drifting=0'])).toEqual({ drifting: { afterMs: 0 } });
    expect(parseWorlds(['drifting=1.5'])).toEqual({ drifting: { afterMs: 1500 } });
  });

  it('refuses an unknown name or a bad option with one line that says what is valid', () => {
    expect(() => parseWorlds(['huge'])).toThrow(/^unknown world "huge"; valid worlds: big, busy, drifting, sparse$/);
    for (const bad of ['big=many', 'big=-1', 'big=2000000', 'busy=fast', 'drifting=2h', 'sparse=1']) {
      expect(() => parseWorlds([bad]), bad).toThrow(RangeError);
      try {
        parseWorlds([bad]);
      } catch (err) {
        expect((err as Error).message).not.toContain('\n');
      }
    }
  });
});

describe('big', () => {
  let quiet: Harness;
  let big: Harness;
  beforeAll(async () => {
    quiet = await startHarness({ seed: SEED, fixturesApi: false });
    big = await startHarness({ seed: SEED, fixturesApi: false, worlds: ['big=3000'] });
  });
  afterAll(async () => {
    await quiet.close();
    await big.close();
  });

  it('adds the customers, about 4 % of them known by phone alone, and keeps every id the target file names', async () => {
    const q = await walk(quiet);
    const b = await walk(big);
    expect(b.items.length).toBe(q.items.length + 3000);
    expect(new Set(b.items.map((c) => c.id)).size).toBe(b.items.length);
    const phoneOnly = b.items.filter((c) => c.name === null);
    expect(phoneOnly.length).toBeGreaterThan(3000 * 0.02);
    expect(phoneOnly.length).toBeLessThan(3000 * 0.06);
    for (const c of phoneOnly) expect([c.email, c.company, typeof c.phone]).toEqual([null, null, 'string']);
    expect(big.server.target.fixtures?.ids).toEqual(quiet.server.target.fixtures?.ids);
    expect(big.server.target.keys).toEqual(quiet.server.target.keys);
  });

  it('spreads them before and after the seeded customers (a production copy, not an appendix)', async () => {
    const { items } = await walk(big);
    const pools = new Set(big.ids.pools.customers as string[]);
    const at = items.findIndex((c) => pools.has(c.id));
    expect(at).toBeGreaterThan(100);
    expect(items.length - at).toBeGreaterThan(100);
  });

  it("filters find the check's own data without a walk", async () => {
    const id = big.ids.pools.identityCustomers[0];
    const res = await big.api(`/customers?identityType=email&identityIdentifier=${encodeURIComponent(id.identifier)}`);
    expect(res.json.data.map((c: Customer) => c.id)).toEqual([id.customerId]);
  });
});

describe('sparse', () => {
  let h: Harness;
  beforeAll(async () => {
    h = await startHarness({ seed: SEED, fixturesApi: false, worlds: ['sparse'] });
  });
  afterAll(() => h.close());

  it('lists every customer and article on one default page; one of the two default customers is phone-only', async () => {
    const customers = await h.api('/customers');
    expect(customers.json.hasMore).toBe(false);
    expect(customers.json.data.length).toBeLessThanOrEqual(25);
    const pooled = new Set<string>([
      ...h.ids.pools.customers,
      ...h.ids.pools.customerConversations.map((x: { customerId: string }) => x.customerId),
      ...h.ids.pools.identityCustomers.map((x: { customerId: string }) => x.customerId),
      h.ids.identity.customerId,
    ]);
    const own = (customers.json.data as Customer[]).filter((c) => !pooled.has(c.id));
    expect(own).toHaveLength(2);
    expect(own.filter((c) => c.name === null && c.email === null && c.company === null)).toHaveLength(1);
    const articles = await h.api('/authoring/articles');
    expect(articles.json.nextCursor ?? null).toBeNull();
  });

  it('still has every pool, so checks can run', () => {
    const p = h.ids.pools;
    for (const k of ['customers', 'conversations', 'pendingTurns', 'collections', 'customerConversations', 'identityCustomers'])
      expect(p[k].length, k).toBeGreaterThan(0);
    expect(h.ids.pendingTurn).toBeDefined();
  });
});

describe('drifting', () => {
  /** What moved since the seed: pool turns no longer pending, collections past their listed revision, conversations resolved. */
  async function moved(h: Harness): Promise<{ turns: string[]; collections: string[]; conversations: string[] }> {
    const p = h.ids.pools;
    const turns: string[] = [];
    for (const t of p.pendingTurns)
      if ((await h.api(`/ai/assistant/sessions/${t.sessionId}/turns/${t.turnId}`)).json.data.status !== 'pending') turns.push(t.turnId);
    const collections: string[] = [];
    for (const c of p.collections) if ((await h.api(`/authoring/collections/${c.id}`)).json.revision !== c.revision) collections.push(c.id);
    const conversations: string[] = [];
    for (const id of p.conversations) if ((await h.api(`/conversations/${id}`)).json.status === 'resolved') conversations.push(id);
    return { turns, collections, conversations };
  }

  it('drifting=0: a third of the pending turns completed, a quarter of the collections edited, a fifth of the conversations resolved; the same items for the same seed', async () => {
    const a = await startHarness({ seed: SEED, fixturesApi: false, worlds: ['drifting=0'] });
    const b = await startHarness({ seed: SEED, fixturesApi: false, worlds: ['drifting=0'] });
    const quiet = await startHarness({ seed: SEED, fixturesApi: false });
    try {
      const ma = await moved(a);
      expect(ma.turns).toHaveLength(Math.ceil(a.ids.pools.pendingTurns.length / 3));
      expect(ma.collections).toHaveLength(Math.ceil(a.ids.pools.collections.length / 4));
      // a fifth resolved by the drift, plus the pool's own conversations seeded resolved
      const q = await moved(quiet);
      expect(q.turns).toEqual([]);
      expect(q.collections).toEqual([]);
      const drifted = ma.conversations.filter((id) => !q.conversations.includes(id));
      expect(drifted.length).toBeGreaterThan(0);
      expect(drifted.length).toBeLessThanOrEqual(Math.ceil(a.ids.pools.conversations.length / 5));
      expect(await moved(b)).toEqual(ma);
    } finally {
      await Promise.all([a.close(), b.close(), quiet.close()]);
    }
  });

  it('with a delay nothing has moved yet, and closing the server cancels the move', async () => {
    const h = await startHarness({ seed: SEED, fixturesApi: false, worlds: ['drifting=600s'] });
    try {
      const m = await moved(h);
      expect(m.turns).toEqual([]);
      expect(m.collections).toEqual([]);
    } finally {
      await h.close();
    }
  });
});

describe('busy', () => {
  it('another client adds and soft-deletes customers and changes conversations, never what the target file hands out', async () => {
    const h = await startHarness({ seed: SEED, fixturesApi: false, worlds: ['busy=5ms'] });
    try {
      const before = await walk(h);
      const ids = h.ids;
      const convs = [ids.conversationId, ...ids.pools.conversations];
      const statusBefore = await Promise.all(convs.map(async (id: string) => JSON.stringify((await h.api(`/conversations/${id}`)).json)));
      // wait (bounded) until the other client has visibly written
      let after = before;
      for (let i = 0; i < 100 && sameIds(after.items, before.items); i++) {
        await sleep(20);
        after = await walk(h);
      }
      const added = after.items.filter((c) => !before.items.some((b) => b.id === c.id));
      const gone = before.items.filter((c) => !after.items.some((a) => a.id === c.id));
      expect(added.length).toBeGreaterThan(0);
      expect(gone.length).toBeGreaterThan(0);
      const handedOut = new Set<string>([
        ids.customerId,
        ...ids.pools.customers,
        ...ids.pools.customerConversations.map((x: { customerId: string }) => x.customerId),
        ...ids.pools.identityCustomers.map((x: { customerId: string }) => x.customerId),
        ids.identity.customerId,
      ]);
      expect(gone.filter((c) => handedOut.has(c.id))).toEqual([]);
      const statusAfter = await Promise.all(convs.map(async (id: string) => JSON.stringify((await h.api(`/conversations/${id}`)).json)));
      expect(statusAfter).toEqual(statusBefore);
    } finally {
      await h.close();
    }
  });

  it('its timers keep no process alive and stop with the server', async () => {
    const timers = () => process.getActiveResourcesInfo().filter((r) => r === 'Timeout').length;
    const before = timers();
    const app = createApp({
      seed: SEED,
      budgets: { read: 10, write: 10, windowSeconds: 1 },
      faults: [],
      dialect: dialectOf('default'),
      worlds: parseWorlds(['busy=5ms']),
    });
    // an unref'd timer is not an active resource: the world alone would let node exit
    expect(timers()).toBe(before);
    const start = app.store.version;
    for (let i = 0; i < 100 && app.store.version === start; i++) await sleep(10);
    expect(app.store.version).toBeGreaterThan(start);
    app.stopWorlds();
    const stopped = app.store.version;
    await sleep(50);
    expect(app.store.version).toBe(stopped);
  });
});

function sameIds(a: Customer[], b: Customer[]): boolean {
  return a.length === b.length && a.every((c, i) => c.id === b[i]!.id);
}
