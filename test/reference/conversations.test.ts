import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Conversation } from '../../src/spec/resources.js';
import { idemKey, startHarness, type Harness } from './helpers.js';

let h: Harness;
beforeAll(async () => {
  h = await startHarness({ budgets: { read: 100_000, write: 100_000 } });
});
afterAll(() => h.close());

async function newConversation(init: Record<string, unknown> = {}): Promise<string> {
  const r = await h.fx('/conversations', 'POST', init);
  expect(r.status).toBe(201);
  return r.json.data.id;
}
const state = async (id: string) => (await h.fx(`/conversations/${id}`)).json;

describe('resolve (4.8, part 3)', () => {
  it.each([
    [{}, 200, 'resolved'],
    [{ status: 'closed' }, 200, 'closed'],
    [{ status: 'spam' }, 200, 'spam'],
    [{ status: 'open' }, 422, 'pending'],
    [{ status: 'waiting_on_customer' }, 422, 'pending'],
    [{ status: 'no_such_status' }, 422, 'pending'],
  ])('body %j → %i, status %s', async (body, status, after) => {
    const id = await newConversation({ status: 'pending' });
    const r = await h.api(`/conversations/${id}/resolve`, { method: 'POST', json: body });
    expect(r.status).toBe(status);
    if (status === 200) expect(Conversation.parse(r.json).status).toBe(after);
    else
      expect(r.json.error.code).toBe(
        (body as { status: string }).status === 'no_such_status'
          ? 'conversations.unknown_status'
          : 'conversations.invalid_resolution_status',
      );
    expect((await state(id)).data.status).toBe(after);
  });

  it('accepts an empty body and rejects a non-string status', async () => {
    const id = await newConversation();
    expect((await h.api(`/conversations/${id}/resolve`, { method: 'POST' })).status).toBe(200);
    expect((await h.api(`/conversations/${id}/resolve`, { method: 'POST', json: { status: 3 } })).status).toBe(400);
    expect(
      (await h.api(`/conversations/${id}/resolve`, { method: 'POST', body: '{nope', headers: { 'content-type': 'application/json' } }))
        .status,
    ).toBe(400);
  });
});

describe('assign (4.7, part 3)', () => {
  it('sets and clears assignee and team, never changes the status, returns every key', async () => {
    const id = await newConversation({ status: 'pending', team: 'old' });
    let r = await h.api(`/conversations/${id}/assign`, { method: 'POST', json: { assignee: { id: 'agent_7', name: 'Seven' } } });
    expect(r.status).toBe(200);
    expect(Conversation.parse(r.json)).toMatchObject({ status: 'pending', assignee: { id: 'agent_7' }, team: 'old' });
    r = await h.api(`/conversations/${id}/assign`, { method: 'POST', json: { team: '' } });
    expect(r.json).toMatchObject({ team: null, status: 'pending', assignee: { id: 'agent_7' } });
    r = await h.api(`/conversations/${id}/assign`, { method: 'POST', json: { assignee: { id: '' }, team: 'billing' } });
    expect(r.json).toMatchObject({ team: 'billing', assignee: null, status: 'pending' });
    for (const k of ['externalId', 'assignee', 'externalObject', 'channelIdentityId']) expect(Object.keys(r.json)).toContain(k);
    expect((await state(id)).mutations).toBe(3);
  });

  it('rejects a body with neither field, and malformed fields, with 400', async () => {
    const id = await newConversation();
    for (const body of [{}, { assignee: 'x' }, { assignee: {} }, { team: 5 }, { assignee: null }]) {
      const r = await h.api(`/conversations/${id}/assign`, { method: 'POST', json: body });
      expect(r.status).toBe(400);
      expect(r.json.error.code).toBe('request.invalid');
    }
    expect((await h.api('/conversations/conv_missing/assign', { method: 'POST', json: { team: 'a' } })).status).toBe(404);
  });
});

describe('Idempotency-Key (4.7, 4.8)', () => {
  it('replays identical retries once, conflicts on a different body, and checks the key length', async () => {
    const id = await newConversation();
    const key = idemKey();
    const a = await h.api(`/conversations/${id}/assign`, {
      method: 'POST',
      json: { team: 'x', assignee: { id: 'a1' } },
      headers: { 'idempotency-key': key },
    });
    const b = await h.api(`/conversations/${id}/assign`, {
      method: 'POST',
      json: { assignee: { id: 'a1' }, team: 'x' },
      headers: { 'idempotency-key': key },
    });
    expect(b.status).toBe(200);
    expect(b.text).toBe(a.text);
    expect(b.headers['x-request-id']).not.toBe(a.headers['x-request-id']);
    expect((await state(id)).mutations).toBe(1);
    const c = await h.api(`/conversations/${id}/assign`, { method: 'POST', json: { team: 'y' }, headers: { 'idempotency-key': key } });
    expect(c.status).toBe(409);
    expect(c.json.error.code).toBe('idempotency.conflict');
    // the same key on another route, resource or connection is independent
    expect((await h.api(`/conversations/${id}/resolve`, { method: 'POST', json: {}, headers: { 'idempotency-key': key } })).status).toBe(
      200,
    );
    expect(
      (
        await h.api(`/conversations/${id}/assign`, {
          method: 'POST',
          role: 'secondConnection',
          json: { team: 'z' },
          headers: { 'idempotency-key': key },
        })
      ).status,
    ).toBe(200);
    expect((await state(id)).mutations).toBe(3);
    for (const bad of ['1234567', 'x'.repeat(256)]) {
      const r = await h.api(`/conversations/${id}/resolve`, { method: 'POST', json: {}, headers: { 'idempotency-key': bad } });
      expect(r.status).toBe(400);
    }
    expect(
      (await h.api(`/conversations/${id}/resolve`, { method: 'POST', json: {}, headers: { 'idempotency-key': 'x'.repeat(255) } })).status,
    ).toBe(200);
  });

  it('replays stored errors too (the first outcome is the answer)', async () => {
    const id = await newConversation();
    const key = idemKey();
    const first = await h.api(`/conversations/${id}/resolve`, {
      method: 'POST',
      json: { status: 'open' },
      headers: { 'idempotency-key': key },
    });
    const again = await h.api(`/conversations/${id}/resolve`, {
      method: 'POST',
      json: { status: 'open' },
      headers: { 'idempotency-key': key },
    });
    expect(first.status).toBe(422);
    expect(again.status).toBe(422);
    expect(again.json.error.requestId).toBe(again.headers['x-request-id']);
  });

  it('takes effect once when identical requests race under one key', async () => {
    const id = await newConversation();
    const key = idemKey();
    const replies = await Promise.all(
      Array.from({ length: 8 }, () =>
        h.api(`/conversations/${id}/assign`, { method: 'POST', json: { team: 'race' }, headers: { 'idempotency-key': key } }),
      ),
    );
    expect(replies.every((r) => r.status === 200 && r.text === replies[0]!.text)).toBe(true);
    expect((await state(id)).mutations).toBe(1);
  });
});
