import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ErrorEnvelope } from '../../src/spec/resources.js';
import { startHarness, type Harness } from './helpers.js';

let h: Harness;
beforeAll(async () => {
  h = await startHarness();
});
afterAll(() => h.close());

function expectError(res: { status: number; headers: Record<string, unknown>; json: any }, status: number, code?: string): void {
  expect(res.status).toBe(status);
  expect(ErrorEnvelope.safeParse(res.json).success).toBe(true);
  expect(res.json.error.requestId).toBe(res.headers['x-request-id']);
  expect(String(res.headers['x-request-id'])).toMatch(/^req_/);
  if (code) expect(res.json.error.code).toBe(code);
}

describe('authentication (spec part 5)', () => {
  it('refuses a missing header, a wrong scheme, malformed and unknown keys with 401', async () => {
    expectError(await h.api('/me', { role: null }), 401);
    expectError(await h.api('/me', { authorization: `Basic ${h.key('admin')}` }), 401);
    expectError(await h.api('/me', { authorization: h.key('admin') }), 401);
    expectError(await h.api('/me', { authorization: 'Bearer not-a-key' }), 401);
    expectError(await h.api('/me', { authorization: 'Bearer pk_unknownunknownunknown' }), 401);
  });

  it('refuses expired and revoked keys with 401', async () => {
    expectError(await h.api('/me', { role: 'expired' }), 401, 'auth.key_expired');
    expectError(await h.api('/me', { role: 'revoked' }), 401, 'auth.key_revoked');
  });

  it('accepts pk_, pk_live_ and pk_test_ keys, which see the same data and report their mode', async () => {
    expect(h.key('admin')).toMatch(/^pk_/);
    expect(h.key('legacyLive')).toMatch(/^pk_live_/);
    expect(h.key('legacyTest')).toMatch(/^pk_test_/);
    const admin = await h.api('/customers?limit=5');
    const live = await h.api('/customers?limit=5', { role: 'legacyLive' });
    const test = await h.api('/customers?limit=5', { role: 'legacyTest' });
    expect(live.json.data).toEqual(admin.json.data);
    expect(test.json.data).toEqual(admin.json.data);
    expect((await h.api('/me', { role: 'legacyLive' })).json.data.mode).toBe('live');
    expect((await h.api('/me', { role: 'legacyTest' })).json.data.mode).toBe('test');
    const me = await h.api('/me');
    expect(me.json.data).toMatchObject({ workspace: { id: expect.any(String), name: expect.any(String) }, mode: null });
    expect(me.json.data.scopes).toContain('keys:manage');
  });

  it('answers 403 for missing scopes', async () => {
    const conv = h.ids.conversationId;
    expectError(
      await h.api(`/conversations/${conv}/assign`, { method: 'POST', role: 'readOnly', json: { team: 'x' } }),
      403,
      'auth.missing_scope',
    );
    expectError(await h.api(`/customers/${h.ids.customerId}`, { method: 'DELETE', role: 'readOnly' }), 403);
    expectError(await h.api('/customers', { role: 'helpDelegated' }), 403);
    const m = h.ids.message;
    expectError(await h.api(`/messages/${m.messageId}/attachments/${m.storedIndex}/download`, { role: 'noAttachments' }), 403);
    expectError(await h.api(`/messages/${m.messageId}/attachments/${m.storedIndex}/download`, { role: 'helpDelegated' }), 403);
  });
});

describe('errors (spec part 7)', () => {
  it('gives every response an X-Request-Id and unknown routes 404 route.not_found', async () => {
    const ok = await h.api('/statuses');
    expect(ok.status).toBe(200);
    expect(String(ok.headers['x-request-id'])).toMatch(/^req_/);
    expectError(await h.api('/no/such/route'), 404, 'route.not_found');
    expectError(await h.api('/customers', { method: 'PATCH' }), 404, 'route.not_found');
    expectError(await h.api('/conversations/conv_missing/resolve', { method: 'POST' }), 404, 'route.not_found');
    const outside = await h.fx('/../nothing');
    expect(outside.status).toBe(404);
  });

  it('gives distinct request ids to distinct requests', async () => {
    const a = await h.api('/me');
    const b = await h.api('/me');
    expect(a.headers['x-request-id']).not.toBe(b.headers['x-request-id']);
  });

  it('lists statuses with types and priorities', async () => {
    const s = await h.api('/statuses');
    const types = Object.fromEntries(s.json.data.map((x: any) => [x.key, x.type]));
    expect(types).toMatchObject({
      open: 'active',
      pending: 'active',
      resolved: 'completed',
      closed: 'completed',
      waiting_on_customer: 'active',
      spam: 'completed',
    });
    const p = await h.api('/priorities');
    expect(p.json.data.map((x: any) => x.key)).toEqual(['low', 'normal', 'high', 'urgent']);
  });
});
