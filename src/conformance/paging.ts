/** Walking a cursor-paginated list (spec 4.4/4.11) and checking each page on the way. */
import type { Exchange } from '../client/exchange.js';
import type { RequestSpec } from '../client/types.js';
import type { ClauseId } from '../spec/clauses.js';
import { describeAnswer } from './recorder.js';

export interface Page {
  data: Array<Record<string, unknown>>;
  hasMore: boolean;
  nextCursor: string | null;
}

export interface PageProblem {
  clause: ClauseId;
  expected: string;
  actual: string;
  exchanges: Exchange[];
}

/** The page of a 200 answer, or undefined when the body is not a list page. */
export function asPage(x: Exchange): Page | undefined {
  const j = x.response?.json as Partial<Page> | undefined;
  if (x.response?.status !== 200 || !j || !Array.isArray(j.data) || typeof j.hasMore !== 'boolean') return undefined;
  if (j.nextCursor !== null && typeof j.nextCursor !== 'string') return undefined;
  return { data: j.data, hasMore: j.hasMore, nextCursor: j.nextCursor };
}

/**
 * Per-page rules: hasMore true with a nextCursor string, false with nextCursor null (4.11: "string, or null
 * when there is no more"; an empty string ends only the articles list, 4.10); at most `limit` items.
 */
export function pageProblem(x: Exchange, page: Page, limit: number): PageProblem | undefined {
  if (page.hasMore ? !(typeof page.nextCursor === 'string' && page.nextCursor !== '') : page.nextCursor !== null) {
    return { clause: '4.4.has-more', expected: 'hasMore true with a nextCursor string, hasMore false with nextCursor null', actual: `hasMore ${page.hasMore}, nextCursor ${JSON.stringify(page.nextCursor)}`, exchanges: [x] };
  }
  if (page.data.length > limit) {
    return { clause: '4.4.limit.max', expected: `at most ${limit} items on a page`, actual: `${page.data.length} items`, exchanges: [x] };
  }
  return undefined;
}

export interface Traversal {
  ids: string[];
  pages: number;
  exchanges: Exchange[];
  problem?: PageProblem;
}

/**
 * Follows nextCursor from the first page with the query unchanged, at most `maxPages` pages; `between`
 * runs after each page (to create or delete items while the walk is under way).
 */
export async function traverse(
  send: (spec: RequestSpec) => Promise<Exchange>,
  input: { path: string; query: Record<string, string | number | undefined>; limit: number; maxPages: number; between?: (page: number, seen: string[]) => Promise<void> },
): Promise<Traversal> {
  const ids: string[] = [];
  const exchanges: Exchange[] = [];
  let cursor: string | undefined;
  for (let p = 0; p < input.maxPages; p++) {
    const x = await send({ method: 'GET', path: input.path, query: { ...input.query, limit: input.limit, cursor } });
    exchanges.push(x);
    const page = asPage(x);
    if (!page) {
      return { ids, pages: p, exchanges, problem: { clause: '4.4.cursor.traversal', expected: 'HTTP 200 with { data, hasMore, nextCursor }', actual: describeAnswer(x), exchanges: exchanges.slice(-2) } };
    }
    const problem = pageProblem(x, page, input.limit);
    if (problem) return { ids, pages: p + 1, exchanges, problem };
    for (const item of page.data) ids.push(String(item.id));
    if (!page.hasMore || !page.nextCursor) return { ids, pages: p + 1, exchanges };
    cursor = page.nextCursor;
    if (input.between) await input.between(p, ids);
  }
  return {
    ids, pages: input.maxPages, exchanges,
    problem: { clause: '4.4.cursor.traversal', expected: `the list to end within ${input.maxPages} pages`, actual: `still hasMore after ${input.maxPages} pages (${ids.length} items)`, exchanges: exchanges.slice(-2) },
  };
}

/** Ids that occur more than once. */
export function duplicates(ids: readonly string[]): string[] {
  const seen = new Set<string>();
  const dup = new Set<string>();
  for (const id of ids) (seen.has(id) ? dup : seen).add(id);
  return [...dup];
}
