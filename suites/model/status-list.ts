/**
 * Reading GET /statuses and GET /priorities, whose response shapes the spec does not show. The reading
 * is lenient: a `data` array (or a bare array) of strings or of objects naming the key in `key`, `id`
 * or `name`, with an optional `type` (active/completed) for statuses.
 */

export interface ListedKey {
  key: string;
  type?: string;
}

function itemsOf(json: unknown): unknown[] | undefined {
  if (Array.isArray(json)) return json;
  if (json && typeof json === 'object') {
    const data = (json as Record<string, unknown>).data;
    if (Array.isArray(data)) return data;
  }
  return undefined;
}

/** The keys a status/priority list shows, or undefined when the body is not a recognisable list. */
export function listedKeys(json: unknown): ListedKey[] | undefined {
  const items = itemsOf(json);
  if (!items) return undefined;
  const out: ListedKey[] = [];
  for (const item of items) {
    if (typeof item === 'string') {
      out.push({ key: item });
      continue;
    }
    if (!item || typeof item !== 'object') return undefined;
    const o = item as Record<string, unknown>;
    const key = [o.key, o.id, o.name].find((v): v is string => typeof v === 'string');
    if (key === undefined) return undefined;
    out.push({ key, type: typeof o.type === 'string' ? o.type : undefined });
  }
  return out;
}

/** Keys of one status type (`active` or `completed`), from assumptions and from the listing. */
export function keysOfType(assumed: readonly string[], listed: ListedKey[] | undefined, type: 'active' | 'completed'): string[] {
  const fromList = (listed ?? []).filter((k) => k.type?.toLowerCase().startsWith(type === 'active' ? 'active' : 'complete')).map((k) => k.key);
  return [...new Set([...assumed, ...fromList])];
}
