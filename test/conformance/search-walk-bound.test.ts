/**
 * pagination.search walks each search's listing (10 pages of 100 at most). A walk cut at that bound says
 * nothing of the customers it did not reach, and such a case passed whole ("too broad to compare"), so a
 * search that ignored its text passed on a big enough workspace. Now the customers a cut walk listed must
 * still match; only the missing ones go unjudged, the outcome says how many searches were cut, and when
 * every search was cut the check is inconclusive naming that.
 */
import { describe, expect, it } from 'vitest';
import { startReferenceServer } from '../../src/reference/index.js';
import type { ConformanceOutcome } from '../../src/conformance/run.js';
import type { ProxiedAnswer, ProxyHook, ProxiedRequest } from '../checks/rewriting-proxy.js';
import { proxiedReference, verdict } from '../support/proxied-conformance.js';

const CHECK = 'pagination.search';
const ref = proxiedReference(() => startReferenceServer({ seed: 2, budgets: { read: 1_000_000, write: 1_000_000, windowSeconds: 60 } }));

const MORE = 'spgate-more';
const isSearch = (req: ProxiedRequest): boolean =>
  req.method === 'GET' && req.path.startsWith('/customers?') && new URLSearchParams(req.path.split('?')[1]).has('q');

/**
 * Search listings that never end (hasMore on every page, as on a workspace with more matches than the walk
 * reads): each page is the server's first page of `query(q)` (the same search, or the whole list).
 */
function endless(query: (q: URLSearchParams) => URLSearchParams): ProxyHook {
  return async (req, forward) => {
    if (!isSearch(req)) return forward();
    const q = new URLSearchParams(req.path.split('?')[1]);
    q.delete('cursor');
    const r = await fetch(`${ref.server.baseUrl}/customers?${query(q).toString()}`, {
      headers: { authorization: req.headers.authorization ?? '' },
      signal: AbortSignal.timeout(10_000),
    });
    const body = (await r.json()) as Record<string, unknown>;
    const a: ProxiedAnswer = { status: r.status, headers: { 'content-type': 'application/json' }, json: body };
    return r.status === 200 ? { ...a, json: { ...body, hasMore: true, nextCursor: MORE } } : a;
  };
}

const run = (hook: ProxyHook): Promise<ConformanceOutcome> => ref.run(hook, { checks: [CHECK], runs: 3 });

describe('pagination.search over walks cut at their bound', () => {
  it('passes through a faithful proxy (every walk whole, nothing noted)', async () => {
    const out = await run((_req, forward) => forward());
    expect(out.findings).toEqual([]);
    expect(verdict(out)).toBe('passed');
  });

  it('fails a search that ignores its text, though no walk reaches the end', async () => {
    const out = await run(
      endless((q) => {
        q.delete('q');
        return q;
      }),
    );
    expect(out.checks[0]!.status).toBe('failed');
    expect(out.findings[0]!.expected).toMatch(/to list only matching customers/);
  });

  it('is inconclusive, saying so, when every search lists only matches but none reaches its end', async () => {
    const out = await run(endless((q) => q));
    expect(out.findings).toEqual([]);
    expect(verdict(out)).toMatch(/^inconclusive: every search listed more than 10 pages of 100 .*missing customers were not judged/);
  });
});
