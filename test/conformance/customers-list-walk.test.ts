/**
 * The delete checks judge "no longer listed" only on a walk of the whole unfiltered list: a page the
 * deployment could not serve after the delete (a 503 mid-walk) leaves the check inconclusive with the reason,
 * never passed on a list it did not read; an answer of the same kind on a filtered listing is its own
 * finding, and then the check fails on that, not skips.
 */
import { describe, expect, it } from 'vitest';
import { startReferenceServer } from '../../src/reference/index.js';
import type { ProxyHook } from '../checks/rewriting-proxy.js';
import { proxiedReference, unavailable, verdicts } from '../support/proxied-conformance.js';

const BUDGETS = { read: 1_000_000, write: 1_000_000, windowSeconds: 60 };
const CHECKS = ['customers.delete.idempotent', 'customers.delete.unlisted'];
const ref = proxiedReference(() => startReferenceServer({ seed: 4, budgets: BUDGETS }));

/** An unfiltered page of the customer list (the walk's request: limit and cursor only). */
const unfilteredList = (method: string, path: string): boolean => {
  if (method !== 'GET' || !/^\/customers(\?|$)/.test(path)) return false;
  const q = new URLSearchParams(path.split('?')[1] ?? '');
  return [...q.keys()].every((k) => k === 'limit' || k === 'cursor');
};

/** Answers the first unfiltered list page after each delete with a 503. */
function failAfterDelete(): ProxyHook {
  let armed = false;
  return async (req, forward) => {
    if (req.method === 'DELETE') armed = true;
    else if (armed && unfilteredList(req.method, req.path)) {
      armed = false;
      return unavailable();
    }
    return forward();
  };
}

describe('customer delete checks over an unfinished list walk', () => {
  it('pass through a faithful proxy (the walk reads the whole list)', async () => {
    const out = await ref.run((_req, forward) => forward(), { checks: CHECKS, runs: 2 });
    expect(out.findings).toEqual([]);
    expect(out.checks.map((c) => c.status)).toEqual(['passed', 'passed']);
  });

  it('are inconclusive, naming the 503, when a list page after the delete cannot be read', async () => {
    const out = await ref.run(failAfterDelete(), { checks: CHECKS, runs: 2 });
    expect(out.findings).toEqual([]);
    for (const id of CHECKS)
      expect(verdicts(out)[id]).toMatch(
        /^inconclusive: whether the deleted customer is still listed is unknown: a page of the customer list answered .*503/,
      );
  });

  it('fail on a filtered listing that still shows the customer, whatever the unfiltered walk could read', async () => {
    // The search still lists the deleted customer (a stale index), and the unfiltered walk after it fails.
    let deletedId: string | undefined;
    let armed = false;
    const hook: ProxyHook = async (req, forward) => {
      if (req.method === 'DELETE') {
        deletedId = decodeURIComponent(req.path.split('/')[2]!.split('?')[0]!);
        armed = true;
        return forward();
      }
      if (armed && unfilteredList(req.method, req.path)) {
        armed = false;
        return unavailable();
      }
      const a = await forward();
      if (deletedId && req.method === 'GET' && req.path.startsWith('/customers?') && !unfilteredList(req.method, req.path)) {
        const body = a.json as { data?: unknown[] } | undefined;
        if (body && Array.isArray(body.data) && body.data.length === 0) return { ...a, json: { ...body, data: [{ id: deletedId }] } };
      }
      return a;
    };
    const out = await ref.run(hook, { checks: ['customers.delete.unlisted'], runs: 2 });
    expect(out.checks[0]!.status).toBe('failed');
    expect(out.findings.map((f) => f.expected)).toContain('the deleted customer to be absent from text search');
  });
});
