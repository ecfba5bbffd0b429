/**
 * Reading the customer list to see whether a customer is in it (spec 4.4): one page's ids, and a bounded
 * walk of the unfiltered list. The checks observe deletes only through this shown operation.
 */
import type { Exchange } from '../../src/client/exchange.js';
import { describeAnswer, jsonObject, statusOf, type Recorder } from '../../src/conformance/recorder.js';

/** Bound on the unfiltered traversal: 30 pages of 100 customers, and 20 s (a big staging is not walked whole). */
export const MAX_PAGES = 30;
export const MAX_WALK_SECONDS = 20;

/** The ids of a customer listing, or undefined when it holds no data array. */
export function idsOf(x: Exchange): string[] | undefined {
  const data = jsonObject(x)?.data;
  if (!Array.isArray(data)) return undefined;
  return data.map((c) => (c && typeof c === 'object' ? String((c as { id?: unknown }).id) : ''));
}

/** Walks the unfiltered list (bounded) and reports whether `id` appeared (with its record) and whether the walk finished. */
export async function inFullList(
  rec: Recorder,
  id: string,
): Promise<{ found: boolean; complete: boolean; xs: Exchange[]; record?: Record<string, unknown> }> {
  const xs: Exchange[] = [];
  let cursor: string | undefined;
  const deadline = Date.now() + MAX_WALK_SECONDS * 1000;
  for (let page = 0; page < MAX_PAGES && (page === 0 || Date.now() < deadline); page++) {
    const x = await rec.send({ method: 'GET', path: '/customers', query: { limit: 100, cursor }, role: 'admin' });
    xs.push(x);
    const ids = statusOf(x) === 200 ? idsOf(x) : undefined;
    if (!ids) return { found: false, complete: false, xs };
    if (ids.includes(id)) {
      const data = jsonObject(x)?.data as Array<Record<string, unknown>>;
      return { found: true, complete: true, xs, record: data.find((c) => c && String(c.id) === id) };
    }
    const next = jsonObject(x)?.nextCursor;
    if (typeof next !== 'string' || next === '') return { found: false, complete: true, xs };
    cursor = next;
  }
  return { found: false, complete: false, xs };
}

/**
 * Why a walk that did not find its customer says nothing of whether it is listed: a page it could not read
 * (a 5xx, a transport error, a body without data) or the page bound reached before the list's end.
 * Undefined when the walk found the customer or read the whole list.
 */
export function unfinishedWalk(walk: { found: boolean; complete: boolean; xs: Exchange[] }): string | undefined {
  if (walk.found || walk.complete) return undefined;
  const last = walk.xs.at(-1);
  if (last && (statusOf(last) !== 200 || !idsOf(last))) return `a page of the customer list answered ${describeAnswer(last)}`;
  return `the first ${walk.xs.length} pages of the customer list (bound: ${MAX_PAGES} pages, ${MAX_WALK_SECONDS} s) did not reach its end`;
}

/** True when the walk stopped at its bound with the list going on (a big list, not an unreadable page). */
export function cutBySize(walk: { found: boolean; complete: boolean; xs: Exchange[] }): boolean {
  const last = walk.xs.at(-1);
  return !walk.found && !walk.complete && last !== undefined && statusOf(last) === 200 && idsOf(last) !== undefined;
}

/**
 * The filters that find one customer by its own fields (4.4: text search over its email, the external-id
 * filter; their parameter names are the target's assumptions). Pool customers carry a unique email and
 * externalId, so these list a handful of customers however big the workspace is.
 */
export function ownFilters(
  params: { search: string; externalId: string },
  record: Record<string, unknown>,
): Array<[string, Record<string, string>]> {
  const filters: Array<[string, Record<string, string>]> = [];
  if (typeof record.email === 'string' && record.email) filters.push(['text search', { [params.search]: record.email }]);
  if (typeof record.externalId === 'string' && record.externalId)
    filters.push(['the external-id filter', { [params.externalId]: record.externalId }]);
  return filters;
}

/** Lists customers with one query and says whether `id` is among the results (undefined: unreadable). */
export async function listed(
  rec: Recorder,
  query: Record<string, string>,
  id: string,
): Promise<{ found: boolean | undefined; x: Exchange; record?: Record<string, unknown> }> {
  const x = await rec.send({ method: 'GET', path: '/customers', query: { ...query, limit: 100 }, role: 'admin' });
  const ids = statusOf(x) === 200 ? idsOf(x) : undefined;
  const data = jsonObject(x)?.data as Array<Record<string, unknown>> | undefined;
  return { found: ids?.includes(id), x, record: ids?.includes(id) ? data!.find((c) => c && String(c.id) === id) : undefined };
}
