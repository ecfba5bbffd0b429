/**
 * On a shared staging other clients write during the run: a CRM sync creates customers and soft-deletes
 * others every 200 ms. pagination.traversal, pagination.stable-under-writes and auth.legacy-same-data
 * compared whole lists and failed when the list changed between walks. Now they judge only customers that
 * existed throughout their walk (listed before and after it): zero findings under the writer, while a real
 * cursor or isolation bug (the reference faults) still fails them under the same writer.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { createClient } from '../../src/client/client.js';
import { createFixturesClient } from '../../src/conformance/fixtures-client.js';
import { startReferenceServer } from '../../src/reference/index.js';
import type { TargetFileInput } from '../../src/target/schema.js';
import { proxiedReference, verdicts } from '../support/proxied-conformance.js';

const CHECKS = ['pagination.traversal', 'pagination.stable-under-writes', 'auth.legacy-same-data'];
const ref = proxiedReference(() => startReferenceServer({ seed: 31, budgets: { read: 1e7, write: 1e7, windowSeconds: 60 } }));

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

let stop: (() => Promise<void>) | undefined;
afterEach(async () => {
  await stop?.();
  stop = undefined;
});

/**
 * Another client, every 200 ms: creates a customer and soft-deletes one of the seeded customers listed
 * before the pools (not a fixture the checks use). Bounded: at most 400 rounds, and it stops with the test.
 */
async function startWriter(): Promise<void> {
  const s = ref.server;
  const key = (s.target.keys as Record<string, { key: string }>).admin!.key;
  const headers = { authorization: `Bearer ${key}` };
  const api = createFixturesClient(createClient({ baseUrl: s.baseUrl, secrets: {} }), s.fixturesUrl);
  const fixtures = JSON.stringify(s.target.fixtures?.ids ?? {});
  const first = (await (await fetch(`${s.baseUrl}/customers?limit=100`, { headers })).json()) as { data: Array<{ id: string }> };
  const victims = first.data
    .map((c) => c.id)
    .slice(10, 55)
    .filter((id) => !fixtures.includes(id));
  let running = true;
  const loop = (async () => {
    for (let round = 0; running && round < 400; round++) {
      await api.createCustomers([{ name: `Sync ${round}`, email: `sync${round}.${Date.now()}@crm.test` }]);
      const id = victims.shift();
      if (id) await fetch(`${s.baseUrl}/customers/${id}`, { method: 'DELETE', headers });
      await new Promise((r) => setTimeout(r, 200));
    }
  })();
  stop = async () => {
    running = false;
    await loop;
  };
}

describe('lists while another client creates and deletes customers', () => {
  it('give no finding', async () => {
    await startWriter();
    const out = await ref.run((_r, f) => f(), { checks: CHECKS, runs: 2, edit: idsOnly({ customers: 4 }) });
    expect(out.findings).toEqual([]);
    for (const v of Object.values(verdicts(out))) expect(v).toMatch(/^passed/);
  }, 120_000);

  it.each([
    ['pagination.traversal', 'cursor-overlap', '4.4.cursor.traversal'],
    ['pagination.stable-under-writes', 'cursor-offset', '4.4.cursor.stable-under-writes'],
    ['auth.legacy-same-data', 'legacy-test-isolated', '5.auth.legacy-no-isolation'],
  ] as const)(
    '%s still catches %s',
    async (check, fault, clause) => {
      await startWriter();
      const out = await ref.run((_r, f) => f(), { checks: [check], runs: 1, edit: idsOnly({ customers: 2 }), faults: [fault] });
      expect(out.findings.map((f) => f.clause)).toContain(clause);
    },
    120_000,
  );
});
