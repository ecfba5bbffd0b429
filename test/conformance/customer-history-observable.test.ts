/**
 * customers.delete.history passed a hard delete on a target without a fixtures API: the conversation kept
 * its (now dangling) customerId, and no operation the spec shows reads a customer by id (lists leave
 * deleted customers out, part 3). The check cannot tell the two deletes apart there, so its pass now says
 * what it judged and what it could not see; with a fixtures API it still fails the hard delete.
 */
import { describe, expect, it } from 'vitest';
import { startReferenceServer } from '../../src/reference/index.js';
import type { TargetFileInput } from '../../src/target/schema.js';
import { proxiedReference, verdicts } from '../support/proxied-conformance.js';

const CHECK = 'customers.delete.history';
const ref = proxiedReference(() => startReferenceServer({ seed: 6 }));
const noFixturesApi = (t: TargetFileInput): TargetFileInput => ({ ...t, fixtures: { ids: t.fixtures?.ids ?? {} } });

describe(`${CHECK} and a hard delete`, () => {
  it('fails it where a fixtures API shows the retained record', async () => {
    const out = await ref.run((_r, f) => f(), { checks: [CHECK], runs: 1, faults: ['delete-hard'] });
    expect(out.findings.map((f) => f.clause)).toEqual(['3.customer.soft-delete-history']);
  });

  it('without one, passes on the customerId it could judge and says the record was not observable', async () => {
    const out = await ref.run((_r, f) => f(), { checks: [CHECK], runs: 1, faults: ['delete-hard'], edit: noFixturesApi });
    expect(verdicts(out)[CHECK]).toBe('passed: judged that the conversation keeps naming its customer; whether the customer record is retained is not observable through the operations the spec shows (a fixtures.api would show it)');
  });
});
