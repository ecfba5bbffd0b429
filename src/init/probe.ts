/**
 * The probe of `spgate init`: a handful of bounded read requests (never a write) against a target, and what
 * they teach (src/init/learn.ts). An unreachable target, a refused key or an answer that is not the API's
 * JSON stops the probe with one clear error before anything is written.
 */
import { createClient } from '../client/client.js';
import type { Exchange } from '../client/exchange.js';
import type { RequestSpec } from '../client/types.js';
import { SpgateError } from '../errors.js';
import type { Tls } from '../target/schema.js';
import {
  filterHonoured,
  firstId,
  learnBudget,
  learnStatuses,
  type LearnedBudget,
  type LearnedStatuses,
  type ProbeAnswer,
} from './learn.js';

/** Candidate names of the 4.4 filters the spec does not show, most common first. */
export const PARAM_CANDIDATES = {
  externalId: ['externalId', 'external_id', 'externalID', 'filter[externalId]'],
  search: ['q', 'search', 'query', 'term'],
} as const;

export interface ProbeResult {
  scopes?: string[];
  statuses?: LearnedStatuses;
  customerId?: string;
  params: { externalId?: string; search?: string };
  readBudget?: LearnedBudget;
  /** How many requests the probe sent. */
  requests: number;
  notes: string[];
}

/** Probes `baseUrl` with `key` (at most ~14 read requests, each bounded by `timeoutMs`). */
export async function probeTarget(
  baseUrl: string,
  key: string,
  opts: { timeoutMs?: number; signal?: AbortSignal; tls?: Tls } = {},
): Promise<ProbeResult> {
  const client = createClient({
    baseUrl,
    secrets: { admin: key },
    timeoutMs: opts.timeoutMs ?? 10_000,
    maxBodyBytes: 4 << 20,
    ...(opts.signal ? { signal: opts.signal } : {}),
    ...(opts.tls ? { tls: opts.tls } : {}),
  });
  const t0 = performance.now();
  const answers: ProbeAnswer[] = [];
  const result: ProbeResult = { params: {}, requests: 0, notes: [] };
  const get = async (path: string, query?: RequestSpec['query']): Promise<ProbeAnswer & { x: Exchange }> => {
    const x = await client.send({ method: 'GET', path, role: 'admin', ...(query ? { query } : {}) });
    result.requests++;
    if (!x.response) {
      throw new SpgateError(
        'SPGATE_ERR_TARGET_UNREACHABLE',
        `${baseUrl}${path} did not answer (${x.error?.kind ?? 'error'}: ${x.error?.message ?? ''})`,
      );
    }
    const headers: Record<string, string | undefined> = {};
    for (const [k, v] of Object.entries(x.response.headers)) headers[k.toLowerCase()] = Array.isArray(v) ? v.join(', ') : v;
    const a = { status: x.response.status, json: x.response.json, headers, at: performance.now() - t0, x };
    answers.push(a);
    return a;
  };
  try {
    const me = await get('/me');
    if (me.status === 401 || me.status === 403) {
      throw new SpgateError(
        'SPGATE_ERR_INIT_KEY_REFUSED',
        `GET ${baseUrl}/me answered HTTP ${me.status}: the key was refused (check it, and that it belongs to this deployment)`,
      );
    }
    if (me.status !== 200 || me.json === undefined || me.json === null || typeof me.json !== 'object') {
      throw new SpgateError(
        'SPGATE_ERR_INIT_NOT_API',
        `GET ${baseUrl}/me answered HTTP ${me.status} ${me.json === undefined ? 'without a JSON body' : 'with unexpected JSON'}: is this the API's base URL (ending in /v1)?`,
      );
    }
    const scopes = (me.json as { data?: { scopes?: unknown } }).data?.scopes;
    if (Array.isArray(scopes)) result.scopes = scopes.filter((s): s is string => typeof s === 'string');

    const statuses = await get('/statuses');
    const learned = statuses.status === 200 ? learnStatuses(statuses.json) : undefined;
    if (learned) result.statuses = learned;
    else
      result.notes.push(
        `GET /statuses answered HTTP ${statuses.status} without status types spgate could read; set assumptions.activeStatuses/completedStatuses`,
      );

    const page = await get('/customers', { limit: 25 });
    const customer = page.status === 200 ? (page.json as { data?: Array<Record<string, unknown>> }).data?.[0] : undefined;
    const customerId = page.status === 200 ? firstId(page.json) : undefined;
    if (customerId) result.customerId = customerId;
    else result.notes.push(`GET /customers answered HTTP ${page.status} with no customer; fixture ids need your input`);

    if (customer && customerId) {
      const ext = typeof customer.externalId === 'string' && customer.externalId !== '' ? customer.externalId : undefined;
      const name = typeof customer.name === 'string' && customer.name.length >= 3 ? customer.name : undefined;
      const tries: Array<['externalId' | 'search', string]> = [];
      if (ext) tries.push(['externalId', ext]);
      // A case-changed substring of the name: a real text search finds it, an ignored parameter does not filter.
      if (name) tries.push(['search', name.slice(0, Math.min(8, name.length)).toUpperCase()]);
      for (const [what, value] of tries) {
        for (const param of PARAM_CANDIDATES[what]) {
          const a = await get('/customers', { [param]: value, limit: 100 });
          if (a.status === 200 && filterHonoured(a.json, page.json, customerId)) {
            result.params[what] = param;
            break;
          }
        }
        if (!result.params[what])
          result.notes.push(`none of ${PARAM_CANDIDATES[what].join(', ')} filtered the customer list: set assumptions.params.${what}`);
      }
    }
    const budget = learnBudget(answers.filter((a) => a.status !== 429));
    if (budget) result.readBudget = budget;
    else result.notes.push('the responses carried no consistent RateLimit-Limit/RateLimit-Reset; budgets stay unstated');
    return result;
  } finally {
    await client.close();
  }
}
