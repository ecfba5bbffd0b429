import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Conversation, Customer, ChatSession, ChatTurn, Collection } from '../../src/spec/resources.js';
import { TargetFile, KEY_ROLES } from '../../src/target/schema.js';
import { startReferenceServer } from '../../src/reference/index.js';
import { startHarness, type Harness } from './helpers.js';

let h: Harness;
beforeAll(async () => {
  h = await startHarness();
});
afterAll(() => h.close());

describe('self-describing target', () => {
  it('parses with TargetFile, names every key role and the seeded fixture ids', async () => {
    const t = TargetFile.parse(h.server.target);
    expect(t.baseUrl).toBe(h.server.baseUrl);
    expect(t.baseUrl.endsWith('/v1')).toBe(true);
    expect(t.fixtures.api).toBe(h.server.fixturesUrl);
    expect(t.allowWrites).toBe(true);
    expect(Object.keys(t.keys).sort()).toEqual([...KEY_ROLES].sort());
    expect(t.assumptions.completedStatuses).toContain('spam');
    expect(t.assumptions.rateLimit.read).toEqual({ limit: 1000, windowSeconds: 5 });
    const ids = t.fixtures.ids;
    expect((await h.api(`/conversations/${ids.conversationId}`)).status).toBe(200);
    expect((await h.api(`/ai/conversations/${ids.sessionsConversationId}/assistant/sessions`)).json.data.length).toBeGreaterThan(0);
    expect((await h.api(`/ai/assistant/sessions/${ids.pendingTurn!.sessionId}/turns/${ids.pendingTurn!.turnId}`)).json.data.status).toBe(
      'pending',
    );
    expect(
      (await h.api(`/ai/assistant/sessions/${ids.completedTurn!.sessionId}/turns/${ids.completedTurn!.turnId}`)).json.data.status,
    ).toBe('completed');
    expect((await h.api(`/authoring/collections/${ids.collectionId}`)).status).toBe(200);
    expect((await h.fx('/ids')).json.data).toEqual(ids);
  });

  it('is deterministic for a seed', async () => {
    const a = await startReferenceServer({ seed: 7 });
    const b = await startReferenceServer({ seed: 7 });
    try {
      const strip = (t: typeof a.target) => ({ ...t, baseUrl: '', fixtures: { ...t.fixtures, api: '' } });
      expect(strip(a.target)).toEqual(strip(b.target));
      expect(strip(a.target)).not.toEqual(strip(h.server.target));
    } finally {
      await Promise.all([a.close(), b.close()]);
    }
  });
});

describe('resource shapes match the spec model', () => {
  it('customers, conversations, sessions, turns and collections validate', async () => {
    const customers = await h.api('/customers?limit=100');
    for (const c of customers.json.data) Customer.parse(c);
    const fx = await h.fx(`/conversations/${h.ids.conversationId}`);
    Conversation.parse(fx.json.data);
    for (const s of (await h.api(`/ai/conversations/${h.ids.conversationId}/assistant/sessions`)).json.data) ChatSession.parse(s);
    ChatTurn.parse((await h.api(`/ai/assistant/sessions/${h.ids.completedTurn.sessionId}/turns/${h.ids.completedTurn.turnId}`)).json.data);
    Collection.parse((await h.api(`/authoring/collections/${h.ids.collectionId}`)).json);
  });
});

describe('fixtures API', () => {
  it('creates customers, conversations, messages, sessions, turns, collections and articles', async () => {
    const cs = await h.fx('/customers', 'POST', {
      customers: [{ name: 'A' }, { name: 'B', email: 'b@x.test', identities: [{ type: 'email', identifier: 'b@x.test' }] }],
    });
    expect(cs.status).toBe(201);
    expect(cs.json.data).toHaveLength(2);
    const conv = await h.fx('/conversations', 'POST', {
      customerId: cs.json.data[0].id,
      status: 'pending',
      priority: 'urgent',
      team: 't',
      assignee: { id: 'u1' },
      subject: 'S',
    });
    expect(conv.status).toBe(201);
    expect(Conversation.parse(conv.json.data)).toMatchObject({ status: 'pending', priority: 'urgent', team: 't', subject: 'S' });
    const got = await h.fx(`/conversations/${conv.json.data.id}`);
    expect(got.json).toMatchObject({ mutations: 0, customer: { id: cs.json.data[0].id, deleted: false, conversationCount: 1 } });
    expect((await h.fx('/conversations', 'POST', { status: 'nope' })).status).toBe(422);
    expect((await h.fx('/conversations', 'POST', { customerId: 'cus_missing' })).status).toBe(404);
    expect((await h.fx('/conversations/conv_missing')).status).toBe(404);
    expect((await h.fx('/messages', 'POST', { conversationId: conv.json.data.id, attachments: ['bogus'] })).status).toBe(400);
    expect((await h.fx('/sessions', 'POST', { conversationId: conv.json.data.id, owner: 'nobody' })).status).toBe(400);
    expect((await h.fx('/turns', 'POST', { sessionId: 'sess_missing', owner: 'admin', state: 'pending' })).status).toBe(404);
    const col = await h.fx('/collections', 'POST', { name: 'C', slug: 'c', description: 'd' });
    expect(Collection.parse(col.json.data)).toMatchObject({ name: 'C', slug: 'c', revision: 1 });
    expect((await h.fx('/articles', 'POST', { count: 2 })).status).toBe(201);
    expect((await h.fx('/articles', 'POST', { count: 0 })).status).toBe(400);
    expect((await h.fx('/ratelimit/reset', 'POST')).status).toBe(204);
    expect((await h.fx('/nope', 'POST')).status).toBe(404);
    expect((await h.fx('/customers', 'POST', undefined)).status).toBe(400);
  });

  it('needs no key and carries no rate-limit headers', async () => {
    const r = await h.fx('/ids');
    expect(r.status).toBe(200);
    expect(r.headers['ratelimit-limit']).toBeUndefined();
  });
});

describe('import boundary', () => {
  it('the reference server imports nothing from the checking side', () => {
    const forbidden = /from\s+['"][./]*(?:\.\.\/)+(checks|conformance|suites|ratelimit|load|spec|trace|report)\//;
    const allowedOutside = /from\s+['"]\.\.\/(?:\.\.\/)?(target\/schema|errors)\.js['"]/;
    const root = join(import.meta.dirname, '../../src/reference');
    const files: string[] = [];
    const walk = (dir: string): void => {
      for (const n of readdirSync(dir)) {
        const p = join(dir, n);
        if (statSync(p).isDirectory()) walk(p);
        else if (p.endsWith('.ts')) files.push(p);
      }
    };
    walk(root);
    expect(files.length).toBeGreaterThan(10);
    for (const f of files) {
      const src = readFileSync(f, 'utf8');
      expect(src, f).not.toMatch(forbidden);
      for (const m of src.matchAll(/from\s+['"](\.\.[^'"]*)['"]/g)) {
        const spec = m[1]!;
        const depth = f.slice(root.length).split('/').length - 2;
        const leaves = spec.split('/').filter((s) => s === '..').length > depth;
        if (leaves) expect(m[0], `${f} imports ${spec}`).toMatch(allowedOutside);
      }
    }
  });
});
