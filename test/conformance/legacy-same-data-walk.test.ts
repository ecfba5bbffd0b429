/**
 * auth.legacy-same-data compares the whole customer list (a bounded walk), not its first page: a difference
 * anywhere fails; a walk cut at its page bound passes naming what it did not compare; an admin list that
 * cannot be read (or is empty) makes it inconclusive; a legacy key's list answered 503 is named as not tried.
 */
import { describe, expect, it } from 'vitest';
import { startReferenceServer } from '../../src/reference/index.js';
import type { ProxiedRequest } from '../checks/rewriting-proxy.js';
import { proxiedReference, unavailable, verdict } from '../support/proxied-conformance.js';

const BUDGETS = { read: 1_000_000, write: 1_000_000, windowSeconds: 60 };
const CHECK = ['auth.legacy-same-data'];
const ref = proxiedReference(() => startReferenceServer({ seed: 4, budgets: BUDGETS }));

type Keys = Record<string, { key: string }>;
const keys = (): Keys => ref.server.target.keys as Keys;
const isRole = (r: ProxiedRequest, role: string): boolean => r.headers.authorization === `Bearer ${keys()[role]!.key}`;
const isList = (r: ProxiedRequest): boolean => r.method === 'GET' && r.path.startsWith('/customers?');
type Page = { data: Array<{ id: string }>; hasMore: boolean; nextCursor: string | null };

describe('auth.legacy-same-data', () => {
  it('the clean server: the whole list compared, passed without a note', async () => {
    const out = await ref.run((_req, forward) => forward(), { checks: CHECK, runs: 1 });
    expect(verdict(out)).toBe('passed');
  });

  it('a pk_test_ key whose list lacks one customer past the first 20 fails', async () => {
    const out = await ref.run(
      async (req, forward) => {
        const a = await forward();
        if (!isRole(req, 'legacyTest') || !isList(req)) return a;
        const page = a.json as Page;
        return { ...a, json: { ...page, data: page.data.filter((_c, i) => i !== 40) } };
      },
      { checks: CHECK, runs: 1 },
    );
    expect(out.findings.map((f) => `${f.clause}: ${f.expected}; ${f.actual}`).join('\n')).toMatch(
      /5\.auth\.legacy-no-isolation: the legacyTest key to list the same customers .*; missing cus_\w+ \(1 of /,
    );
  });

  it('a list that never ends (every page says hasMore): compared up to the page bound, the rest named as not compared', async () => {
    let n = 0;
    const out = await ref.run(
      async (req, forward) => {
        if (!isList(req)) return forward();
        // the first page again, for every cursor: the proxy cannot change the path, so it fetches it itself
        const r = await fetch(`${ref.server.target.baseUrl}/customers?limit=100`, {
          headers: { authorization: req.headers.authorization! },
          signal: AbortSignal.timeout(10_000),
        });
        const page = (await r.json()) as Page;
        return {
          status: 200,
          headers: { 'content-type': 'application/json' },
          json: { ...page, hasMore: true, nextCursor: `spgate-endless-${++n}` },
        };
      },
      { checks: CHECK, runs: 1 },
    );
    expect(out.findings).toEqual([]);
    expect(verdict(out)).toMatch(/^passed: not tried: customers beyond the first 30 pages/);
  });

  it('the admin list answered 503: inconclusive', async () => {
    const out = await ref.run(async (req, forward) => (isRole(req, 'admin') && isList(req) ? unavailable() : forward()), {
      checks: CHECK,
      runs: 1,
    });
    expect(verdict(out)).toMatch(/^inconclusive: the admin key's customer list answered HTTP 503/);
  });

  it('the pk_live_ list answered 503: that key named as not tried, the other judged', async () => {
    const out = await ref.run(async (req, forward) => (isRole(req, 'legacyLive') && isList(req) ? unavailable() : forward()), {
      checks: CHECK,
      runs: 1,
    });
    expect(verdict(out)).toMatch(/^passed: not tried: the legacyLive key \(its customer list answered HTTP 503/);
  });
});
