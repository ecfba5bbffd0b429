/**
 * A staging holds tens of thousands of customers. pagination.stable-under-writes walked the whole list first
 * and failed 4.4.cursor.traversal ("still hasMore after 40 pages") above 4,000 customers; traversal and the
 * delete checks went inconclusive (their walks could not finish). Now the traversal judges the walked prefix
 * (bounded by pages and time, and says so), stable-under-writes judges the pages around the first pool
 * customer, and the delete checks find the customer through the identity lookup and its own filters.
 * Zero findings on 12,000 extra customers; the faults each check exists for are still caught there.
 */
import { describe, expect, it } from 'vitest';
import { createClient } from '../../src/client/client.js';
import { createFixturesClient } from '../../src/conformance/fixtures-client.js';
import { startReferenceServer } from '../../src/reference/index.js';
import type { TargetFileInput } from '../../src/target/schema.js';
import { proxiedReference, verdicts } from '../support/proxied-conformance.js';

const CHECKS = ['pagination.traversal', 'pagination.stable-under-writes', 'customers.delete.idempotent', 'customers.delete.unlisted'];
const EXTRA = 12_000;

const ref = proxiedReference(async () => {
  const server = await startReferenceServer({ seed: 30, budgets: { read: 1e7, write: 1e7, windowSeconds: 60 } });
  const api = createFixturesClient(createClient({ baseUrl: server.baseUrl, secrets: {} }), server.fixturesUrl);
  for (let b = 0; b < EXTRA / 1000; b++) {
    await api.createCustomers(Array.from({ length: 1000 }, (_, i) => ({ name: `Big ${b}-${i}`, email: `big${b}x${i}@big.test` })));
  }
  return server;
});

/**
 * The target as a deployment without a fixtures API writes it (ids and pools only), with the pool items
 * earlier runs deleted left out: every run hands out pools from the front.
 */
let used = { customers: 0, identityCustomers: 0 };
const idsOnly =
  (take: { customers?: number; identityCustomers?: number }) =>
  (t: TargetFileInput): TargetFileInput => {
    const ids = t.fixtures?.ids ?? {};
    const pools = ids.pools ?? {};
    const edited = {
      ...t,
      fixtures: {
        ids: {
          ...ids,
          pools: {
            ...pools,
            customers: pools.customers?.slice(used.customers),
            identityCustomers: pools.identityCustomers?.slice(used.identityCustomers),
          },
        },
      },
    };
    used = { customers: used.customers + (take.customers ?? 0), identityCustomers: used.identityCustomers + (take.identityCustomers ?? 0) };
    return edited;
  };

describe(`a workspace of ${EXTRA} more customers`, () => {
  it('gives no finding and no inconclusive verdict for its size', async () => {
    const out = await ref.run((_r, f) => f(), { checks: CHECKS, runs: 1, edit: idsOnly({ customers: 2, identityCustomers: 2 }) });
    expect(out.findings).toEqual([]);
    const v = verdicts(out);
    expect(v['pagination.traversal']).toMatch(/^passed: \d of \d traversals reached their bound/);
    expect(v['pagination.stable-under-writes']).toBe('passed');
    expect(v['customers.delete.idempotent']).toMatch(/^passed: the unfiltered customer list was walked up to its bound only/);
    expect(v['customers.delete.unlisted']).toMatch(/^passed: the unfiltered customer list was walked up to its bound only/);
  }, 120_000);

  it.each([
    ['pagination.traversal', 'cursor-overlap', '4.4.cursor.traversal', {}],
    ['pagination.stable-under-writes', 'cursor-offset', '4.4.cursor.stable-under-writes', { customers: 2 }],
    ['customers.delete.idempotent', 'delete-repeat-restores', '4.5.delete.idempotent', { identityCustomers: 1 }],
    ['customers.delete.unlisted', 'soft-delete-listed', '3.customer.soft-delete-unlisted', { identityCustomers: 1 }],
  ] as const)(
    '%s still catches %s',
    async (check, fault, clause, take) => {
      const out = await ref.run((_r, f) => f(), { checks: [check], runs: 1, edit: idsOnly(take), faults: [fault] });
      expect(out.findings.map((f) => f.clause)).toContain(clause);
    },
    120_000,
  );
});
