/**
 * pagination.external-id, on a target without a fixtures API, takes the externalIds to filter by from the
 * first page of the customer list. When that page could not be read (a 503), no externalId was tried and
 * only "an unknown one lists nothing" was judged: a filter that lists nothing for every externalId passed.
 * Now the check is inconclusive naming the answer, unless the unknown externalId already failed.
 */
import { describe, expect, it } from 'vitest';
import { startReferenceServer } from '../../src/reference/index.js';
import type { ConformanceOutcome } from '../../src/conformance/run.js';
import type { TargetFileInput } from '../../src/target/schema.js';
import type { ProxiedAnswer, ProxiedRequest, ProxyHook } from '../checks/rewriting-proxy.js';
import { proxiedReference, unavailable, verdict } from '../support/proxied-conformance.js';

const CHECK = 'pagination.external-id';
const ref = proxiedReference(() => startReferenceServer({ seed: 2, budgets: { read: 1_000_000, write: 1_000_000, windowSeconds: 60 } }));

/** The target as a deployment without a fixtures API would describe it (its ids kept). */
const noFixturesApi = (t: TargetFileInput): TargetFileInput => ({ ...t, fixtures: { ids: t.fixtures?.ids ?? {} } });

const params = (req: ProxiedRequest): URLSearchParams => new URLSearchParams(req.path.split('?')[1] ?? '');
const isList = (req: ProxiedRequest): boolean => req.method === 'GET' && /^\/customers(\?|$)/.test(req.path);
const isUnfiltered = (req: ProxiedRequest): boolean => isList(req) && [...params(req).keys()].every((k) => k === 'limit' || k === 'cursor');
const isFiltered = (req: ProxiedRequest): boolean => isList(req) && params(req).has('externalId');

/** The external-id filter lists nothing, whatever the externalId; `unfiltered` answers the plain list. */
function emptyFilter(unfiltered: (forward: () => Promise<ProxiedAnswer>) => Promise<ProxiedAnswer>): ProxyHook {
  return async (req, forward) => {
    if (isUnfiltered(req)) return unfiltered(forward);
    const a = await forward();
    return isFiltered(req) && a.status === 200 ? { ...a, json: { ...(a.json as object), data: [], hasMore: false, nextCursor: null } } : a;
  };
}

const run = (hook: ProxyHook): Promise<ConformanceOutcome> => ref.run(hook, { checks: [CHECK], runs: 2, edit: noFixturesApi });

describe('pagination.external-id without a fixtures API, over an unread customer list', () => {
  it('passes through a faithful proxy, and fails a filter that lists nothing', async () => {
    const clean = await run((_req, forward) => forward());
    expect(clean.findings).toEqual([]);
    expect(verdict(clean)).toBe('passed');
    const empty = await run(emptyFilter((forward) => forward()));
    expect(empty.checks[0]!.status).toBe('failed');
  });

  it('is inconclusive, naming the 503, when the customer list it takes externalIds from cannot be read', async () => {
    const out = await run(emptyFilter(async () => unavailable()));
    expect(out.findings).toEqual([]);
    expect(verdict(out)).toMatch(/^inconclusive: no externalId to filter by: the customer list answered HTTP 503/);
  });
});
