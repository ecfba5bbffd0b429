/**
 * Against a target that holds only ids (no fixtures API), the pagination checks judged less than they
 * claimed: has-more accepted nextCursor "" at the end of a standard list (4.11: null), traversal could not
 * see an item dropped at a page boundary, stable-under-writes deleted pool customers that the walk had
 * not reached (an offset cursor shifts only past deleted items it has counted), and the articles walk
 * passed a Help Center of one page without ever following `after`. Each now judges it or says why not.
 */
import { describe, expect, it } from 'vitest';
import { startReferenceServer } from '../../src/reference/index.js';
import type { ProxyHook } from '../checks/rewriting-proxy.js';
import { proxiedReference, verdicts } from '../support/proxied-conformance.js';

const ref = proxiedReference(() => startReferenceServer({ seed: 4, fixturesApi: false }));
const forward: ProxyHook = (_req, fwd) => fwd();

/** Rewrites the JSON body of the answers `when` selects. */
function rewriting(
  when: (req: { method: string; path: string }) => boolean,
  edit: (json: Record<string, unknown>) => Record<string, unknown>,
): ProxyHook {
  return async (req, fwd) => {
    const a = await fwd();
    if (!when(req) || !a.json || typeof a.json !== 'object') return a;
    return { ...a, json: edit(a.json as Record<string, unknown>) };
  };
}

describe('pagination against an ids-only target', () => {
  it('the target has no fixtures API', () => {
    expect(ref.server.target.fixtures?.api).toBeUndefined();
  });

  it('has-more: nextCursor "" ending the customer list fails (4.11 says null); the articles list may end with ""', async () => {
    const out = await ref.run(forward, { checks: ['pagination.has-more'], runs: 1, faults: ['last-page-empty-cursor'] });
    expect(out.findings.map((f) => [f.clause, f.actual])).toContainEqual(['4.4.has-more', 'hasMore false, nextCursor ""']);
    const articles = await ref.run(
      rewriting(
        (r) => r.path.startsWith('/authoring/articles'),
        (j) => ({ ...j, nextCursor: j.nextCursor ?? '' }),
      ),
      { checks: ['pagination.articles'], runs: 1 },
    );
    expect(verdicts(articles)).toEqual({ 'pagination.articles': 'passed' });
  });

  it('traversal: an item dropped at every page boundary fails against the walk in pages of 100', async () => {
    const dropFirstOfLaterPages = rewriting(
      (r) => r.path.startsWith('/customers?') && r.path.includes('cursor='),
      (j) => ({ ...j, data: (j.data as unknown[]).slice(1) }),
    );
    const out = await ref.run(dropFirstOfLaterPages, { checks: ['pagination.traversal'], runs: 2 });
    expect(out.findings.map((f) => f.expected)).toEqual([expect.stringMatching(/^the same items in pages of \d+ as in pages of 100$/)]);
  });

  it('stable-under-writes: an offset cursor fails once a pool customer before the cursor is deleted', async () => {
    // Every run hands out the same first pool customers: this server's are deleted only under the fault.
    const out = await ref.run(forward, { checks: ['pagination.stable-under-writes'], runs: 1, faults: ['cursor-offset'] });
    expect(out.findings.map((f) => f.actual)).toEqual([expect.stringMatching(/^skipped cus_/)]);
  });

  it('articles: a Help Center of one page is inconclusive, naming what would let it judge', async () => {
    const onePage = rewriting(
      (r) => r.path.startsWith('/authoring/articles'),
      (j) => ({ ...j, nextCursor: null }),
    );
    const out = await ref.run(onePage, { checks: ['pagination.articles'], runs: 1 });
    expect(out.checks[0]).toMatchObject({
      status: 'inconclusive',
      reason: expect.stringMatching(/^the Help Center fits on one page of the articles list \(\d+ articles\)/),
      remedy: expect.stringMatching(/more articles than one page/),
    });
  });

  it('limit-bounds: a page of 101 items is a spec error even when its shape is off', async () => {
    // limit=101 honoured: 101 customers, and no hasMore (a shape the page checks would not read as a page).
    const oversized: ProxyHook = async (req, fwd) => {
      if (!req.path.startsWith('/customers?') || !req.path.includes('limit=101')) return fwd();
      const a = await fwd();
      return { ...a, status: 200, json: { data: Array.from({ length: 101 }, (_, i) => ({ id: `cus_x${i}` })) } };
    };
    const out = await ref.run(oversized, { checks: ['pagination.limit-bounds'], runs: 1 });
    expect(out.findings.filter((f) => f.clause === '4.4.limit.max').map((f) => [f.severity, f.actual])).toEqual([
      ['error', 'HTTP 200 with 101 items'],
    ]);
  });
});

describe('stable-under-writes against a keyset cursor', () => {
  const clean = proxiedReference(() => startReferenceServer({ seed: 4, fixturesApi: false }));
  it('passes', async () => {
    const out = await clean.run(forward, { checks: ['pagination.stable-under-writes'], runs: 1 });
    expect(verdicts(out)).toEqual({ 'pagination.stable-under-writes': 'passed' });
  });
});
