/**
 * Judging a list walk on a busy workspace (spec 3 Customer, 4.4): other clients create and soft-delete
 * customers while a check walks. Soft delete is final (nothing the spec shows restores a customer), so an
 * item listed by a read before a walk and by a read after it existed throughout the walk: a keyset cursor
 * must list it. Items created or deleted meanwhile are explained by the other clients and never judged.
 */

/** The ids listed both before and after a walk: they existed throughout it. */
export function stayedPut(before: readonly string[], after: Iterable<string>): Set<string> {
  const later = new Set(after);
  return new Set(before.filter((id) => later.has(id)));
}

/**
 * Items of `order` (a reference read, in list order) that existed throughout the walk, lie within what the
 * walk covered (up to the last of its items `order` holds, or all of it when the walk was `complete`) and
 * that it did not list. A walk cut by its bound covers only that prefix, so nothing after it is judged.
 */
export function missedWithin(
  order: readonly string[],
  walked: readonly string[],
  stayed: ReadonlySet<string>,
  exclude: ReadonlySet<string> = new Set(),
  complete = false,
): string[] {
  const listed = new Set(walked);
  // A walk that reached the list's end covered all of it, whatever it listed.
  let end = complete ? order.length - 1 : -1;
  order.forEach((id, i) => {
    if (listed.has(id)) end = Math.max(end, i);
  });
  return order.slice(0, end + 1).filter((id) => stayed.has(id) && !listed.has(id) && !exclude.has(id));
}

/**
 * The first pair of items listed by both walks, each unchanged between them (`same`), whose order differs:
 * undefined when the items both walks share come in the same order.
 */
export function orderChange(
  a: readonly string[],
  b: readonly string[],
  same: (id: string) => boolean,
): { first: string; second: string } | undefined {
  const inB = new Set(b);
  const inA = new Set(a);
  const x = a.filter((id) => inB.has(id) && same(id));
  const y = b.filter((id) => inA.has(id) && same(id));
  const at = x.findIndex((id, i) => y[i] !== id);
  return at < 0 ? undefined : { first: x[at]!, second: y[at]! };
}
