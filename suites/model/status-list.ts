/**
 * Reading GET /statuses and GET /priorities, whose response shapes the spec does not show (4.10). The
 * reading is lenient: a bare array, or an object with a `data`, `statuses`, `priorities`, `items` or
 * `results` array, of strings or of objects, with an optional type (active/completed) in `type`, `category`
 * or `kind`. Objects often carry the key beside a display name and an id ({ name: "Open", value: "open" },
 * { id: "st_1", name: "open" }), so the key field is chosen once for the whole list (keyField). A body in
 * none of these shapes is unreadable: the checks that read it are inconclusive, not failed.
 */
import { STATUS_KEY_PATTERN } from '../../src/spec/resources.js';

export interface ListedKey {
  key: string;
  type?: string;
}

const LIST_KEYS = ['data', 'statuses', 'priorities', 'items', 'results'] as const;
/** Fields that may hold the key, most telling first (the order breaks ties). */
const KEY_FIELDS = ['key', 'value', 'slug', 'code', 'id', 'name'] as const;
const TYPE_FIELDS = ['type', 'category', 'kind'] as const;
/** Keys part 2 names as seeded (statuses, then priorities): a field holding them is the key field. */
const SEEDED_KEYS = new Set(['open', 'pending', 'resolved', 'closed', 'low', 'normal', 'high', 'urgent']);

function itemsOf(json: unknown): unknown[] | undefined {
  if (Array.isArray(json)) return json;
  if (!json || typeof json !== 'object') return undefined;
  const o = json as Record<string, unknown>;
  return LIST_KEYS.map((k) => o[k]).find((v): v is unknown[] => Array.isArray(v));
}

/**
 * The field that holds the key in every item: among those that hold a string in all of them, the ones
 * whose every value fits the key pattern (2) win, then the one holding most seeded keys, then the field
 * order. When no field fits the pattern everywhere, the first field by order is taken, so keys that break
 * the pattern (display names listed as keys) are still reported. Undefined when no field is in every item.
 */
export function keyField(items: ReadonlyArray<Record<string, unknown>>): string | undefined {
  const everywhere = KEY_FIELDS.filter((f) => items.every((o) => typeof o[f] === 'string'));
  const score = (f: string): [number, number] => {
    const values = items.map((o) => o[f] as string);
    return [values.every((v) => STATUS_KEY_PATTERN.test(v)) ? 1 : 0, values.filter((v) => SEEDED_KEYS.has(v)).length];
  };
  let best: { f: string; s: [number, number] } | undefined;
  for (const f of everywhere) {
    const s = score(f);
    if (!best || s[0] > best.s[0] || (s[0] === best.s[0] && s[1] > best.s[1])) best = { f, s };
  }
  return best?.f;
}

/** The keys a status/priority list shows, or undefined when the body is not a recognisable list. */
export function listedKeys(json: unknown): ListedKey[] | undefined {
  const items = itemsOf(json);
  if (!items) return undefined;
  if (items.every((i) => typeof i === 'string')) return (items as string[]).map((key) => ({ key }));
  if (!items.every((i) => i !== null && typeof i === 'object' && !Array.isArray(i))) return undefined;
  const objects = items as Array<Record<string, unknown>>;
  const field = keyField(objects);
  if (field === undefined) return objects.length === 0 ? [] : undefined;
  return objects.map((o) => {
    const type = TYPE_FIELDS.map((f) => o[f]).find((v): v is string => typeof v === 'string');
    const key = o[field] as string;
    return type === undefined ? { key } : { key, type };
  });
}

/** Keys of one status type (`active` or `completed`), from assumptions and from the listing. */
export function keysOfType(assumed: readonly string[], listed: ListedKey[] | undefined, type: 'active' | 'completed'): string[] {
  const fromList = (listed ?? [])
    .filter((k) => k.type?.toLowerCase().startsWith(type === 'active' ? 'active' : 'complete'))
    .map((k) => k.key);
  return [...new Set([...assumed, ...fromList])];
}
