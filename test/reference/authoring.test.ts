import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ArticlesPage, AttachmentDescriptor, Collection } from '../../src/spec/resources.js';
import { idemKey, startHarness, type Harness } from './helpers.js';

let h: Harness;
beforeAll(async () => {
  h = await startHarness({ budgets: { read: 100_000, write: 100_000 } });
});
afterAll(() => h.close());

describe('attachment download (4.6)', () => {
  it('returns a descriptor with a signed URL valid five minutes for stored attachments', async () => {
    const conv = (await h.fx('/conversations', 'POST', {})).json.data.id;
    const msg = (await h.fx('/messages', 'POST', { conversationId: conv, attachments: ['external', 'stored', 'fetching'] })).json.data;
    expect(msg.attachments).toEqual([
      { index: 0, kind: 'external' },
      { index: 1, kind: 'stored' },
      { index: 2, kind: 'fetching' },
    ]);
    const before = Date.now();
    const r = await h.api(`/messages/${msg.id}/attachments/1/download`);
    const d = AttachmentDescriptor.parse(r.json);
    const lifetime = Date.parse(d.expiresAt) - before;
    expect(lifetime).toBeGreaterThan(299_000);
    expect(lifetime).toBeLessThanOrEqual(301_000);
    // a loopback URL the server itself serves (files.ts), on the origin the call came in on
    expect(d.url).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/files\/file_\w+\?expires=\d+&signature=[\w-]+$/);
    expect(new URL(d.url).origin).toBe(new URL(h.server.baseUrl).origin);
    for (const i of [0, 2]) {
      const u = await h.api(`/messages/${msg.id}/attachments/${i}/download`);
      expect(u.status).toBe(422);
      expect(u.json.error.code).toBe('attachments.not_downloadable');
    }
    for (const i of ['3', 'x', '-1']) expect((await h.api(`/messages/${msg.id}/attachments/${i}/download`)).status).toBe(404);
    expect((await h.fx(`/messages/${msg.id}/delete`, 'POST')).status).toBe(204);
    expect((await h.api(`/messages/${msg.id}/attachments/1/download`)).status).toBe(404);
    const seeded = h.ids.deletedMessageId;
    expect((await h.api(`/messages/${seeded}/attachments/0/download`)).status).toBe(404);
  });
});

