/**
 * What `spgate init` can learn from a handful of read responses, as pure functions: status keys and their
 * types (GET /statuses, shape "not shown" in the spec, so read leniently), a customer id, which candidate
 * filter parameter names a deployment honours, and the read budget the RateLimit-* headers announce.
 */

/** One probe response, as the probe hands it over (headers lower-cased). */
export interface ProbeAnswer {
  status: number;
  json: unknown;
  headers: Record<string, string | undefined>;
  /** ms since the probe started, when the response arrived. */
  at: number;
}

export interface LearnedStatuses {
  active: string[];
  completed: string[];
  /** The default completed status, when the listing marks one (or the seeded `resolved` is there). */
  defaultCompleted?: string;
}

export interface LearnedBudget {
  limit: number;
  /** Lower bound of the window: the largest RateLimit-Reset seen (a budget is full again within it). */
  windowSeconds: number;
  evidence: string;
}

/** The array of items of a listing answer: `{ data: [...] }` or a bare array. */
export function itemsOf(json: unknown): unknown[] | undefined {
  if (Array.isArray(json)) return json;
  const data = (json as { data?: unknown } | null)?.data;
  return Array.isArray(data) ? data : undefined;
}

const ACTIVE = /^(active|open|in[_-]?progress|waiting|pending)/i;
const COMPLETED = /^(completed?|closed?|resolved?|done|finished|terminal)/i;

/** Status keys and types from a GET /statuses answer; undefined when no item names its type. */
export function learnStatuses(json: unknown): LearnedStatuses | undefined {
  const items = itemsOf(json);
  if (!items) return undefined;
  const out: LearnedStatuses = { active: [], completed: [] };
  for (const item of items) {
    if (!item || typeof item !== 'object') continue;
    const o = item as Record<string, unknown>;
    const key = [o.key, o.id, o.name].find((v): v is string => typeof v === 'string' && /^[a-z0-9][a-z0-9_-]{0,62}$/.test(v));
    const type = [o.type, o.category, o.kind, o.statusType].find((v): v is string => typeof v === 'string');
    if (!key || !type) continue;
    if (COMPLETED.test(type)) {
      out.completed.push(key);
      if (o.default === true || o.isDefault === true) out.defaultCompleted = key;
    } else if (ACTIVE.test(type)) out.active.push(key);
  }
  if (out.active.length + out.completed.length === 0) return undefined;
  if (!out.defaultCompleted && out.completed.includes('resolved')) out.defaultCompleted = 'resolved';
  return out;
}

/** The `id` of the first item of a listing, when it is a string. */
export function firstId(json: unknown): string | undefined {
  const id = (itemsOf(json)?.[0] as { id?: unknown } | undefined)?.id;
  return typeof id === 'string' && id !== '' ? id : undefined;
}

/** The ids of a listing's items. */
export function idsOf(json: unknown): string[] {
  return (itemsOf(json) ?? []).map((i) => (i as { id?: unknown } | null)?.id).filter((v): v is string => typeof v === 'string');
}

/**
 * True when a filtered listing shows the filter was honoured: it holds the wanted customer and fewer items
 * than the unfiltered page (an ignored parameter returns the unfiltered page).
 */
export function filterHonoured(filtered: unknown, unfiltered: unknown, wantedId: string): boolean {
  const got = idsOf(filtered);
  return got.includes(wantedId) && got.length < Math.max(2, idsOf(unfiltered).length);
}

function intHeader(v: string | undefined): number | undefined {
  return v !== undefined && /^\d{1,9}$/.test(v.trim()) ? Number(v.trim()) : undefined;
}

/** The read budget the RateLimit-* headers of a few read responses announce, when they agree on a limit. */
export function learnBudget(answers: readonly ProbeAnswer[]): LearnedBudget | undefined {
  const limits = new Set<number>();
  let maxReset = 0;
  let n = 0;
  for (const a of answers) {
    const limit = intHeader(a.headers['ratelimit-limit']);
    const reset = intHeader(a.headers['ratelimit-reset']);
    if (limit === undefined || reset === undefined) continue;
    limits.add(limit);
    maxReset = Math.max(maxReset, reset);
    n++;
  }
  if (limits.size !== 1 || n === 0) return undefined;
  const limit = [...limits][0]!;
  return {
    limit,
    windowSeconds: Math.max(1, maxReset),
    evidence: `${n} responses announced RateLimit-Limit ${limit}; the largest RateLimit-Reset seen was ${maxReset} s`,
  };
}
