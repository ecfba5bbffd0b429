/**
 * Pagination keys of a list body, for 4.3's "No pagination keys": the spec's own (hasMore, nextCursor,
 * cursor, limit) and the common spellings of a next-page pointer, a page number or an offset. A count
 * (`total`, `totalCount`) does not paginate, and any other top-level key (`object: "list"`, a vendor
 * field) is not pagination either: both are allowed.
 */

const PAGINATION = new Set([
  'hasmore',
  'nextcursor',
  'cursor',
  'prevcursor',
  'previouscursor',
  'next',
  'previous',
  'prev',
  'nextpagetoken',
  'pagetoken',
  'page',
  'pages',
  'pagesize',
  'perpage',
  'limit',
  'offset',
  'after',
  'before',
  'startingafter',
  'endingbefore',
  'links',
  'pagination',
  'paging',
]);

/** True when `key` names pagination (case, `_` and `-` ignored: has_more, next-cursor, nextCursor alike). */
export function isPaginationKey(key: string): boolean {
  return PAGINATION.has(key.toLowerCase().replace(/[-_]/g, ''));
}
