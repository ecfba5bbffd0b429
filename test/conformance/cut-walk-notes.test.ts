/**
 * pagination.traversal (on a target without a fixtures API: the whole customer list) and pagination.has-more
 * walk the unfiltered list up to a page bound, and on a big workspace judge the walked prefix only. They
 * passed without saying so. Now a passing traversal notes how many of its walks were cut (it compares the
 * walked prefix with a walk in pages of 100, so a cut walk still judges what it saw), has-more notes
 * when no walk saw a last page, and pagination.foreign-cursor notes the articles cursor it could not try.
 * A cut walk that repeats an item still fails: the prefix is judged.
 */
import { describe, expect, it } from 'vitest';
import { startReferenceServer } from '../../src/reference/index.js';
import type { ConformanceOutcome } from '../../src/conformance/run.js';
import type { TargetFileInput } from '../../src/target/schema.js';
import type { ProxiedRequest, ProxyHook } from '../checks/rewriting-proxy.js';
import { proxiedReference, verdict } from '../support/proxied-conformance.js';

const ref = proxiedReference(() => startReferenceServer({ seed: 5, budgets: { read: 1_000_000, write: 1_000_000, windowSeconds: 60 } }));

/** The target as a deployment without a fixtures API would describe it (its ids kept). */
const noFixturesApi = (t: TargetFileInput): TargetFileInput => ({ ...t, fixtures: { ids: t.fixtures?.ids ?? {} } });
const params = (req: ProxiedRequest): URLSearchParams => new URLSearchParams(req.path.split('?')[1] ?? '');
const isUnfiltered = (req: ProxiedRequest): boolean =>
  req.method === 'GET' && /^\/customers(\?|$)/.test(req.path) && [...params(req).keys()].every((k) => k === 'limit' || k === 'cursor');

/** Items in the big list a proxy serves (more than any walk reads: 40 pages of 100). */
const BIG = 100_000;

/**
 * The unfiltered customer list of a big workspace: BIG customers, each the server's first customer under
 * another id, in keyset pages (the cursor is the next offset). `repeat` lists each page's first item again
 * on the next page (a broken keyset).
 */
function bigList(repeat = false, email = true): ProxyHook {
  return async (req, forward) => {
    if (!isUnfiltered(req)) return forward();
    const q = params(req);
    const limit = Math.min(100, Number(q.get('limit') ?? 25));
    const from = Number(q.get('cursor') ?? 0);
    const r = await fetch(`${ref.server.baseUrl}/customers?limit=1`, {
      headers: { authorization: req.headers.authorization ?? '' },
      signal: AbortSignal.timeout(10_000),
    });
    const { email: realEmail, ...rest } = ((await r.json()) as { data: Array<Record<string, unknown>> }).data[0]!;
    const template = email ? { ...rest, email: realEmail } : rest;
    const ids = Array.from({ length: limit }, (_, i) => from + i - (repeat && from > 0 && i === 0 ? 1 : 0));
    const data = ids.map((n) => ({ ...template, id: `cus_big${n}` }));
    const next = from + limit < BIG ? String(from + limit) : null;
    return { status: 200, headers: { 'content-type': 'application/json' }, json: { data, hasMore: next !== null, nextCursor: next } };
  };
}

const run = (check: string, hook: ProxyHook, noApi = false): Promise<ConformanceOutcome> =>
  ref.run(hook, { checks: [check], runs: 3, ...(noApi ? { edit: noFixturesApi } : {}) });

describe('checks that judge a walked prefix of a long list say so', () => {
  it("pass without a note where the walks reach the list's end, and the whole list notes only the page sizes it could not read whole", async () => {
    expect(verdict(await run('pagination.traversal', (_r, f) => f()))).toBe('passed');
    // Without a fixtures API the whole list is walked: page sizes that read it within 40 pages are not noted.
    const whole = verdict(await run('pagination.traversal', (_r, f) => f(), true));
    const m = /^passed(?:: (\d+) of (\d+) traversals reached)?/.exec(whole);
    expect(m).not.toBeNull();
    if (m![1] !== undefined) expect(Number(m![1])).toBeLessThan(Number(m![2]));
    expect(verdict(await run('pagination.has-more', (_r, f) => f()))).toBe('passed');
  });

  it('pagination.traversal on a whole list no walk can finish judges the walked prefix and says so, and fails one that repeats an item', async () => {
    expect(verdict(await run('pagination.traversal', bigList(), true))).toBe(
      "passed: 3 of 3 traversals reached their bound (40 pages or 20 s) before the list's end: only the items walked were judged",
    );
    const broken = await run('pagination.traversal', bigList(true), true);
    expect(broken.checks[0]!.status).toBe('failed');
    expect(broken.findings[0]!.actual).toMatch(/^repeated: cus_big/);
  });

  it('pagination.has-more sees a last page through a search for one listed email, notes when it cannot, and fails a cut walk that repeats an item', async () => {
    expect(verdict(await run('pagination.has-more', bigList()))).toBe('passed');
    const stale = await ref.run(bigList(), { checks: ['pagination.has-more'], runs: 1, faults: ['has-more-stale'] });
    expect(stale.findings.map((f) => f.clause)).toContain('4.4.has-more');
    expect(verdict(await run('pagination.has-more', bigList(false, false)))).toBe(
      "passed: every walk (3) reached its page bound before the list's end: the pages walked were judged, a last page (hasMore false) was not seen",
    );
    const broken = await run('pagination.has-more', bigList(true));
    expect(broken.checks[0]!.status).toBe('failed');
  });

  it('pagination.foreign-cursor notes the articles cursor it could not try, and tries it when there is one', async () => {
    const isArticles = (req: ProxiedRequest): boolean => req.method === 'GET' && /^\/authoring\/articles(\?|$)/.test(req.path);
    const short = await run('pagination.foreign-cursor', async (req, forward) => {
      const a = await forward();
      return isArticles(req) && a.status === 200 ? { ...a, json: { ...(a.json as object), nextCursor: null } } : a;
    });
    expect(verdict(short)).toMatch(
      /^passed: an articles cursor on \/customers was not tried: GET \/authoring\/articles gave no nextCursor \(HTTP 200/,
    );
    expect(verdict(await run('pagination.foreign-cursor', (_r, f) => f()))).toBe('passed');
  });
});
