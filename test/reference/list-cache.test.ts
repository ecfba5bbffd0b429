/**
 * The customer list serves memoized pages (src/reference/page-cache.ts). These regression tests prove the
 * memo never outlives what shaped the page: a write, a fixtures call or a fault switched on between two
 * identical reads changes the second answer.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PageCache } from '../../src/reference/page-cache.js';
import { startHarness, type Harness } from './helpers.js';

interface Item {
  id: string;
  conversationCount: unknown;
}

let h: Harness;
beforeAll(async () => {
  h = await startHarness({ budgets: { read: 100_000, write: 100_000 } });
  // a few customers of their own, so one filtered page holds all of them (the seeded data is over 100)
  const seeds = [1, 2, 3].map((i) => ({ name: `Memo Probe ${i}`, email: `memo.probe.${i}@example.com` }));
  expect((await h.fx('/customers', 'POST', { customers: seeds })).status).toBe(201);
});
afterAll(() => h.close());

/** The default dialect's search parameter is `q`. */
const PAGE = '/customers?limit=100&q=memo%20probe';

async function page(): Promise<{ text: string; items: Item[] }> {
  const r = await h.api(PAGE);
  expect(r.status).toBe(200);
  return { text: r.text, items: (r.json as { data: Item[] }).data };
}

describe('customer list memo: never stale', () => {
  it('two identical reads with nothing between them answer the same bytes', async () => {
    const a = await page();
    const b = await page();
    expect(b.text).toBe(a.text);
  });

  it('a customer deleted between two identical reads is gone from the second', async () => {
    const before = await page();
    expect(before.items.length).toBeGreaterThanOrEqual(3);
    const victim = before.items[1]!.id;
    const del = await h.api(`/customers/${victim}`, { method: 'DELETE' });
    expect([200, 204]).toContain(del.status);
    const after = await page();
    expect(before.items.map((c) => c.id)).toContain(victim);
    expect(after.items.map((c) => c.id)).not.toContain(victim);
    expect(after.items).toHaveLength(before.items.length - 1);
  });

  it('a customer created through the fixtures API between two identical reads appears in the second', async () => {
    const before = await page();
    const made = await h.fx('/customers', 'POST', { customers: [{ name: 'Memo Probe 4', email: 'memo.probe.4@example.com' }] });
    expect(made.status).toBe(201);
    const id = (made.json as { data: Array<{ id: string }> }).data[0]!.id;
    const after = await page();
    expect(before.items.map((c) => c.id)).not.toContain(id);
    expect(after.items.map((c) => c.id)).toContain(id);
  });

  it('a conversation created between two identical reads raises the customer conversationCount in the second', async () => {
    const before = await page();
    const target = before.items[0]!;
    const made = await h.fx('/conversations', 'POST', { customerId: target.id });
    expect(made.status).toBe(201);
    const after = await page();
    expect(after.items.find((c) => c.id === target.id)!.conversationCount).toBe((target.conversationCount as number) + 1);
  });

  it('a fault switched on between two identical reads is seen in the second, and gone once switched off', async () => {
    const clean = await page();
    expect(typeof clean.items[0]!.conversationCount).toBe('number');
    h.server.setFaults(['customer-count-string']);
    try {
      const faulty = await page();
      expect(typeof faulty.items[0]!.conversationCount).toBe('string');
    } finally {
      h.server.setFaults([]);
    }
    const again = await page();
    expect(again.text).toBe(clean.text);
  });

  it('a next cursor from a repeated page still continues the traversal', async () => {
    const first = await h.api('/customers?limit=5');
    const repeat = await h.api('/customers?limit=5');
    expect(repeat.text).toBe(first.text);
    const next = await h.api(`/customers?limit=5&cursor=${encodeURIComponent((repeat.json as { nextCursor: string }).nextCursor)}`);
    expect(next.status).toBe(200);
    const ids = (x: unknown): string[] => (x as { data: Array<{ id: string }> }).data.map((c) => c.id);
    expect(ids(next.json).some((id) => ids(first.json).includes(id))).toBe(false);
  });
});

describe('PageCache', () => {
  it('serves a page only at the version it was rendered at', () => {
    const cache = new PageCache();
    const body = Buffer.from('{"data":[]}');
    cache.set('limit=25', 7, body);
    expect(cache.get('limit=25', 7)).toBe(body);
    expect(cache.get('limit=25', 8)).toBeUndefined();
    expect(cache.get('limit=10', 7)).toBeUndefined();
    cache.set('limit=10', 8, body);
    expect(cache.get('limit=25', 7)).toBeUndefined();
  });
});

describe('PageCache bounds', () => {
  it('starts over rather than holding more than 8 MiB', () => {
    const cache = new PageCache();
    const big = Buffer.alloc(3 << 20);
    cache.set('a', 1, big);
    cache.set('b', 1, big);
    expect(cache.get('a', 1)).toBe(big);
    cache.set('c', 1, big);
    expect(cache.get('a', 1)).toBeUndefined();
    expect(cache.get('c', 1)).toBe(big);
  });
});
