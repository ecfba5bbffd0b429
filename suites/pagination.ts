/**
 * Lists and cursors (spec 4.4, 4.10, 4.11): limit bounds, complete and stable traversal (also while items
 * are created and deleted), hasMore ⇔ nextCursor, tampered and foreign cursors, URL-encoded cursors,
 * search, the external-id filter, identity lookups and the articles list.
 */
import fc from 'fast-check';
import type { Exchange } from '../src/client/exchange.js';
import { defineSuite, type CheckFailure, type CheckOutcome, type SuiteContext } from '../src/conformance/suite.js';
import { runProperty } from '../src/conformance/property.js';
import { describeAnswer, expectStatus, fromViolation, runCase } from '../src/conformance/recorder.js';
import { freshMarker } from '../src/conformance/data.js';
import { asPage, cutWalk, duplicates, pageProblem, traverse } from '../src/conformance/paging.js';
import { applyTamper, equivalentCursors, tamperArb } from '../src/conformance/cursor-tamper.js';
import type { CustomerSeed } from '../src/conformance/fixtures.js';
import { checkRejectedWith } from '../src/checks/assumed-status.js';
import { cannotJudge } from './model/world.js';
import { WHOLE_LIST_PAGES, wholeListTraversal } from './model/whole-list-traversal.js';
import { stableWholeList } from './model/stable-whole-list.js';
import { listedCustomers, searchCheck } from './model/search-check.js';

const MAX_CREATED_DURING_WALK = 4;

function search(ctx: SuiteContext): string {
  return ctx.target.assumptions.params.search;
}

/** Creates `n` customers whose company carries the marker, so `search=marker` lists exactly them (fixtures API only). */
async function createMarked(ctx: SuiteContext, marker: string, n: number): Promise<string[]> {
  if (!ctx.fixtures) throw new Error('createMarked needs the fixtures API');
  const seeds: CustomerSeed[] = Array.from({ length: n }, (_, i) => ({
    name: `Spgate ${i}`,
    email: `c${i}@${marker}.test`,
    company: `${marker} co`,
  }));
  const made = await ctx.fixtures.createCustomers(seeds);
  return made.map((c) => c.id);
}

/**
 * The list a check walks: with a fixtures API, `n` fresh customers found by one search (their ids known);
 * otherwise the workspace's whole customer list, which needs no data of its own (ids not known).
 */
async function customerScope(ctx: SuiteContext, label: string, n: number): Promise<{ query: Record<string, string>; created?: string[] }> {
  if (!ctx.fixtures) return { query: {} };
  const m = await freshMarker(ctx, label);
  return { query: { [search(ctx)]: m }, created: await createMarked(ctx, m, n) };
}

function problemFailure(p: { clause: CheckFailure['clause']; expected: string; actual: string; exchanges: Exchange[] }): CheckFailure {
  return { ...p };
}

/** A cursor (hasMore true) for a marker query with small pages. */
async function validCursor(ctx: SuiteContext, query: Record<string, string>): Promise<{ cursor?: string; x: Exchange }> {
  const x = await ctx.send({ method: 'GET', path: '/customers', query: { ...query, limit: 2 } });
  const page = asPage(x);
  return { cursor: page?.hasMore && page.nextCursor ? page.nextCursor : undefined, x };
}

async function rejects400(
  io: Pick<SuiteContext, 'send'>,
  query: Record<string, string | number | undefined>,
  path = '/customers',
): Promise<{ ok: boolean; x: Exchange }> {
  const x = await io.send({ method: 'GET', path, query });
  return { ok: x.response?.status === 400, x };
}

/**
 * No cursor at limit=2: a failure where the check created 5 customers or a page of 100 lists 3 or more; on
 * a workspace that lists 2 customers or fewer, too little data (inconclusive, naming what to add).
 */
