/** The reference server's second workspace (spec 5.1): its key is served its own data and nothing of the first's. */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startReferenceServer } from '../../src/reference/index.js';
import { startHarness, type Harness } from './helpers.js';

let h: Harness;
beforeAll(async () => {
  h = await startHarness();
});
afterAll(() => h.close());

const ids = (res: { json: any }): string[] => res.json.data.map((c: { id: string }) => c.id);

describe('the second workspace', () => {
  it('is another workspace: /me names another id, with every scope', async () => {
    const mine = (await h.api('/me')).json.data;
    const other = (await h.api('/me', { role: 'otherWorkspace' })).json.data;
    expect(other.workspace.id).not.toBe(mine.workspace.id);
    expect(other.scopes).toContain('attachments:read');
  });

  it("lists its own customers, none of the first workspace's, and finds none of them by externalId", async () => {
    const mine = await h.api('/customers?limit=100');
    const other = await h.api('/customers?limit=100', { role: 'otherWorkspace' });
    expect(other.status).toBe(200);
    expect(ids(other).length).toBeGreaterThan(0);
    expect(ids(other).filter((id) => ids(mine).includes(id))).toEqual([]);
    // both workspaces are seeded by the same code: equal externalIds, different records
    const ext = mine.json.data[0].externalId;
    const found = await h.api(`/customers?externalId=${encodeURIComponent(ext)}`, { role: 'otherWorkspace' });
    expect(found.json.data.map((c: { id: string }) => c.id)).not.toContain(mine.json.data[0].id);
  });

  it("answers 404 for the first workspace's conversation, chat turn and attachment, and changes nothing", async () => {
    const conv = h.ids.conversationId;
    const before = (await h.api(`/conversations/${conv}`)).json;
    expect(
      (await h.api(`/conversations/${conv}/assign`, { method: 'POST', role: 'otherWorkspace', json: { team: 'intruder' } })).status,
    ).toBe(404);
    expect((await h.api(`/conversations/${conv}`)).json).toEqual(before);
    const t = h.ids.completedTurn;
    expect((await h.api(`/ai/assistant/sessions/${t.sessionId}/turns/${t.turnId}`, { role: 'otherWorkspace' })).status).toBe(404);
    const m = h.ids.message;
    expect((await h.api(`/messages/${m.messageId}/attachments/${m.storedIndex}/download`, { role: 'otherWorkspace' })).status).toBe(404);
  });

  it("keeps the first workspace's keys and ids for a seed, and derives its own key from it", async () => {
    const again = await startReferenceServer({ seed: 42 });
    try {
      const a = h.server.target.keys as Record<string, { key: string }>;
      const b = again.target.keys as Record<string, { key: string }>;
      expect(b.otherWorkspace!.key).toBe(a.otherWorkspace!.key);
      expect(b.otherWorkspace!.key).not.toBe(a.admin!.key);
      expect(b.admin!.key).toBe(a.admin!.key);
      expect((again.target.fixtures as { ids: unknown }).ids).toEqual(h.ids);
    } finally {
      await again.close();
    }
  });

  it('the attachmentsOnly key may not download (conversations:read missing) and lists nothing', async () => {
    const m = h.ids.message;
    expect((await h.api(`/messages/${m.messageId}/attachments/${m.storedIndex}/download`, { role: 'attachmentsOnly' })).status).toBe(403);
    expect((await h.api('/customers', { role: 'attachmentsOnly' })).status).toBe(403);
  });
});