describe('collection update (4.9)', () => {
  const put = (id: string, body: unknown, opts: { role?: any; key?: string; type?: string } = {}) =>
    h.api(`/authoring/collections/${id}`, {
      method: 'PUT',
      role: opts.role ?? 'helpDelegated',
      body: JSON.stringify(body),
      headers: {
        'content-type': opts.type ?? 'application/json',
        ...(opts.key === '' ? {} : { 'idempotency-key': opts.key ?? idemKey() }),
      },
    });

  it('replaces the fields, advances the revision, refuses stale revisions with 409', async () => {
    const col = (await h.fx('/collections', 'POST', { name: 'Billing' })).json.data;
    expect(col.revision).toBe(1);
    const r = await put(col.id, {
      name: 'Billing & plans',
      slug: 'billing',
      description: 'All about invoices',
      position: 4,
      expectedRevision: 1,
    });
    expect(r.status).toBe(200);
    expect(Collection.parse(r.json)).toMatchObject({
      name: 'Billing & plans',
      slug: 'billing',
      description: 'All about invoices',
      position: 4,
      revision: 2,
    });
    const stale = await put(col.id, { name: 'X', slug: 'x', expectedRevision: 1 });
    expect(stale.status).toBe(409);
    expect(stale.json.error.code).toBe('help.stale_revision');
    // new collections start with de and fr translations at revision 1; another locale adds one
    expect(Collection.parse(r.json).translations!.map((t) => [t.locale, t.revision])).toEqual([
      ['de', 1],
      ['fr', 1],
    ]);
    const it = await put(col.id, { name: 'Fatturazione', slug: 'fatturazione', locale: 'it', expectedRevision: 2 });
    expect(Collection.parse(it.json).translations!.find((t) => t.locale === 'it')).toEqual({
      locale: 'it',
      name: 'Fatturazione',
      slug: 'fatturazione',
      description: '',
      revision: 1,
    });
    expect(it.json.name).toBe('Billing & plans');
    const de = await put(col.id, { name: 'Rechnungen', slug: 'rechnungen', locale: 'de', expectedRevision: 3 });
    expect(de.json.translations[0]).toMatchObject({ locale: 'de', name: 'Rechnungen', revision: 2 });
    const read = await h.api(`/authoring/collections/${col.id}`, { role: 'helpDelegated' });
    expect(read.json).toEqual(de.json);
  });

  it('moves between parents: a parent id, null keeps, "" moves to the root', async () => {
    const parent = (await h.fx('/collections', 'POST', {})).json.data;
    const col = (await h.fx('/collections', 'POST', {})).json.data;
    let r = await put(col.id, { name: 'n', slug: 'n', parentId: parent.id, expectedRevision: 1 });
    expect(r.json.parentId).toBe(parent.id);
    r = await put(col.id, { name: 'n', slug: 'n', parentId: null, expectedRevision: 2 });
    expect(r.json.parentId).toBe(parent.id);
    r = await put(col.id, { name: 'n', slug: 'n', parentId: '', expectedRevision: 3 });
    expect(r.json.parentId).toBeNull();
    expect((await put(col.id, { name: 'n', slug: 'n', parentId: 'col_missing', expectedRevision: 4 })).status).toBe(400);
  });

  it('validates body, Content-Type and the Idempotency-Key pattern; replays and conflicts', async () => {
    const col = (await h.fx('/collections', 'POST', {})).json.data;
    for (const body of [
      { name: 'a', slug: 'a' },
      { slug: 'a', expectedRevision: 1 },
      { name: 'a', expectedRevision: 1 },
      { name: 'a', slug: 'a', expectedRevision: '1' },
    ]) {
      expect((await put(col.id, body)).status).toBe(400);
    }
    expect((await put(col.id, { name: 'a', slug: 'a', expectedRevision: 1 }, { type: 'text/plain' })).status).toBe(415);
    for (const key of ['', 'short', 'has space here', 'x'.repeat(129), 'caf\u00e9-key-1']) {
      const r = await put(col.id, { name: 'a', slug: 'a', expectedRevision: 1 }, { key });
      expect(r.status).toBe(400);
      expect(r.json.error.code).toBe('request.invalid_idempotency_key');
    }
    const key = idemKey();
    const a = await put(col.id, { name: 'a', slug: 'a', expectedRevision: 1 }, { key });
    const b = await put(col.id, { name: 'a', slug: 'a', expectedRevision: 1 }, { key });
    expect(a.status).toBe(200);
    expect(b.text).toBe(a.text);
    expect((await h.api(`/authoring/collections/${col.id}`, { role: 'helpDelegated' })).json.revision).toBe(2);
    expect((await put(col.id, { name: 'b', slug: 'a', expectedRevision: 1 }, { key })).status).toBe(409);
    expect((await put(col.id, { name: 'a', slug: 'a', expectedRevision: 2, pad: 'x'.repeat(66_000) })).status).toBe(413);
  });

  it('needs a delegated owner/admin connection', async () => {
    const col = (await h.fx('/collections', 'POST', {})).json.data;
    const r = await put(col.id, { name: 'a', slug: 'a', expectedRevision: 1 }, { role: 'admin' });
    expect(r.status).toBe(403);
    expect((await put(col.id, { name: 'a', slug: 'a', expectedRevision: 1 }, { role: 'readOnly' })).status).toBe(403);
    expect((await put('col_missing', { name: 'a', slug: 'a', expectedRevision: 1 })).status).toBe(404);
  });
});

describe('articles list (4.10)', () => {
  it('pages with after until nextCursor is null, without hasMore', async () => {
    await h.fx('/articles', 'POST', { count: 13 });
    const seen: string[] = [];
    let after: string | null = null;
    for (let i = 0; i < 50; i++) {
      const q: string = after ? `&after=${encodeURIComponent(after)}` : '';
      const r = await h.api(`/authoring/articles?limit=10${q}`, { role: 'readOnly' });
      const page = ArticlesPage.parse(r.json);
      seen.push(...page.data.map((a) => (a as { id: string }).id));
      after = page.nextCursor;
      if (after === null) break;
    }
    expect(seen).toHaveLength(53);
    expect(new Set(seen).size).toBe(53);
    expect((await h.api('/authoring/articles?after=bogus')).status).toBe(400);
    expect((await h.api('/authoring/articles', { role: 'member' })).status).toBe(200);
  });
});