async function noCursor(ctx: SuiteContext, x: Exchange, query: Record<string, string> = {}): Promise<CheckOutcome> {
  const page = asPage(x);
  if (!ctx.fixtures && page && !page.hasMore && page.data.length <= 2) {
    const wide = await ctx.send({ method: 'GET', path: '/customers', query: { ...query, limit: 100 } });
    const all = asPage(wide)?.data.length;
    if (all !== undefined && all <= 2) {
      return {
        status: 'inconclusive',
        cases: 0,
        reason: `the customer list holds ${all} customer${all === 1 ? '' : 's'}: a page of 2 has no next cursor to use`,
        remedy: 'at least three customers in the workspace (or fixtures.api / fixtures.command, so the check creates its own)',
      };
    }
    return {
      status: 'failed',
      cases: 1,
      failures: [
        {
          ...noCursorFailure(x),
          actual: `${describeAnswer(x)}, while a page of 100 lists ${all ?? describeAnswer(wide)} customers`,
          exchanges: [x, wide],
        },
      ],
    };
  }
  return { status: 'failed', cases: 1, failures: [noCursorFailure(x)] };
}

function noCursorFailure(x: Exchange): CheckFailure {
  return {
    clause: '4.4.has-more',
    expected: 'a nextCursor with limit=2 (at least 3 customers listed)',
    actual: describeAnswer(x),
    exchanges: [x],
  };
}

