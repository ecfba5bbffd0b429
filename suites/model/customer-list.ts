/**
 * Reading the customer list to see whether a customer is in it (spec 4.4): one page's ids, and a bounded
 * walk of the unfiltered list. The checks observe deletes only through this shown operation.
 */
import type { Exchange } from '../../src/client/exchange.js';
import { describeAnswer, jsonObject, statusOf, type Recorder } from '../../src/conformance/recorder.js';

/** Bound on the unfiltered traversal: 30 pages of 100 customers. */
export const MAX_PAGES = 30;

/** The ids of a customer listing, or undefined when it holds no data array. */
export function idsOf(x: Exchange): string[] | undefined {
  const data = jsonObject(x)?.data;
  if (!Array.isArray(data)) return undefined;
  return data.map((c) => (c && typeof c === 'object' ? String((c as { id?: unknown }).id) : ''));
}

/** Walks the unfiltered list (bounded) and reports whether `id` appeared (with its record) and whether the walk finished. */
export async function inFullList(rec: Recorder, id: string): Promise<{ found: boolean; complete: boolean; xs: Exchange[]; record?: Record<string, unknown> }> {
  const xs: Exchange[] = [];
  let cursor: string | undefined;
  for (let page = 0; page < MAX_PAGES; page++) {
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
  return `the first ${MAX_PAGES} pages of the customer list did not reach its end`;
}
