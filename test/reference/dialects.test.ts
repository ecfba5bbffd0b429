/**
 * Each dialect's choices, observed over HTTP: where the resolve operation lives, the filter names, the
 * delete answer, the statuses of errors, the turn status values, the cursor format (tampering → 400 in
 * both), the articles list's end marker and the extras. Every dialect still does what the spec says.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DIALECT_NAMES, type DialectName } from '../../src/reference/index.js';
import { idemKey, startHarness, type Harness } from './helpers.js';

const harnesses = new Map<DialectName, Harness>();
beforeAll(async () => {
  for (const d of DIALECT_NAMES) harnesses.set(d, await startHarness({ dialect: d, budgets: { read: 100_000, write: 100_000 } }));
});
afterAll(async () => {
  await Promise.all([...harnesses.values()].map((x) => x.close()));
});
const H = (d: DialectName): Harness => harnesses.get(d)!;
const A = (h: Harness): any => h.server.target.assumptions;
const resolvePath = (h: Harness, id: string): string => A(h).resolvePath.replace('{conversationId}', id);
const turnPath = (t: { sessionId: string; turnId: string }): string => `/ai/assistant/sessions/${t.sessionId}/turns/${t.turnId}`;

describe.each(DIALECT_NAMES)('dialect %s keeps what the spec says', (d) => {
  it('resolves with a POST on its resolve path and nowhere else; an active key is refused with the dialect status', async () => {
    const h = H(d);
    const id = h.ids.pools.conversations[0];
    const ok = await h.api(resolvePath(h, id), { method: 'POST', json: {} });
    expect(ok.status).toBe(200);
    expect(ok.json.status).toBe('resolved');
    const active = await h.api(resolvePath(h, id), { method: 'POST', json: { status: 'open' } });
    expect(active.status).toBe(A(h).statuses.invalidResolutionStatus);
    expect(active.json.error.code).toBe('conversations.invalid_resolution_status');
    const unknown = await h.api(resolvePath(h, id), { method: 'POST', json: { status: 'bogus' } });
    expect(unknown.status).toBe(A(h).statuses.unknownStatus);
    expect(unknown.json.error.code).toBe('conversations.unknown_status');
    if (A(h).resolvePath !== '/conversations/{conversationId}/resolve') {
      expect((await h.api(`/conversations/${id}/resolve`, { method: 'POST', json: {} })).status).toBe(404);
    }
  });

  it('filters customers by its parameter names; both identity parameters are needed', async () => {
    const h = H(d);
    const p = A(h).params;
    const first = (await h.api('/customers?limit=1')).json.data[0];
    expect((await h.api(`/customers?${p.externalId}=${first.externalId}`)).json.data.map((c: any) => c.id)).toEqual([first.id]);
    const byEmail = await h.api(`/customers?${p.search}=${encodeURIComponent(first.email.toUpperCase())}`);
    expect(byEmail.json.data.map((c: any) => c.id)).toContain(first.id);
    const pair = await h.api(`/customers?${p.identityType}=email&identityIdentifier=${encodeURIComponent(first.email)}`);
    expect(pair.json.data.map((c: any) => c.id)).toEqual([first.id]);
    expect((await h.api(`/customers?identityIdentifier=${encodeURIComponent(first.email)}`)).status).toBe(A(h).statuses.validation);
    expect((await h.api('/customers?limit=0')).status).toBe(A(h).statuses.validation);
  });

  it('deletes a pool customer with its stated success status, idempotently, and stops listing it', async () => {
    const h = H(d);
    const id = h.ids.pools.customers[0];
    const first = await h.api(`/customers/${id}`, { method: 'DELETE' });
    expect(A(h).customerDeleteStatus).toContain(first.status);
    if (first.status === 200) expect(first.json.data.id).toBe(id);
    else expect(first.text).toBe('');
    expect((await h.api(`/customers/${id}`, { method: 'DELETE' })).status).toBe(first.status);
    const all = (await h.api('/customers?limit=100')).json.data.map((c: any) => c.id);
    expect(all).not.toContain(id);
  });

  it('reports turns in its status values: pending, cancelled on cancel, completed', async () => {
    const h = H(d);
    const ts = A(h).turnStatus;
    const pending = h.ids.pools.pendingTurns[0];
    expect((await h.api(turnPath(pending))).json.data.status).toBe(ts.pending);
    const cancel = await h.api(`${turnPath(pending)}/cancel`, { method: 'POST' });
    expect(cancel.status).toBe(200);
    expect(cancel.json.data.status).toBe(ts.cancelled);
    expect((await h.api(`${turnPath(pending)}/cancel`, { method: 'POST' })).json.data.status).toBe(ts.cancelled);
    expect((await h.api(turnPath(h.ids.completedTurn))).json.data.status).toBe(ts.completed);
    expect((await h.api(`${turnPath(h.ids.completedTurn)}/cancel`, { method: 'POST' })).status).toBe(409);
  });

  it('walks customers with its cursors and refuses a tampered, truncated or foreign cursor with 400', async () => {
    const h = H(d);
    const seen = new Set<string>();
    let cursor: string | null = null;
    for (let page = 0; page < 20; page++) {
      const r: any = await h.api(`/customers?limit=30${cursor ? `&cursor=${encodeURIComponent(cursor)}` : ''}`);
      for (const c of r.json.data) {
        expect(seen.has(c.id)).toBe(false);
        seen.add(c.id);
      }
      if (!r.json.hasMore) {
        expect(r.json.nextCursor).toBeNull();
        break;
      }
      cursor = r.json.nextCursor;
    }
    expect(seen.size).toBeGreaterThanOrEqual(99);
    const c: string = (await h.api('/customers?limit=2')).json.nextCursor;
    const flipped = c.slice(0, -3) + (c.at(-3) === 'A' ? 'B' : 'A') + c.slice(-2);
    for (const bad of [flipped, c.slice(0, -4), c + 'x', 'garbage']) {
      const r = await h.api(`/customers?limit=2&cursor=${encodeURIComponent(bad)}`);
      expect(r.status, bad).toBe(400);
    }
    const foreign = await h.api(`/customers?limit=2&${A(h).params.search}=example&cursor=${encodeURIComponent(c)}`);
    expect(foreign.status).toBe(400);
  });

  it('ends the articles list with nextCursor null or "" and refuses a tampered after', async () => {
    const h = H(d);
    let after = '';
    let pages = 0;
    let last: unknown;
    do {
      const r: any = await h.api(`/authoring/articles?limit=15${after ? `&after=${encodeURIComponent(after)}` : ''}`);
      expect(r.status).toBe(200);
      expect('hasMore' in r.json).toBe(false);
      last = r.json.nextCursor;
      after = (last as string | null) ?? '';
      pages++;
    } while (after && pages < 10);
    expect(last).toBe(d === 'alt-paths' ? '' : null);
    const c: string = (await h.api('/authoring/articles?limit=5')).json.nextCursor;
    expect((await h.api(`/authoring/articles?after=${encodeURIComponent(c.slice(0, -2))}`)).status).toBe(400);
  });
});

describe('dialect-specific choices', () => {
  it('strict-validation: body fields 422, query parameters and unparseable JSON 400, stale revision 412, deleted message 410', async () => {
    const h = H('strict-validation');
    const conv = h.ids.pools.conversations[1];
    expect((await h.api(`/conversations/${conv}/assign`, { method: 'POST', json: { team: 5 } })).status).toBe(422);
    expect((await h.api(`/conversations/${conv}/assign`, { method: 'POST', json: {} })).status).toBe(422);
    expect(
      (await h.api(`/conversations/${conv}/assign`, { method: 'POST', body: '{', headers: { 'content-type': 'application/json' } })).status,
    ).toBe(400);
    expect((await h.api('/customers?limit=101')).status).toBe(400);
    const col = h.ids.pools.collections[0].id;
    const put = (body: unknown) =>
      h.api(`/authoring/collections/${col}`, {
        method: 'PUT',
        role: 'helpDelegated',
        json: body,
        headers: { 'idempotency-key': idemKey() },
      });
    expect((await put({ expectedRevision: 1, slug: 'no-name' })).status).toBe(422);
    expect((await put({ name: 'A', slug: 'a', expectedRevision: 99 })).status).toBe(412);
    expect((await put({ name: 'A', slug: 'a', expectedRevision: 1 })).json.revision).toBe(2);
    const del = await h.api(`/messages/${h.ids.deletedMessageId}/attachments/0/download`);
    expect(del.status).toBe(410);
    expect(A(h).statuses).toMatchObject({ validation: 400, staleRevision: 412, deletedAttachment: 410, unknownStatus: 400 });
  });

  it("strict-validation and sliding-window refuse another connection's chat with 403, the others hide it with 404", async () => {
    for (const d of DIALECT_NAMES) {
      const h = H(d);
      const r = await h.api(turnPath(h.ids.pendingTurn), { role: 'secondConnection' });
      expect(r.status, d).toBe(d === 'strict-validation' || d === 'sliding-window' ? 403 : 404);
    }
  });

  it('opaque cursors carry no readable position; signed cursors are base64url JSON with a signature', async () => {
    const opaque: string = (await H('strict-validation').api('/customers?limit=2')).json.nextCursor;
    expect(opaque).toMatch(/^c_[A-Za-z0-9]{24}$/);
    const signed: string = (await H('default').api('/customers?limit=2')).json.nextCursor;
    expect(JSON.parse(Buffer.from(signed.split('.')[0]!, 'base64url').toString()).e).toBe('customers');
  });

  it('alt-paths and sliding-window add extra fields to resources and error.details to errors', async () => {
    for (const d of DIALECT_NAMES) {
      const h = H(d);
      const extras = d === 'alt-paths' || d === 'sliding-window';
      const customer = (await h.api('/customers?limit=1')).json.data[0];
      expect(customer.object === 'customer', d).toBe(extras);
      const conv = (await h.api(`/conversations/${h.ids.conversationId}`)).json;
      expect(conv.object === 'conversation', d).toBe(extras);
      const err = (await h.api('/nothing')).json.error;
      expect(err.code).toBe('route.not_found');
      expect(typeof err.requestId).toBe('string');
      expect(err.details !== undefined, d).toBe(extras);
    }
  });

  it('the limiter model of each dialect emits its headers over HTTP (small budget, a long window so no boundary falls inside)', async () => {
    for (const d of DIALECT_NAMES) {
      const h = await startHarness({ dialect: d, budgets: { read: 3, write: 3, windowSeconds: 30 } });
      try {
        const rs = [];
        for (let i = 0; i < 4; i++) rs.push(await h.api('/me'));
        expect(
          rs.map((r) => r.status),
          d,
        ).toEqual([200, 200, 200, 429]);
        expect(
          rs.slice(0, 3).map((r) => Number(r.headers['ratelimit-remaining'])),
          d,
        ).toEqual([2, 1, 0]);
        for (const r of rs) {
          expect(Number(r.headers['ratelimit-limit'])).toBe(3);
          expect(Number(r.headers['ratelimit-reset'])).toBeGreaterThanOrEqual(1);
          expect(Number(r.headers['ratelimit-reset'])).toBeLessThanOrEqual(30);
        }
        expect(Number(rs[3]!.headers['retry-after'])).toBeGreaterThanOrEqual(1);
      } finally {
        await h.close();
      }
    }
  });
});