export default defineSuite({
  name: 'pagination',
  description: 'Lists, cursors, filters and search (spec 4.4, 4.10, 4.11)',
  checks: [
    {
      id: 'pagination.limit-bounds',
      clause: '4.4.limit.max',
      title: 'limit is honoured within 1..100; pages never exceed 100 items; the default is 25',
      run: (ctx) =>
        runCase(ctx, async (t) => {
          // With created data 101 match, so every page is full; on the whole list a page is full when hasMore.
          const scope = await customerScope(ctx, 'lim', 101);
          const q = scope.query;
          const known = scope.created !== undefined;
          const full = (page: { data: unknown[]; hasMore: boolean }, n: number): boolean =>
            known ? page.data.length === n && page.hasMore : page.data.length === n || (!page.hasMore && page.data.length < n);
          const why = known ? ' (101 match)' : ' (or fewer on the last page)';
          const list = (limit: string | number | undefined) => ctx.send({ method: 'GET', path: '/customers', query: { ...q, limit } });
          const dflt = await list(undefined);
          const dpage = asPage(dflt);
          t.add(
            dpage && full(dpage, 25)
              ? undefined
              : {
                  clause: '4.4.limit.default',
                  expected: `without limit, a page of 25 items${why}`,
                  actual: dpage ? `${dpage.data.length} items, hasMore ${dpage.hasMore}` : describeAnswer(dflt),
                  exchanges: [dflt],
                },
          );
          for (const n of [1, 100]) {
            const x = await list(n);
            const page = asPage(x);
            t.add(
              page && full(page, n)
                ? undefined
                : {
                    expected: `limit=${n}: ${n} items${why}`,
                    actual: page ? `${page.data.length} items, hasMore ${page.hasMore}` : describeAnswer(x),
                    exchanges: [x],
                  },
            );
          }
          for (const bad of [101, 0, -1, 2.5, 'abc', 1000]) {
            const x = await list(bad);
            // More than 100 items breaks the spec's maximum (4.4, 4.11, 8) whatever else the page shows; how an
            // out-of-range limit is refused (or clamped) is the assumed part.
            const data = x.response && x.response.status < 300 ? (x.response.json as { data?: unknown } | undefined)?.data : undefined;
            if (Array.isArray(data) && data.length > 100) {
              t.add({
                clause: '4.4.limit.max',
                expected: `limit=${bad}: never more than 100 items`,
                actual: `HTTP ${x.response!.status} with ${data.length} items`,
                exchanges: [x],
              });
            } else {
              t.add(
                expectStatus(
                  x,
                  ctx.target.assumptions.statuses.validation,
                  `limit=${bad} (outside 1..100 or not an integer)`,
                  '4.4.limit.out-of-range',
                ),
              );
            }
          }
          t.merge(
            await runProperty(
              ctx,
              fc.integer({ min: 1, max: 100 }),
              async (n, rec) => {
                const x = await rec.send({ method: 'GET', path: '/customers', query: { ...q, limit: n } });
                const page = asPage(x);
                rec.require(page !== undefined, `limit=${n}: HTTP 200 with a page`, () => describeAnswer(x));
                const p = pageProblem(x, page!, n);
                if (p) rec.require(false, p.expected, () => p.actual, undefined, p.clause);
                rec.require(full(page!, n), `limit=${n}: ${n} items${why}`, () => `${page!.data.length} items, hasMore ${page!.hasMore}`);
              },
              known ? {} : { maxRuns: 10 },
            ),
          );
        }),
    },
    {
      id: 'pagination.traversal',
      clause: '4.4.cursor.traversal',
      title: 'Following nextCursor yields every item exactly once, in the same order twice',
      async run(ctx) {
        if (!ctx.fixtures) return wholeListTraversal(ctx);
        const base = await freshMarker(ctx, 'trv');
        let exec = 0;
        return runProperty(
          ctx,
          fc.record({ n: fc.integer({ min: 0, max: 30 }), limit: fc.integer({ min: 1, max: 12 }) }),
          async ({ n, limit }, rec) => {
            const m = `${base}x${exec++}`;
            const created = n > 0 ? await createMarked(ctx, m, n) : [];
            const walk = () => traverse((s) => rec.send(s), { path: '/customers', query: { [search(ctx)]: m }, limit, maxPages: n + 3 });
            const a = await walk();
            const problem = a.problem;
            if (problem) rec.require(false, problem.expected, () => problem.actual, undefined, problem.clause);
            const dup = duplicates(a.ids);
            rec.require(dup.length === 0, 'every item exactly once', () => `repeated: ${dup.join(', ')}`);
            const missing = created.filter((id) => !a.ids.includes(id));
            rec.require(
              missing.length === 0 && a.ids.length === created.length,
              `the ${created.length} created items`,
              () => `${a.ids.length} items, missing ${missing.join(', ') || 'none'}`,
            );
            const b = await walk();
            rec.require(
              b.ids.join(',') === a.ids.join(','),
              'the same order on a second traversal',
              () => `first ${a.ids.slice(0, 5).join(',')}…, then ${b.ids.slice(0, 5).join(',')}…`,
            );
          },
          {
            examples: [
              { n: 5, limit: 2 },
              { n: 4, limit: 4 },
            ],
          },
        );
      },
    },
    {
      id: 'pagination.stable-under-writes',
      clause: '4.4.cursor.stable-under-writes',
      title: 'Items created or deleted between pages do not make the traversal skip or repeat others',
      needs: { writes: true, data: { customer: 2 } },
      async run(ctx) {
        if (!ctx.fixtures) return stableWholeList(ctx);
        const base = await freshMarker(ctx, 'stw');
        let exec = 0;
        const op = fc.record({ deleteSeen: fc.boolean(), deleteUnseen: fc.boolean(), create: fc.integer({ min: 0, max: 2 }) });
        const arb = fc.record({
          n: fc.integer({ min: 4, max: 20 }),
          limit: fc.integer({ min: 1, max: 5 }),
          ops: fc.array(op, { minLength: 1, maxLength: 6 }),
        });
        return runProperty(
          ctx,
          arb,
          async ({ n, limit, ops }, rec) => {
            const m = `${base}x${exec++}`;
            const created = await createMarked(ctx, m, n);
            const deleted = new Set<string>();
            let made = 0;
            const t = await traverse((s) => rec.send(s), {
              path: '/customers',
              query: { [search(ctx)]: m },
              limit,
              maxPages: n * 3 + 10,
              between: async (p, seen) => {
                const o = ops[p % ops.length]!;
                const victims: string[] = [];
                const seenAlive = seen.filter((id) => !deleted.has(id));
                const unseen = created.filter((id) => !seen.includes(id) && !deleted.has(id));
                if (o.deleteSeen && seenAlive.length) victims.push(seenAlive[0]!);
                if (o.deleteUnseen && unseen.length > 1) victims.push(unseen[unseen.length - 1]!);
                for (const id of victims) {
                  deleted.add(id);
                  const x = await rec.send({ method: 'DELETE', path: `/customers/${encodeURIComponent(id)}` });
                  if (!x.response || x.response.status >= 300) throw new Error(`DELETE /customers/${id} answered ${describeAnswer(x)}`);
                }
                // Creation is bounded, or a small page size behind steady creation would never reach the end.
                const make = Math.min(o.create, MAX_CREATED_DURING_WALK - made);
                if (make > 0) {
                  made += make;
                  await createMarked(ctx, m, make);
                }
              },
            });
            const problem = t.problem;
            if (problem) rec.require(false, problem.expected, () => problem.actual, undefined, problem.clause);
            const dup = duplicates(t.ids);
            rec.require(dup.length === 0, 'no item twice while items are created and deleted', () => `repeated: ${dup.join(', ')}`);
            const survivors = created.filter((id) => !deleted.has(id));
            const skipped = survivors.filter((id) => !t.ids.includes(id));
            rec.require(
              skipped.length === 0,
              `every item that existed throughout (${survivors.length}) exactly once`,
              () => `skipped ${skipped.join(', ')}`,
            );
          },
          { examples: [{ n: 6, limit: 2, ops: [{ deleteSeen: true, deleteUnseen: false, create: 0 }] }] },
        );
      },
    },
    {
      id: 'pagination.has-more',
      clause: '4.4.has-more',
      title: 'hasMore is true exactly when nextCursor is a string, on every page',
      async run(ctx) {
        const walks = { all: 0, cut: 0 };
        let first: Exchange | undefined;
        const out = await runCase(ctx, async (t) => {
          for (const limit of [1, 7, 100]) {
            const walk = await traverse(ctx.send, { path: '/customers', query: {}, limit, maxPages: limit === 1 ? 5 : WHOLE_LIST_PAGES });
            const p = walk.problem;
            // The whole list may be long: the walk is cut short on purpose, and only page rules matter then.
            const cut = cutWalk(walk);
            t.add(p && !cut ? problemFailure(p) : undefined);
            if (!p || cut)
              t.add(
                duplicates(walk.ids).length
                  ? {
                      clause: '4.4.cursor.traversal',
                      expected: 'no item twice',
                      actual: `repeated ${duplicates(walk.ids).join(', ')}`,
                      exchanges: walk.exchanges.slice(-3),
                    }
                  : undefined,
              );
            walks.all++;
            if (cut) walks.cut++;
            first ??= walk.exchanges[0];
          }
          if (walks.cut < walks.all || !first) return;
          // A big workspace's list never ends within the bounds: a search for one listed customer's email is a
          // short list whose last page is seen (the filter stays unchanged along the walk).
          const email = (asPage(first)?.data ?? []).map((c) => c.email).find((e): e is string => typeof e === 'string' && e.length >= 3);
          if (!email) return;
          const walk = await traverse(ctx.send, { path: '/customers', query: { [search(ctx)]: email }, limit: 1, maxPages: 10 });
          t.add(walk.problem && !cutWalk(walk) ? problemFailure(walk.problem) : undefined);
          walks.all++;
          if (cutWalk(walk)) walks.cut++;
        });
        // The 5-page walk of single items is cut on purpose; the last page is seen when a longer walk ends.
        if (out.status !== 'passed' || walks.cut < walks.all) return out;
        return {
          ...out,
          note: `every walk (${walks.all}) reached its page bound before the list's end: the pages walked were judged, a last page (hasMore false) was not seen`,
        };
      },
    },
    {
      id: 'pagination.tampered-cursor',
      clause: '4.4.cursor.tampered',
      title: 'Malformed and tampered cursors are rejected with 400',
      async run(ctx) {
        const q = (await customerScope(ctx, 'tmp', 5)).query;
        const { cursor: valid, x } = await validCursor(ctx, q);
        if (!valid) return noCursor(ctx, x, q);
        return runProperty(
          ctx,
          tamperArb,
          async (tamper, rec) => {
            const bad = applyTamper(valid, tamper);
            const r = await rejects400(rec, { ...q, limit: 2, cursor: bad });
            rec.require(r.ok, `HTTP 400 for the tampered cursor ${JSON.stringify(bad)}`, () => describeAnswer(r.x));
          },
          {
            precondition: (tamper) => {
              const bad = applyTamper(valid, tamper);
              return bad !== '' && !equivalentCursors(valid, bad);
            },
            describe: (tamper) => `${JSON.stringify(tamper)} → ${JSON.stringify(applyTamper(valid, tamper))}`,
            examples: [
              { kind: 'truncate', keep: Math.floor(valid.length / 2) },
              { kind: 'reencode', leaf: 0 },
              { kind: 'random', text: 'not-a-cursor' },
            ],
          },
        );
      },
    },
    {
      id: 'pagination.foreign-cursor',
      clause: '4.4.cursor.filter-bound',
      title: 'A cursor presented with other filters or to another list is rejected with 400',
      async run(ctx) {
        const s = search(ctx);
        const ext = ctx.target.assumptions.params.externalId;
        const scope = await customerScope(ctx, 'frn', 5);
        const m = scope.query[s];
        if (m !== undefined) await createMarked(ctx, `${m}zz`, 5);
        const { cursor, x } = await validCursor(ctx, scope.query);
        if (!cursor) return noCursor(ctx, x, scope.query);
        let note: string | undefined;
        const out = await runCase(ctx, async (t) => {
          // Without created data the cursor comes from the unfiltered list; adding any filter changes the query.
          const cases: Array<[string, Record<string, string | number>, string?]> =
            m !== undefined
              ? [
                  ['another search', { [s]: `${m}zz`, limit: 2, cursor }],
                  ['no filter', { limit: 2, cursor }],
                  ['an added external-id filter', { [s]: m, [ext]: `${m}-ext`, limit: 2, cursor }],
                  ['the articles list', { after: cursor }, '/authoring/articles'],
                ]
              : [
                  ['an added search', { [s]: 'spgate-other-filter', limit: 2, cursor }],
                  ['an added external-id filter', { [ext]: 'spgate-other-filter', limit: 2, cursor }],
                  ['the articles list', { after: cursor }, '/authoring/articles'],
                ];
          for (const [what, query, path] of cases) {
            const r = await rejects400(ctx, query, path);
            t.add(
              r.ok
                ? undefined
                : { expected: `HTTP 400 for a customers cursor used with ${what}`, actual: describeAnswer(r.x), exchanges: [x, r.x] },
            );
          }
          if (ctx.fixtures) await ctx.fixtures.createArticles(3);
          const a = await ctx.send({ method: 'GET', path: '/authoring/articles' });
          const after = (a.response?.json as { nextCursor?: unknown } | undefined)?.nextCursor;
          if (typeof after === 'string' && after !== '') {
            const r = await rejects400(ctx, { ...scope.query, limit: 2, cursor: after });
            t.add(
              r.ok
                ? undefined
                : { expected: 'HTTP 400 for an articles cursor used on /customers', actual: describeAnswer(r.x), exchanges: [a, r.x] },
            );
            return;
          }
          // The articles list's page size is not shown: a short list has no next cursor to present to /customers.
          note = `an articles cursor on /customers was not tried: GET /authoring/articles gave no nextCursor (${describeAnswer(a)})`;
        });
        return out.status === 'passed' && note !== undefined ? { ...out, note } : out;
      },
    },
    {
      id: 'pagination.cursor-url-encoding',
      clause: '4.11.cursor.url-encoded',
      title: 'A URL-encoded cursor round-trips: the next page is the same however it is sent',
      run: (ctx) =>
        runCase(ctx, async (t) => {
          const q = (await customerScope(ctx, 'enc', 5)).query;
          const { cursor, x } = await validCursor(ctx, q);
          if (!cursor) return t.merge(await noCursor(ctx, x, q));
          const viaQuery = await ctx.send({ method: 'GET', path: '/customers', query: { ...q, limit: 2, cursor } });
          const filters = Object.entries(q)
            .map(([k, v]) => `${encodeURIComponent(k)}=${encodeURIComponent(v)}&`)
            .join('');
          const viaPath = await ctx.send({ method: 'GET', path: `/customers?${filters}limit=2&cursor=${encodeURIComponent(cursor)}` });
          const a = asPage(viaQuery);
          const b = asPage(viaPath);
          t.add(
            a && b && JSON.stringify(a.data.map((d) => d.id)) === JSON.stringify(b.data.map((d) => d.id))
              ? undefined
              : {
                  expected: 'HTTP 200 and the same page for the cursor percent-encoded',
                  actual: `${describeAnswer(viaQuery)} / ${describeAnswer(viaPath)}`,
                  exchanges: [viaQuery, viaPath],
                },
          );
        }),
    },
    {
      id: 'pagination.search',
      clause: '4.4.search',
      title: 'Search is a case-insensitive substring match over name, email and company',
      run: searchCheck,
    },
    {
      id: 'pagination.external-id',
      clause: '4.4.external-id',
      title: 'The external-id filter lists exactly the customers with that externalId',
      run: (ctx) =>
        runCase(ctx, async (t) => {
          const m = await freshMarker(ctx, 'ext');
          const p = ctx.target.assumptions.params.externalId;
          const cases: Array<readonly [string, readonly string[]]> = [];
          // Why no externalId of the workspace was tried, when the list they come from could not be read.
          let unread: string | undefined;
          if (ctx.fixtures) {
            const made = await ctx.fixtures.createCustomers([
              { name: 'A', company: m, externalId: `${m}-a` },
              { name: 'B', company: m, externalId: `${m}-a` },
              { name: 'C', company: m, externalId: `${m}-b` },
            ]);
            cases.push([`${m}-a`, [made[0]!.id, made[1]!.id]], [`${m}-b`, [made[2]!.id]]);
          } else {
            // Listed customers with an externalId: the filter must list exactly those sharing it.
            const { records, x } = await listedCustomers(ctx, 100);
            if (!asPage(x)) unread = `the customer list answered ${describeAnswer(x)}`;
            const withExt = records.filter((c) => typeof c.externalId === 'string' && c.externalId !== '');
            for (const c of withExt.slice(0, 3)) {
              cases.push([String(c.externalId), records.filter((o) => o.externalId === c.externalId).map((o) => String(o.id))]);
            }
          }
          cases.push([`${m}-none`, []]);
          for (const [ext, want] of cases) {
            const walk = await traverse(ctx.send, { path: '/customers', query: { [p]: ext }, limit: 100, maxPages: 5 });
            // From a first page only, others sharing the externalId may exist further on: those must be listed, and only matches.
            const same = ctx.fixtures
              ? [...walk.ids].sort().join(',') === [...want].sort().join(',')
              : want.every((id) => walk.ids.includes(id)) &&
                walk.exchanges.flatMap((x) => asPage(x)?.data ?? []).every((c) => !('externalId' in c) || c.externalId === ext);
            // A walk cut short lists hundreds where at most two match: the filter's fault, not the cursor's.
            const cut = cutWalk(walk);
            t.add(
              walk.problem && !cut
                ? problemFailure(walk.problem)
                : same
                  ? undefined
                  : {
                      expected: `${p}=${ext} to list exactly ${want.length ? want.join(', ') : 'nothing'}`,
                      actual: cut
                        ? `${walk.ids.length} customers in 5 pages and still hasMore`
                        : `listed ${walk.ids.join(', ') || 'nothing'}`,
                      exchanges: cut ? walk.exchanges.slice(-2) : walk.exchanges,
                    },
            );
          }
          // Only "an unknown externalId lists nothing" was judged: a filter listing nothing at all would pass.
          if (unread) cannotJudge(t, `no externalId to filter by: ${unread}`);
          else if (cases.length === 1)
            cannotJudge(
              t,
              'no customer on the first page of the customer list has an externalId: only an unknown externalId (listing nothing) was tried',
              'customers with an externalId among the first 100 listed (or fixtures.api / fixtures.command, so the check creates its own)',
            );
        }),
    },
    {
      id: 'pagination.identity',
      clause: '4.4.identity.pair',
      title: 'Identity type and identifier must come together; a lookup lists 0 or 1 customers',
      needs: { data: { identity: 1 } },
      run: (ctx) =>
        runCase(ctx, async (t) => {
          const m = await freshMarker(ctx, 'idn');
          const type = ctx.target.assumptions.identityTypeValue;
          const { identifier: ident, customerId } = await ctx.data!.get('identity');
          const made = { id: customerId };
          const pt = ctx.target.assumptions.params.identityType;
          const v = ctx.target.assumptions.statuses.validation;
          for (const [query, what] of [
            [{ identityIdentifier: ident }, 'identityIdentifier without the identity type'],
            [{ [pt]: type }, 'identity type without identityIdentifier'],
          ] as const) {
            const x = await ctx.send({ method: 'GET', path: '/customers', query });
            const r = checkRejectedWith(x, v, what, '4.4.identity.pair', '4.4.identity.pair-status');
            t.add(r ? fromViolation(r, [x]) : undefined);
          }
          for (const [idv, want] of [
            [ident, [made.id]],
            [`${m}-nobody@identity.test`, []],
          ] as const) {
            const x = await ctx.send({ method: 'GET', path: '/customers', query: { [pt]: type, identityIdentifier: idv } });
            const page = asPage(x);
            const ids = page?.data.map((d) => String(d.id)) ?? [];
            t.add(
              page && ids.join(',') === want.join(',')
                ? undefined
                : {
                    clause: '4.4.identity.result',
                    expected: `a lookup of ${idv} to list ${want.length ? want[0] : 'nothing'} (0 or 1 items)`,
                    actual: page ? `listed ${ids.join(', ') || 'nothing'}` : describeAnswer(x),
                    exchanges: [x],
                  },
            );
          }
        }),
    },
    {
      id: 'pagination.articles',
      clause: '4.10.articles.after',
      title: 'The articles list pages with after, has data and nextCursor and no hasMore',
      async run(ctx) {
        if (ctx.fixtures) await ctx.fixtures.createArticles(30);
        let note: string | undefined;
        const out = await runCase(ctx, async (t) => {
          const seen = new Set<string>();
          let after: string | undefined;
          const xs: Exchange[] = [];
          for (let p = 0; p < 50; p++) {
            const x = await ctx.send({ method: 'GET', path: '/authoring/articles', query: { after } });
            xs.push(x);
            const j = x.response?.json as { data?: unknown; nextCursor?: unknown; hasMore?: unknown } | undefined;
            if (x.response?.status !== 200 || !j || !Array.isArray(j.data) || !('nextCursor' in j)) {
              t.add({ expected: 'HTTP 200 with { data, nextCursor }', actual: describeAnswer(x), exchanges: [x] });
              return;
            }
            if ('hasMore' in j) {
              t.add({ expected: 'no hasMore key on the articles list', actual: `hasMore ${JSON.stringify(j.hasMore)}`, exchanges: [x] });
              return;
            }
            const ids = (j.data as Array<{ id?: unknown }>).map((d) =>
              d && typeof d === 'object' && 'id' in d ? String(d.id) : JSON.stringify(d),
            );
            const again = ids.filter((id) => seen.has(id));
            if (again.length) {
              t.add({
                expected: 'each page after `after` to hold new articles',
                actual: `page ${p + 1} repeats ${again.slice(0, 3).join(', ')}`,
                exchanges: xs.slice(-2),
              });
              return;
            }
            ids.forEach((id) => seen.add(id));
            t.cases++;
            if (j.nextCursor === null || j.nextCursor === '' || j.nextCursor === undefined) {
              // One page never follows `after`: the paging this check exists for was not seen.
              if (p === 0)
                cannotJudge(
                  t,
                  `the Help Center fits on one page of the articles list (${ids.length} articles): no nextCursor to follow as \`after\``,
                  'a workspace whose Help Center holds more articles than one page of GET /authoring/articles (25 by default on the reference server)',
                );
              return;
            }
            if (typeof j.nextCursor !== 'string') {
              t.add({ expected: 'nextCursor a string, empty or null', actual: JSON.stringify(j.nextCursor), exchanges: [x] });
              return;
            }
            after = j.nextCursor;
          }
          // A long Help Center is not a finding: the walk is bounded, and what it saw was judged.
          note = `walked the first 50 pages (${seen.size} articles) without reaching the end; judged those`;
        });
        return out.status === 'passed' && note !== undefined ? { ...out, note } : out;
      },
    },
  ],
});
