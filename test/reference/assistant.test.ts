import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SessionList, TurnEnvelope } from '../../src/spec/resources.js';
import { startHarness, type Harness } from './helpers.js';

let h: Harness;
let conv: string;
beforeAll(async () => {
  h = await startHarness({ budgets: { read: 100_000, write: 100_000 } });
  conv = (await h.fx('/conversations', 'POST', {})).json.data.id;
});
afterAll(() => h.close());

async function turn(state: 'pending' | 'completed', owner = 'admin'): Promise<{ sid: string; tid: string }> {
  const sid = (await h.fx('/sessions', 'POST', { conversationId: conv, owner })).json.data.id;
  const t = await h.fx('/turns', 'POST', { sessionId: sid, owner, state });
  expect(t.status).toBe(201);
  return { sid, tid: t.json.data.id };
}

describe('assistant chat turns (4.1, 4.2)', () => {
  it('returns pending and completed turns in the turn shape, completed ones with answer and receipt', async () => {
    const p = await turn('pending');
    const c = await turn('completed');
    const pr = await h.api(`/ai/assistant/sessions/${p.sid}/turns/${p.tid}`);
    expect(TurnEnvelope.parse(pr.json).data).toMatchObject({ status: 'pending', id: p.tid, sessionId: p.sid });
    expect(pr.json.data.answer).toBeUndefined();
    const cr = TurnEnvelope.parse((await h.api(`/ai/assistant/sessions/${c.sid}/turns/${c.tid}`)).json).data;
    expect(cr.status).toBe('completed');
    expect(cr.answer?.actionProposals).toHaveLength(1);
    expect(cr.actionConfirmations?.[0]).toMatchObject({ proposalId: cr.answer!.actionProposals![0]!.id, undo: { status: 'available' } });
    expect(Date.parse(cr.expiresAt)).toBeGreaterThan(Date.now());
  });

  it('cancels pending turns, repeats safely, refuses completed ones with 409', async () => {
    const p = await turn('pending');
    const path = `/ai/assistant/sessions/${p.sid}/turns/${p.tid}/cancel`;
    const first = await h.api(path, { method: 'POST' });
    expect(first.status).toBe(200);
    expect(TurnEnvelope.parse(first.json).data.status).toBe('cancelled');
    const again = await h.api(path, { method: 'POST' });
    expect(again.status).toBe(200);
    expect(again.json.data).toEqual(first.json.data);
    const c = await turn('completed');
    const refused = await h.api(`/ai/assistant/sessions/${c.sid}/turns/${c.tid}/cancel`, { method: 'POST' });
    expect(refused.status).toBe(409);
    expect(refused.json.error.code).toBe('assistant.turn_completed');
    expect((await h.api(`/ai/assistant/sessions/${c.sid}/turns/${c.tid}`)).json.data.status).toBe('completed');
  });

  it('completes pending turns through the fixtures API', async () => {
    const p = await turn('pending');
    expect((await h.fx(`/turns/${p.tid}/complete`, 'POST')).status).toBe(204);
    expect((await h.api(`/ai/assistant/sessions/${p.sid}/turns/${p.tid}`)).json.data.status).toBe('completed');
  });

  it('isolates chats: another connection gets 404, a member 403, a wrong session 404', async () => {
    const p = await turn('pending');
    const path = `/ai/assistant/sessions/${p.sid}/turns/${p.tid}`;
    const other = await h.api(path, { role: 'secondConnection' });
    expect(other.status).toBe(404);
    expect(other.json.error.code).toBe('route.not_found');
    expect((await h.api(`${path}/cancel`, { method: 'POST', role: 'secondConnection' })).status).toBe(404);
    expect((await h.api(path, { role: 'member' })).status).toBe(403);
    const m = await turn('pending', 'member');
    expect((await h.api(`/ai/assistant/sessions/${m.sid}/turns/${m.tid}`, { role: 'member' })).status).toBe(403);
    const elsewhere = await turn('pending');
    expect((await h.api(`/ai/assistant/sessions/${elsewhere.sid}/turns/${p.tid}`)).status).toBe(404);
    expect((await h.api(path)).status).toBe(200);
  });
});

describe('session list (4.3)', () => {
  it("lists only the caller's unexpired chats, newest activity first, archived included, at most 100", async () => {
    const c = (await h.fx('/conversations', 'POST', {})).json.data.id;
    const base = Date.now() - 10 * 60_000;
    const made: string[] = [];
    for (let i = 0; i < 105; i++) {
      const r = await h.fx('/sessions', 'POST', {
        conversationId: c,
        owner: 'admin',
        archived: i % 10 === 0,
        lastActivityAt: new Date(base + i * 1000).toISOString(),
      });
      made.push(r.json.data.id);
    }
    await h.fx('/sessions', 'POST', { conversationId: c, owner: 'admin', expired: true });
    const theirs = (await h.fx('/sessions', 'POST', { conversationId: c, owner: 'secondConnection' })).json.data.id;
    const r = await h.api(`/ai/conversations/${c}/assistant/sessions`);
    const list = SessionList.parse(r.json).data;
    expect(Object.keys(r.json)).toEqual(['data']);
    expect(list).toHaveLength(100);
    expect(list.map((s) => s.id)).toEqual(made.slice().reverse().slice(0, 100));
    expect(list.some((s) => s.archivedAt)).toBe(true);
    expect(list.map((s) => s.id)).not.toContain(theirs);
    const mine = await h.api(`/ai/conversations/${c}/assistant/sessions`, { role: 'secondConnection' });
    expect(mine.json.data.map((s: { id: string }) => s.id)).toEqual([theirs]);
    expect((await h.api('/ai/conversations/conv_missing/assistant/sessions')).status).toBe(404);
    expect((await h.api(`/ai/conversations/${c}/assistant/sessions`, { role: 'member' })).status).toBe(403);
  });
});
