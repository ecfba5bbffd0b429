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
    return {
      clause: '4.4.has-more',
      expected: 'hasMore true with a nextCursor string, hasMore false with nextCursor null',
      actual: `hasMore ${page.hasMore}, nextCursor ${JSON.stringify(page.nextCursor)}`,
      exchanges: [x],
    };
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
  /** Why the walk stopped before the list's end on purpose: its page bound or its time bound (not a finding). */
  cut?: 'pages' | 'time';
  /** The cursor each page was read with (undefined for the first), so a later walk can start at a page. */
  cursors: Array<string | undefined>;
  /** The walk's `stop` ended it on a page that has a next one. */
  stopped?: true;
}

/** What a walk reads: the list, its filters, page size and bounds (pages, and optionally a deadline). */
export interface WalkInput {
  path: string;
  query: Record<string, string | number | undefined>;
  limit: number;
  maxPages: number;
  /** Date.now() after which no further page is read: a long list on a slow server is cut, not failed. */
  deadline?: number;
  /** The cursor to start at (a page's cursor from an earlier walk); the first page when absent. */
  from?: string;
  /** Runs after each page that has a next one (to create or delete items while the walk is under way). */
  between?: (page: number, seen: string[]) => Promise<void>;
  /** Receives each page's items as read (their fields, e.g. updatedAt). */
  onItems?: (items: Array<Record<string, unknown>>) => void;
  /** True ends the walk after this page though it has a next one (the walk found what it looked for). */
  stop?: (page: number, seen: string[]) => boolean;
}

/**
 * Follows nextCursor with the query unchanged, at most `maxPages` pages and until `deadline`; a walk that
 * reaches a bound with the list going on is `cut` (and carries a 4.4.cursor.traversal problem saying so,
 * which callers that walk long lists on purpose ignore through cutWalk).
 */
export async function traverse(send: (spec: RequestSpec) => Promise<Exchange>, input: WalkInput): Promise<Traversal> {
  const ids: string[] = [];
  const exchanges: Exchange[] = [];
  const cursors: Array<string | undefined> = [];
  let cursor = input.from;
  for (let p = 0; p < input.maxPages; p++) {
    if (p > 0 && input.deadline !== undefined && Date.now() > input.deadline) {
      return {
        ids,
        pages: p,
        exchanges,
        cursors,
        cut: 'time',
        problem: {
          clause: '4.4.cursor.traversal',
          expected: "the list to end within the walk's time bound",
          actual: `still hasMore after ${p} pages when the time bound ran out (${ids.length} items)`,
          exchanges: exchanges.slice(-2),
        },
      };
    }
    cursors.push(cursor);
    const x = await send({ method: 'GET', path: input.path, query: { ...input.query, limit: input.limit, cursor } });
    exchanges.push(x);
    const page = asPage(x);
    if (!page) {
      return {
        ids,
        pages: p,
        exchanges,
        cursors,
        problem: {
          clause: '4.4.cursor.traversal',
          expected: 'HTTP 200 with { data, hasMore, nextCursor }',
          actual: describeAnswer(x),
          exchanges: exchanges.slice(-2),
        },
      };
    }
    const problem = pageProblem(x, page, input.limit);
    if (problem) return { ids, pages: p + 1, exchanges, cursors, problem };
    for (const item of page.data) ids.push(String(item.id));
    input.onItems?.(page.data);
    if (!page.hasMore || !page.nextCursor) return { ids, pages: p + 1, exchanges, cursors };
    cursor = page.nextCursor;
    if (input.stop?.(p, ids)) return { ids, pages: p + 1, exchanges, cursors, stopped: true };
    if (input.between) await input.between(p, ids);
  }
  return {
    ids,
    pages: input.maxPages,
    exchanges,
    cursors,
    cut: 'pages',
    problem: {
      clause: '4.4.cursor.traversal',
      expected: `the list to end within ${input.maxPages} pages`,
      actual: `still hasMore after ${input.maxPages} pages (${ids.length} items)`,
      exchanges: exchanges.slice(-2),
    },
  };
}

/** The walk stopped at its page or time bound with the list still going on (cut on purpose, not a failure). */
export function cutWalk(w: { cut?: 'pages' | 'time' }): boolean {
  return w.cut !== undefined;
}

/** Ids that occur more than once. */
export function duplicates(ids: readonly string[]): string[] {
  const seen = new Set<string>();
  const dup = new Set<string>();
  for (const id of ids) (seen.has(id) ? dup : seen).add(id);
  return [...dup];
}
