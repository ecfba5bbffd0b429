/**
 * The answer shapes of the strict-inputs dialect (Dialect.strict), each a choice the spec leaves open:
 * omitEmpty (unset or empty optional fields of turns, answers, sessions and collections left out),
 * namedKeyLists ({ statuses|priorities: [{ slug, category }] }), listObject ({ object: "list", data }) and
 * deleteUnknownSucceeds (204 for a customer that never existed). The default dialect keeps its shapes.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startHarness, idemKey, type Harness } from './helpers.js';

let strict: Harness;
let plain: Harness;
beforeAll(async () => {
  strict = await startHarness({ dialect: 'strict-inputs', budgets: { read: 100_000, write: 100_000 } });
  plain = await startHarness({ budgets: { read: 100_000, write: 100_000 } });
});
afterAll(async () => {
  await Promise.all([strict.close(), plain.close()]);
});

const turnPath = (t: { sessionId: string; turnId: string }): string => `/ai/assistant/sessions/${t.sessionId}/turns/${t.turnId}`;
const sessions = (h: Harness) => h.api(`/ai/conversations/${h.ids.sessionsConversationId}/assistant/sessions`);
const updateRoot = (h: Harness) =>
  h.api(`/authoring/collections/${h.ids.collectionId}`, {
    method: 'PUT',
    role: 'helpDelegated',
    headers: { 'idempotency-key': idemKey() },
    json: { name: 'Getting started', slug: 'getting-started', description: '', expectedRevision: 1 },
  });

describe('omitEmpty', () => {
  it("a completed turn's answer leaves out its empty warnings; the default dialect shows []", async () => {
    expect((await strict.api(turnPath(strict.ids.completedTurn))).json.data.answer).not.toHaveProperty('warnings');
    expect((await plain.api(turnPath(plain.ids.completedTurn))).json.data.answer.warnings).toEqual([]);
  });

  it('a chat that is not archived leaves out archivedAt; the default dialect shows null', async () => {
    const active = (await sessions(strict)).json.data.filter((s: Record<string, unknown>) => !('archivedAt' in s));
    expect(active.length).toBeGreaterThan(0);
    expect((await sessions(plain)).json.data.some((s: Record<string, unknown>) => s.archivedAt === null)).toBe(true);
  });

  it('a root collection with an empty description leaves out parentId and description; the default dialect shows null and ""', async () => {
    const s = await updateRoot(strict);
    expect(s.status).toBe(200);
    expect(s.json).not.toHaveProperty('parentId');
    expect(s.json).not.toHaveProperty('description');
    const p = await updateRoot(plain);
    expect([p.json.parentId, p.json.description]).toEqual([null, '']);
  });
});

describe('namedKeyLists, listObject, deleteUnknownSucceeds', () => {
  it('statuses and priorities are named lists of { slug, category }', async () => {
    const st = (await strict.api('/statuses')).json;
    expect(st.statuses).toContainEqual({ slug: 'open', category: 'active' });
    expect((await strict.api('/priorities')).json.priorities).toContainEqual({ slug: 'urgent' });
    expect((await plain.api('/statuses')).json.data).toContainEqual({ key: 'open', name: expect.any(String), type: 'active' });
  });

  it('the chats list is { object: "list", data }, still without pagination keys', async () => {
    expect(Object.keys((await sessions(strict)).json).sort()).toEqual(['data', 'object']);
    expect(Object.keys((await sessions(plain)).json)).toEqual(['data']);
  });

  it('DELETE of a customer that never existed answers 204; the default dialect answers 404', async () => {
    expect((await strict.api('/customers/cus_never_existed', { method: 'DELETE' })).status).toBe(204);
    expect((await plain.api('/customers/cus_never_existed', { method: 'DELETE' })).status).toBe(404);
  });
});
