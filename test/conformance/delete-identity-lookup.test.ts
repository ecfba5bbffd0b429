/**
 * customers.delete.unlisted tries the channel-identity lookup (3: a deleted customer "no longer appears in
 * lists"; 4.4: the lookup's result is a list of 0 or 1 items) on a pool customer that owns an identity
 * (fixtures.ids.pools.identityCustomers). Fault identity-lookup-finds-deleted fails it; a lookup that answers
 * 404 for an identity whose customer is gone, and a target with only the pool, pass; a pool item whose
 * identity does not find it is inconclusive with the remedy; an empty or absent pool skips it naming the field.
 */
import { describe, expect, it } from 'vitest';
import type { TargetFileInput } from '../../src/target/schema.js';
import { startReferenceServer } from '../../src/reference/index.js';
import { proxiedReference, verdict } from '../support/proxied-conformance.js';
import type { ProxyHook } from '../checks/rewriting-proxy.js';

const CHECK = 'customers.delete.unlisted';
const ref = proxiedReference(() => startReferenceServer({ seed: 22, budgets: { read: 1e6, write: 1e6 } }));
const pass = (): ProxyHook => (_, forward) => forward();

type Pool = Array<{ customerId: string; identifier: string }>;
/** The target without a fixtures API, with `pool` as its identity customers (the server's own pool by default). */
const idsOnly =
  (pool?: (own: Pool) => Pool | undefined) =>
  (t: TargetFileInput): TargetFileInput => {
    const ids = t.fixtures?.ids ?? {};
    const own = (ids.pools?.identityCustomers ?? []) as Pool;
    const chosen = pool ? pool(own) : own;
    const { identityCustomers: _, ...rest } = ids.pools ?? {};
    return { ...t, fixtures: { ids: { ...ids, pools: { ...rest, ...(chosen ? { identityCustomers: chosen } : {}) } } } };
  };

describe('customers.delete.unlisted and the identity lookup', () => {
  it('passes on the clean server, with a fixtures API and with the ids-only pool', async () => {
    expect(verdict(await ref.run(pass(), { checks: [CHECK], runs: 1 }))).toBe('passed');
    expect(verdict(await ref.run(pass(), { checks: [CHECK], runs: 1, edit: idsOnly() }))).toBe('passed');
  });

  it('identity-lookup-finds-deleted: the lookup still answers the deleted customer → a finding under 3.customer.soft-delete-unlisted', async () => {
    for (const edit of [undefined, idsOnly((own) => own.slice(1))]) {
      const out = await ref.run(pass(), { checks: [CHECK], runs: 1, faults: ['identity-lookup-finds-deleted'], ...(edit ? { edit } : {}) });
      expect(out.findings.map((f) => [f.clause, f.expected])).toEqual([
        ['3.customer.soft-delete-unlisted', 'the deleted customer not to be found by the channel-identity lookup (a list of 0 items)'],
      ]);
    }
  });

  it("a deployment whose lookup answers 404 once the identity's customer is gone passes", async () => {
    const deleted = new Set<string>();
    const out = await ref.run(
      async (req, forward) => {
        const a = await forward();
        const m = /^\/customers\/([^/?]+)$/.exec(req.path);
        if (req.method === 'DELETE' && m) deleted.add(decodeURIComponent(m[1]!));
        const data = (a.json as { data?: Array<{ id: string }> } | undefined)?.data;
        if (req.path.includes('identityIdentifier=') && Array.isArray(data) && data.length === 0 && deleted.size > 0) {
          return {
            status: 404,
            headers: { 'content-type': 'application/json', 'x-request-id': 'req_p' },
            json: { error: { code: 'route.not_found', message: 'no customer', requestId: 'req_p' } },
          };
        }
        return a;
      },
      { checks: [CHECK], runs: 1, edit: idsOnly((own) => own.slice(2)) },
    );
    expect(verdict(out)).toBe('passed');
  });

  it('a pool item whose identity does not find it is inconclusive with the remedy, not failed', async () => {
    const out = await ref.run(pass(), {
      checks: [CHECK],
      runs: 1,
      edit: idsOnly((own) => [{ customerId: own[3]!.customerId, identifier: 'nobody@example.invalid' }]),
    });
    expect(out.findings).toEqual([]);
    expect(out.checks[0]!.status).toBe('inconclusive');
    expect(out.checks[0]!.reason).toMatch(/does not find pool customer/);
    expect(out.checks[0]!.remedy).toMatch(/fixtures\.ids\.pools\.identityCustomers/);
  });

  it('an empty pool, or none, skips the check naming the pool to add', async () => {
    const twice = await ref.run(pass(), { checks: [CHECK], runs: 1, edit: idsOnly(() => []) });
    expect(twice.checks[0]!.status).toBe('skipped');
    expect(twice.checks[0]!.reason).toMatch(/fixtures\.ids\.pools\.identityCustomers/);
    const none = await ref.run(pass(), { checks: [CHECK], runs: 1, edit: idsOnly(() => undefined) });
    expect(none.checks[0]!.status).toBe('skipped');
    expect(none.checks[0]!.reason).toMatch(/fixtures\.ids\.pools\.identityCustomers/);
  });
});
