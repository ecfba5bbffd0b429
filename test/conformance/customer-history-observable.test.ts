/**
 * customers.delete.history passed a hard delete on a target without a fixtures API: the conversation kept
 * its (now dangling) customerId, and no operation the spec shows reads a customer by id (lists leave
 * deleted customers out, part 3). The two halves are now two checks: customers.delete.history judges what
 * the shown operations show (the conversation still answers and names its customer; fault delete-cascades
 * fails it with or without a fixtures API), customers.delete.retained judges the retained record through a
 * fixtures API (fault delete-hard) and is skipped, naming fixtures.api, without one — never a pass that
 * could not see a hard delete.
 */
import { describe, expect, it } from 'vitest';
import { startReferenceServer } from '../../src/reference/index.js';
import type { TargetFileInput } from '../../src/target/schema.js';
import { proxiedReference, verdicts } from '../support/proxied-conformance.js';

const CHECKS = ['customers.delete.history', 'customers.delete.retained'];
const ref = proxiedReference(() => startReferenceServer({ seed: 6 }));
/** Without the fixtures API, from the `from`-th customerConversations pool item on (each run starts the pool afresh). */
const noFixturesApi =
  (from: number) =>
  (t: TargetFileInput): TargetFileInput => {
    const ids = t.fixtures?.ids ?? {};
    return {
      ...t,
      fixtures: { ids: { ...ids, pools: { ...ids.pools, customerConversations: (ids.pools?.customerConversations ?? []).slice(from) } } },
    };
  };

describe("a deleted customer's history", () => {
  it('clean server: both pass with a fixtures API; without one history passes and retained is skipped naming fixtures.api', async () => {
    expect(verdicts(await ref.run((_r, f) => f(), { checks: CHECKS, runs: 1 }))).toEqual({
      'customers.delete.history': 'passed',
      'customers.delete.retained': 'passed',
    });
    const out = await ref.run((_r, f) => f(), { checks: CHECKS, runs: 1, edit: noFixturesApi(0) });
    expect(verdicts(out)['customers.delete.history']).toBe('passed');
    expect(verdicts(out)['customers.delete.retained']).toMatch(/^skipped: .*fixtures\.api/);
  });

  it('delete-hard fails customers.delete.retained where a fixtures API shows the record; without one nothing passes it as retained', async () => {
    const out = await ref.run((_r, f) => f(), { checks: CHECKS, runs: 1, faults: ['delete-hard'] });
    expect(out.findings.map((f) => [f.checkId, f.clause])).toEqual([['customers.delete.retained', '3.customer.soft-delete-history']]);
    const bare = await ref.run((_r, f) => f(), { checks: CHECKS, runs: 1, faults: ['delete-hard'], edit: noFixturesApi(1) });
    expect(verdicts(bare)['customers.delete.retained']).toMatch(/^skipped/);
  });

  it('delete-cascades (the conversation goes with the customer) fails customers.delete.history with or without a fixtures API', async () => {
    for (const edit of [undefined, noFixturesApi(2)]) {
      const out = await ref.run((_r, f) => f(), {
        checks: ['customers.delete.history'],
        runs: 1,
        faults: ['delete-cascades'],
        ...(edit ? { edit } : {}),
      });
      expect(out.findings.map((f) => [f.checkId, f.clause])).toEqual([['customers.delete.history', '3.customer.soft-delete-history']]);
    }
  });
});
