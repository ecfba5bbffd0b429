/**
 * A nearly empty workspace, and customers with only a phone (name, email and company: required-ness "not
 * shown"). The cursor checks failed a workspace of two customers ("a nextCursor with limit=2"), search
 * crashed with fewer than four searchable customers and failed when it sampled a phone-only one, and the
 * external-id filter passed having tried only an unknown id. Too little data is now inconclusive, naming
 * what to add; phone-only customers are no search samples; the faults are still caught around them.
 */
import { describe, expect, it } from 'vitest';
import { startReferenceServer } from '../../src/reference/index.js';
import type { TargetFileInput } from '../../src/target/schema.js';
import type { ProxiedRequest, ProxyHook } from '../checks/rewriting-proxy.js';
import { proxiedReference, verdicts } from '../support/proxied-conformance.js';

const ref = proxiedReference(() => startReferenceServer({ seed: 32, budgets: { read: 1e7, write: 1e7, windowSeconds: 60 } }));

/** The target as a deployment without a fixtures API writes it (ids and pools only). */
const idsOnly = (t: TargetFileInput): TargetFileInput => ({ ...t, fixtures: { ids: t.fixtures?.ids ?? {} } });
const params = (req: ProxiedRequest): URLSearchParams => new URLSearchParams(req.path.split('?')[1] ?? '');
const isList = (req: ProxiedRequest): boolean => req.method === 'GET' && /^\/customers(\?|$)/.test(req.path);
const isUnfiltered = (req: ProxiedRequest): boolean => isList(req) && [...params(req).keys()].every((k) => k === 'limit' || k === 'cursor');

type Customer = Record<string, unknown>;

/** A workspace of two customers (the server's first two), paged by a position cursor; other lists pass through. */
function twoCustomers(): ProxyHook {
  return async (req, forward) => {
    const q = params(req);
    const limit = Number(q.get('limit') ?? 25);
    // out-of-range limits are the real server's to refuse
    if (!isUnfiltered(req) || !Number.isInteger(limit) || limit < 1 || limit > 100) return forward();
    const r = await fetch(`${ref.server.baseUrl}/customers?limit=2`, {
      headers: { authorization: req.headers.authorization ?? '' },
      signal: AbortSignal.timeout(10_000),
    });
    const two = ((await r.json()) as { data: Customer[] }).data;
    const cursor = q.get('cursor');
    if (cursor !== null && !/^pos-1$/.test(cursor))
      return {
        status: 400,
        headers: { 'content-type': 'application/json' },
        json: { error: { code: 'request.invalid_cursor', message: 'bad cursor', requestId: 'req_proxy' } },
      };
    const from = cursor ? 1 : 0;
    const data = two.slice(from, from + limit);
    const more = from + limit < two.length;
    return {
      status: 200,
      headers: { 'content-type': 'application/json' },
      json: { data, hasMore: more, nextCursor: more ? `pos-${from + limit}` : null },
    };
  };
}

/** Every customer list answer with `strip` applied to its items. */
function stripping(strip: (c: Customer, i: number) => Customer): ProxyHook {
  return async (req, forward) => {
    const a = await forward();
    if (!isList(req) || !a.json || !Array.isArray((a.json as { data?: unknown }).data)) return a;
    const page = a.json as { data: Customer[] };
    return { ...a, json: { ...page, data: page.data.map(strip) } };
  };
}

/** A customer with only a phone: no name, email or company (all optional as far as the spec shows). */
const phoneOnly = (c: Customer): Customer => {
  const { name: _n, email: _e, company: _c, ...rest } = c;
  return { ...rest, phone: '+4915112345678' };
};

describe('a workspace of two customers', () => {
  const CURSOR_CHECKS = ['pagination.tampered-cursor', 'pagination.foreign-cursor', 'pagination.cursor-url-encoding'];

  it('the cursor checks are inconclusive, naming what to add; traversal, has-more and search give no finding', async () => {
    const out = await ref.run(twoCustomers(), {
      checks: [...CURSOR_CHECKS, 'pagination.traversal', 'pagination.has-more', 'pagination.search'],
      runs: 2,
      edit: idsOnly,
    });
    expect(out.findings).toEqual([]);
    for (const id of CURSOR_CHECKS) {
      const c = out.checks.find((x) => x.checkId === id)!;
      expect(c.status).toBe('inconclusive');
      expect(c.reason).toBe('the customer list holds 2 customers: a page of 2 has no next cursor to use');
      expect(c.remedy).toMatch(/^at least three customers/);
    }
    expect(out.checks.filter((c) => c.status === 'error')).toEqual([]);
  }, 60_000);

  it('a bigger list that gives no cursor at limit=2 still fails', async () => {
    const out = await ref.run(
      async (req, forward) => {
        const a = await forward();
        if (!isUnfiltered(req) || params(req).get('limit') !== '2') return a;
        const page = a.json as { data: Customer[] };
        return { ...a, json: { ...page, hasMore: false, nextCursor: null } };
      },
      { checks: ['pagination.cursor-url-encoding'], runs: 1, edit: idsOnly },
    );
    expect(out.findings.map((f) => [f.clause, f.actual])).toEqual([
      ['4.4.has-more', expect.stringMatching(/while a page of 100 lists \d+ customers$/)],
    ]);
  }, 60_000);
});

describe('phone-only customers', () => {
  it('are not sampled by pagination.search: no finding, and the case-sensitive search fault is still caught', async () => {
    const half = stripping((c, i) => (i % 2 ? phoneOnly(c) : c));
    const clean = await ref.run(half, { checks: ['pagination.search'], runs: 5, edit: idsOnly });
    expect(verdicts(clean)).toEqual({ 'pagination.search': 'passed' });
    const broken = await ref.run(half, { checks: ['pagination.search'], runs: 5, edit: idsOnly, faults: ['search-case-sensitive'] });
    expect(broken.findings.map((f) => f.clause)).toContain('4.4.search');
  }, 60_000);

  it('a first page of phone-only customers leaves nothing to search for: inconclusive, naming what to add', async () => {
    const out = await ref.run(stripping(phoneOnly), { checks: ['pagination.search'], runs: 1, edit: idsOnly });
    expect(out.findings).toEqual([]);
    expect(out.checks[0]).toMatchObject({
      status: 'inconclusive',
      reason: expect.stringMatching(/has a name, email or company of 3 characters or more/),
      remedy: expect.stringMatching(/^customers with a name, email or company/),
    });
  }, 60_000);
});

describe('pagination.external-id without a listed externalId', () => {
  it('is inconclusive naming what to add, never passed', async () => {
    const out = await ref.run(
      stripping(({ externalId: _x, ...c }) => c),
      { checks: ['pagination.external-id'], runs: 1, edit: idsOnly },
    );
    expect(out.findings).toEqual([]);
    expect(out.checks[0]).toMatchObject({
      status: 'inconclusive',
      reason: expect.stringMatching(/no customer on the first page of the customer list has an externalId/),
      remedy: expect.stringMatching(/^customers with an externalId/),
    });
  }, 60_000);
});
