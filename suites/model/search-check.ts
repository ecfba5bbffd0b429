/**
 * pagination.search (spec 4.4: "case-insensitive substring match over name, email and company"): searches
 * for parts of customers' own name, email and company, in any case, and requires every match listed and
 * only matches. The customers are created (fixtures API) or taken from the first page of the list: there,
 * a customer without a name, email or company of 3 characters (a phone-only one; required-ness is not
 * shown) is no sample, and a page without any leaves the check inconclusive, naming what to add.
 */
import fc from 'fast-check';
import type { Exchange } from '../../src/client/exchange.js';
import { freshMarker } from '../../src/conformance/data.js';
import { asPage, cutWalk, traverse } from '../../src/conformance/paging.js';
import { runProperty } from '../../src/conformance/property.js';
import { describeAnswer } from '../../src/conformance/recorder.js';
import type { CheckOutcome, SuiteContext } from '../../src/conformance/suite.js';

/** Pages of 100 a search's walk reads at most. */
const SEARCH_PAGES_WALKED = 10;

const tokenArb = fc.string({ unit: fc.constantFrom(...'abcdefghijklmnopqrstuvwxyz0123456789'.split('')), minLength: 8, maxLength: 8 });

/** Deterministic tokens for a check's data, from its seed. */
function tokens(ctx: SuiteContext, n: number): string[] {
  return fc.sample(tokenArb, { seed: ctx.fc.seed, numRuns: n });
}

function search(ctx: SuiteContext): string {
  return ctx.target.assumptions.params.search;
}

/** Customer records from the first page of the unfiltered list (any deployment has some). */
export async function listedCustomers(ctx: SuiteContext, n: number): Promise<{ records: Array<Record<string, unknown>>; x: Exchange }> {
  const x = await ctx.send({ method: 'GET', path: '/customers', query: { limit: 100 } });
  return { records: (asPage(x)?.data ?? []).filter((c) => c && typeof c === 'object' && typeof c.id === 'string').slice(0, n), x };
}

