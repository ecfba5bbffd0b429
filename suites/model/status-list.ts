/**
 * Reading GET /statuses and GET /priorities, whose response shapes the spec does not show (4.10). The
 * reading is lenient: a bare array, or an object with a `data`, `statuses`, `priorities`, `items` or
 * `results` array, of strings or of objects naming the key in `key`, `slug`, `id` or `name` (the first
 * that holds a string), with an optional type (active/completed) in `type`, `category` or `kind`. A body
 * in none of these shapes is unreadable: the checks that read it are inconclusive, not failed.
 */

export interface ListedKey {
  key: string;
  type?: string;
}

const LIST_KEYS = ['data', 'statuses', 'priorities', 'items', 'results'] as const;
const KEY_FIELDS = ['key', 'slug', 'id', 'name'] as const;
const TYPE_FIELDS = ['type', 'category', 'kind'] as const;

function itemsOf(json: unknown): unknown[] | undefined {
  if (Array.isArray(json)) return json;
  if (!json || typeof json !== 'object') return undefined;
  const o = json as Record<string, unknown>;
  return LIST_KEYS.map((k) => o[k]).find((v): v is unknown[] => Array.isArray(v));
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
    const key = KEY_FIELDS.map((f) => o[f]).find((v): v is string => typeof v === 'string');
    if (key === undefined) return undefined;
    const type = TYPE_FIELDS.map((f) => o[f]).find((v): v is string => typeof v === 'string');
    out.push(type === undefined ? { key } : { key, type });
  }
  return out;
}

/** Keys of one status type (`active` or `completed`), from assumptions and from the listing. */
export function keysOfType(assumed: readonly string[], listed: ListedKey[] | undefined, type: 'active' | 'completed'): string[] {
  const fromList = (listed ?? []).filter((k) => k.type?.toLowerCase().startsWith(type === 'active' ? 'active' : 'complete')).map((k) => k.key);
  return [...new Set([...assumed, ...fromList])];
}
