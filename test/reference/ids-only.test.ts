/**
 * The ids-only path: a server with the fixtures API switched off answers 404 under /_fixtures and writes a
 * target without fixtures.api, whose fixture ids and pools name data that exists; targets per dialect parse
 * with the TargetFile schema and state the dialect's choices; the same seed gives the same ids, keys and
 * cursors in every dialect.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DIALECT_NAMES, DIALECTS, POOL_SIZES, startReferenceServer } from '../../src/reference/index.js';
import { TargetFile } from '../../src/target/schema.js';
import { raw, startHarness, type Harness } from './helpers.js';

let h: Harness;
beforeAll(async () => {
  h = await startHarness({ fixturesApi: false, dialect: 'alt-paths' });
});
afterAll(() => h.close());

describe('--no-fixtures-api', () => {
  it('serves 404 route.not_found under /_fixtures and leaves fixtures.api out of the target', async () => {
    for (const path of ['/ids', '/customers', '/ratelimit/reset']) {
      const r = await raw(h.server.fixturesUrl + path, {
        method: path === '/ids' ? 'GET' : 'POST',
        json: path === '/ids' ? undefined : {},
      });
      expect(r.status, path).toBe(404);
      expect(r.json.error.code).toBe('route.not_found');
    }
    const t = TargetFile.parse(h.server.target);
    expect(t.fixtures.api).toBeUndefined();
    expect(t.fixtures.ids.pools).toBeDefined();
  });

  it('names pools of the promised sizes, all distinct and all present through /v1', async () => {
    const pools = TargetFile.parse(h.server.target).fixtures.ids.pools!;
    expect(pools.customers).toHaveLength(POOL_SIZES.customers);
    expect(pools.conversations).toHaveLength(POOL_SIZES.conversations);
    expect(pools.pendingTurns).toHaveLength(POOL_SIZES.pendingTurns);
    expect(pools.collections).toHaveLength(POOL_SIZES.collections);
    expect(pools.customerConversations).toHaveLength(POOL_SIZES.customerConversations);
    expect(pools.identityCustomers).toHaveLength(POOL_SIZES.identityCustomers);
    const collections = pools.collections!.map((c) => (typeof c === 'string' ? { id: c, revision: NaN } : c));
    const all = [
      ...pools.customers!,
      ...pools.conversations!,
      ...pools.pendingTurns!.map((t) => t.turnId),
      ...collections.map((c) => c.id),
    ];
    expect(new Set(all).size).toBe(all.length);
    for (const id of pools.conversations!) expect((await h.api(`/conversations/${id}`)).status).toBe(200);
    for (const t of pools.pendingTurns!) {
      expect((await h.api(`/ai/assistant/sessions/${t.sessionId}/turns/${t.turnId}`)).json.data.status).toBe('pending');
    }
    for (const c of collections) expect((await h.api(`/authoring/collections/${c.id}`)).json.revision).toBe(c.revision);
    for (const p of pools.customerConversations!)
      expect((await h.api(`/conversations/${p.conversationId}`)).json.customerId).toBe(p.customerId);
  });

  it('makes every pool customer findable alone by its email (search) and by its external id', async () => {
    const pools = TargetFile.parse(h.server.target).fixtures.ids.pools!;
    const p = DIALECTS['alt-paths'].params;
    const listed = new Map<string, any>();
    let cursor: string | null = null;
    for (let i = 0; i < 5; i++) {
      const r: any = await h.api(`/customers?limit=100${cursor ? `&cursor=${encodeURIComponent(cursor)}` : ''}`);
      for (const c of r.json.data) listed.set(c.id, c);
      cursor = r.json.nextCursor;
      if (!cursor) break;
    }
    for (const id of pools.customers!.slice(0, 8)) {
      const c = listed.get(id);
      expect(c, id).toBeDefined();
      expect((await h.api(`/customers?${p.search}=${encodeURIComponent(c.email)}`)).json.data.map((x: any) => x.id)).toEqual([id]);
      expect((await h.api(`/customers?${p.externalId}=${encodeURIComponent(c.externalId)}`)).json.data.map((x: any) => x.id)).toEqual([id]);
    }
  });

  it('describe({ budgets: false }) leaves assumptions.rateLimit out; the default target states them', () => {
    const without = TargetFile.parse(h.server.describe({ budgets: false }));
    expect(without.assumptions.rateLimit).toEqual({});
    const withBudgets = TargetFile.parse(h.server.target);
    expect(withBudgets.assumptions.rateLimit.write).toEqual({ limit: 120, windowSeconds: 10 });
  });
});

describe.each(DIALECT_NAMES)('target file of dialect %s', (d) => {
  it("parses, states the dialect's choices and is the same for the same seed (ids, keys, cursors)", async () => {
    const [a, b, other] = await Promise.all([
      startReferenceServer({ seed: 11, dialect: d }),
      startReferenceServer({ seed: 11, dialect: d }),
      startReferenceServer({ seed: 12, dialect: d }),
    ]);
    try {
      const t = TargetFile.parse(a.target);
      const dialect = DIALECTS[d];
      expect(t.assumptions.resolvePath).toBe(dialect.resolvePath);
      expect(t.assumptions.params).toEqual(dialect.params);
      expect(t.assumptions.customerDeleteStatus).toEqual([dialect.customerDeleteStatus]);
      expect(t.assumptions.turnStatus).toEqual(dialect.turnStatus);
      expect(t.assumptions.statuses.validation).toBe(dialect.statuses.queryValidation);
      expect(t.assumptions.rateLimit.read).toEqual({ limit: dialect.limiter.read, windowSeconds: dialect.limiter.windowSeconds });
      expect(t.fixtures.api).toBe(a.fixturesUrl);
      const strip = (x: typeof a.target) => ({ ...x, baseUrl: '', fixtures: { ...x.fixtures, api: '' } });
      expect(strip(a.target)).toEqual(strip(b.target));
      expect(strip(a.target).fixtures).not.toEqual(strip(other.target).fixtures);
      // the same requests give the same cursors: the cursor secret (or token stream) comes from the seed
      const walk = async (s: typeof a): Promise<string[]> => {
        const key = (s.target.keys as any).admin.key;
        const out: string[] = [];
        let cursor = '';
        for (let i = 0; i < 3; i++) {
          const res = await fetch(`${s.baseUrl}/customers?limit=7${cursor ? `&cursor=${encodeURIComponent(cursor)}` : ''}`, {
            headers: { authorization: `Bearer ${key}` },
          });
          cursor = ((await res.json()) as { nextCursor: string }).nextCursor;
          out.push(cursor);
        }
        return out;
      };
      const [ca, cb, cother] = [await walk(a), await walk(b), await walk(other)];
      expect(ca).toEqual(cb);
      expect(ca).not.toEqual(cother);
    } finally {
      await Promise.all([a.close(), b.close(), other.close()]);
    }
  });
});