/** pagination.search: every customer whose name, email or company contains the text (any case) listed, and only those. */
export async function searchCheck(ctx: SuiteContext): Promise<CheckOutcome> {
  const m = await freshMarker(ctx, 'srh');
  const tok = tokens(ctx, 24);
  const fields = ['name', 'email', 'company'] as const;
  let mine: Array<{ id: string; name: string; email: string; company: string }>;
  if (ctx.fixtures) {
    const seeds = Array.from({ length: 8 }, (_, i) => ({
      name: `${m}n ${tok[i * 3]}`,
      email: `${tok[i * 3 + 1]}@${m}e.test`,
      company: `${m}c ${tok[i * 3 + 2]}`,
    }));
    const made = await ctx.fixtures.createCustomers(seeds);
    mine = made.map((c, i) => ({ id: c.id, ...seeds[i]! }));
  } else {
    // Any deployment lists some customers: search for parts of their own name, email and company.
    // Name, email and company may be absent (required-ness not shown): a phone-only customer is no sample.
    const str = (v: unknown): string => (typeof v === 'string' ? v : '');
    const { records, x } = await listedCustomers(ctx, 100);
    mine = records
      .map((c) => ({ id: String(c.id), name: str(c.name), email: str(c.email), company: str(c.company) }))
      .filter((c) => fields.some((f) => c[f].length >= 3))
      .slice(0, 8);
    if (!mine.length) {
      return {
        status: 'inconclusive',
        cases: 0,
        reason: asPage(x)
          ? `none of the ${records.length} customers on the first page of the list has a name, email or company of 3 characters or more to search for`
          : `the customer list answered ${describeAnswer(x)}`,
        remedy:
          'customers with a name, email or company in the workspace (or fixtures.api / fixtures.command, so the check creates its own)',
      };
    }
  }
  const caseArb = fc.constantFrom<'lower' | 'upper' | 'mixed'>('lower', 'upper', 'mixed');
  const arb: fc.Arbitrary<SearchCase> = fc.record({
    who: fc.nat({ max: Math.max(0, mine.length - 1) }),
    field: fc.constantFrom(...fields),
    start: fc.nat(),
    len: fc.integer({ min: 3, max: 14 }),
    cased: caseArb,
  });
  type SearchCase = { who: number; field: (typeof fields)[number]; start: number; len: number; cased: 'lower' | 'upper' | 'mixed' };
  const queryOf = (r: SearchCase): string => {
    // Fewer customers than the examples name, or a field too short to search: the next one that serves.
    const c = mine[r.who % mine.length]!;
    const v = [r.field, ...fields].map((f) => c[f]).find((f) => f.length >= 3)!;
    const start = r.start % Math.max(1, v.length - 2);
    const sub = v.slice(start, start + r.len);
    return r.cased === 'upper'
      ? sub.toUpperCase()
      : r.cased === 'mixed'
        ? [...sub].map((ch, i) => (i % 2 ? ch.toUpperCase() : ch)).join('')
        : sub;
  };
  // Searches whose walk reached its bound before the list's end, of all walked (passing cases only count).
  const walks = { all: 0, cut: 0 };
  const out = await runProperty<SearchCase>(
    ctx,
    arb,
    async (a, rec) => {
      const q = queryOf(a);
      const needle = q.toLowerCase();
      const hit = (c: { name?: unknown; email?: unknown; company?: unknown }): boolean =>
        [c.name, c.email, c.company].some((f) => typeof f === 'string' && f.toLowerCase().includes(needle));
      const input = { path: '/customers', query: { [search(ctx)]: q }, limit: 100, maxPages: SEARCH_PAGES_WALKED };
      const walk = await traverse((spec) => rec.send(spec), input);
      // Too broad to walk whole: what it listed is judged, the customers it did not reach are not.
      const cut = cutWalk(walk);
      const problem = walk.problem;
      if (problem && !cut) rec.require(false, problem.expected, () => problem.actual, undefined, problem.clause);
      const got = new Set(walk.ids);
      const missing = cut ? [] : mine.filter((c) => hit(c) && !got.has(c.id));
      rec.require(
        missing.length === 0,
        `search "${q}" to list every customer whose name, email or company contains it (any case)`,
        () => `missing ${missing.map((c) => `${c.id} (${c.name} / ${c.email} / ${c.company})`).join(', ')}`,
      );
      const items = walk.exchanges.flatMap((x) => asPage(x)?.data ?? []);
      const wrong = items.filter((c) => ['name', 'email', 'company'].some((f) => f in c) && !hit(c));
      rec.require(
        wrong.length === 0,
        `search "${q}" to list only matching customers`,
        () =>
          `listed ${wrong
            .slice(0, 3)
            .map((c) => String(c.id))
            .join(', ')}, which do not contain it`,
      );
      walks.all++;
      if (cut) walks.cut++;
    },
    {
      examples: [
        { who: 0, field: 'company', start: m.length + 2, len: 8, cased: 'upper' },
        { who: 1, field: 'name', start: m.length + 2, len: 8, cased: 'mixed' },
        { who: 2, field: 'email', start: 0, len: 8, cased: 'upper' },
        { who: 3, field: 'company', start: m.length + 2, len: 8, cased: 'lower' },
      ],
      describe: (a) => `query ${JSON.stringify(queryOf(a))}`,
    },
  );
  if (out.status !== 'passed' || walks.cut === 0) return out;
  const cut = `listed more than ${SEARCH_PAGES_WALKED} pages of 100`;
  if (walks.cut === walks.all)
    return {
      status: 'inconclusive',
      cases: walks.all,
      reason: `every search ${cut} (${walks.all}): the customers listed all matched, but missing customers were not judged`,
    };
  return { ...out, note: `${walks.cut} of ${walks.all} searches ${cut}: only the customers they listed were judged` };
}
