import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CustomerPage } from '../../src/spec/resources.js';
import { startHarness, type Harness } from './helpers.js';

let h: Harness;
beforeAll(async () => {
  h = await startHarness({ budgets: { read: 100_000, write: 100_000 } });
});
afterAll(() => h.close());

async function traverse(query: string, limit: number): Promise<string[]> {
  const ids: string[] = [];
  let cursor: string | null = null;
  for (let page = 0; page < 200; page++) {
    const c: string = cursor === null ? '' : `&cursor=${encodeURIComponent(cursor)}`;
    const r = await h.api(`/customers?limit=${limit}${query}${c}`);
    expect(r.status).toBe(200);
    expect(CustomerPage.safeParse(r.json).success).toBe(true);
    expect(r.json.hasMore).toBe(r.json.nextCursor !== null);
    expect(r.json.data.length).toBeLessThanOrEqual(limit);
    ids.push(...r.json.data.map((x: { id: string }) => x.id));
    if (!r.json.hasMore) return ids;
    cursor = r.json.nextCursor;
  }
  throw new Error('pagination did not end');
}

describe('GET /customers (4.4)', () => {
  it('defaults to 25, validates limit 1..100 and pages every customer exactly once', async () => {
    const first = await h.api('/customers');
    expect(first.json.data).toHaveLength(25);
    for (const bad of ['0', '101', '2.5', 'abc', '-1', '']) expect((await h.api(`/customers?limit=${bad}`)).status).toBe(400);
    expect((await h.api('/customers?limit=100')).json.data.length).toBeGreaterThanOrEqual(60);
    const ids = await traverse('', 7);
    expect(new Set(ids).size).toBe(ids.length);
    expect(ids.length).toBeGreaterThanOrEqual(60);
    expect(ids.every((id) => id.startsWith('cus_'))).toBe(true);
  });

  it('rejects tampered, malformed and foreign cursors with 400 request.invalid_cursor', async () => {
    const r = await h.api('/customers?limit=3');
    const cursor: string = r.json.nextCursor;
    const flipped = cursor.slice(0, 5) + (cursor[5] === 'A' ? 'B' : 'A') + cursor.slice(6);
    const [body, sig] = cursor.split('.') as [string, string];
    for (const bad of [flipped, 'garbage', cursor + 'x', `${body}.${sig.slice(1)}`, cursor.slice(0, -3), `${body}..${sig}`]) {
      const res = await h.api(`/customers?cursor=${encodeURIComponent(bad)}`);
      expect(res.status).toBe(400);
      expect(res.json.error.code).toBe('request.invalid_cursor');
    }
    // a cursor issued for one filter is refused with another, and by another endpoint
    const filtered = await h.api('/customers?limit=2&q=example');
    expect(filtered.json.nextCursor).not.toBeNull();
    expect((await h.api(`/customers?q=acme&cursor=${encodeURIComponent(filtered.json.nextCursor)}`)).status).toBe(400);
    expect((await h.api(`/customers?cursor=${encodeURIComponent(filtered.json.nextCursor)}`)).status).toBe(400);
    expect((await h.api(`/customers?q=example&cursor=${encodeURIComponent(filtered.json.nextCursor)}`)).status).toBe(200);
    expect((await h.api(`/authoring/articles?after=${encodeURIComponent(cursor)}`)).status).toBe(400);
  });

  it('stays stable when customers are created and deleted between pages', async () => {
    const p1 = await h.api('/customers?limit=10');
    const del = p1.json.data[3].id;
    expect((await h.api(`/customers/${del}`, { method: 'DELETE' })).status).toBe(204);
    await h.fx('/customers', 'POST', { customers: [{ name: 'Late Arrival' }] });
    const p2 = await h.api(`/customers?limit=10&cursor=${encodeURIComponent(p1.json.nextCursor)}`);
    const all = await traverse('', 100);
    const expectedNext = all.slice(all.indexOf(p1.json.data[9].id) + 1, all.indexOf(p1.json.data[9].id) + 11);
    expect(p2.json.data.map((c: { id: string }) => c.id)).toEqual(expectedNext);
  });

  it('searches name, email and company case-insensitively', async () => {
    const [made] = (await h.fx('/customers', 'POST', { customers: [{ name: 'Zed Quux', email: 'zq@mail.test', company: 'MegaWidgets' }] }))
      .json.data;
    for (const q of ['zed qu', 'ZQ@MAIL', 'megawidg', 'WIDGETS']) {
      const r = await h.api(`/customers?q=${encodeURIComponent(q)}`);
      expect(r.json.data.map((c: { id: string }) => c.id)).toEqual([made.id]);
    }
    expect((await h.api('/customers?q=nomatchatall')).json.data).toEqual([]);
  });

  it('filters by externalId and resolves identities (both parameters or 400)', async () => {
    const [made] = (
      await h.fx('/customers', 'POST', {
        customers: [{ name: 'Ident Person', externalId: 'crm-991', identities: [{ type: 'phone', identifier: '+15550001' }] }],
      })
    ).json.data;
    const ext = await h.api('/customers?externalId=crm-991');
    expect(ext.json.data.map((c: { id: string }) => c.id)).toEqual([made.id]);
    const id = await h.api('/customers?identityType=phone&identityIdentifier=%2B15550001');
    expect(id.json).toMatchObject({ hasMore: false, nextCursor: null });
    expect(id.json.data.map((c: { id: string }) => c.id)).toEqual([made.id]);
    expect((await h.api('/customers?identityType=email&identityIdentifier=%2B15550001')).json.data).toEqual([]);
    expect((await h.api('/customers?identityType=phone')).status).toBe(400);
    expect((await h.api('/customers?identityIdentifier=%2B15550001')).status).toBe(400);
  });

  it('soft-deletes: 204, idempotent, unlisted, still resolved from conversations; unknown id 404', async () => {
    const [c] = (await h.fx('/customers', 'POST', { customers: [{ name: 'Soon Gone', externalId: 'gone-1' }] })).json.data;
    const conv = (await h.fx('/conversations', 'POST', { customerId: c.id })).json.data;
    expect((await h.api(`/customers/${c.id}`, { method: 'DELETE' })).status).toBe(204);
    expect((await h.api(`/customers/${c.id}`, { method: 'DELETE' })).status).toBe(204);
    expect((await h.api('/customers?externalId=gone-1')).json.data).toEqual([]);
    const all = await traverse('', 100);
    expect(all).not.toContain(c.id);
    const fx = await h.fx(`/conversations/${conv.id}`);
    expect(fx.json.customer).toMatchObject({ id: c.id, deleted: true });
    expect(fx.json.data.customerId).toBe(c.id);
    expect((await h.api('/customers/cus_nope', { method: 'DELETE' })).status).toBe(404);
  });
});
