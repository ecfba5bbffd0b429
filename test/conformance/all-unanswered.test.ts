/**
 * A pass means judged: against a deployment whose every /v1 answer is a gateway's 503 (the fixtures API
 * still works, so every check gets its data) no check may pass on what it exists for, and none may error.
 * The only passes are the errors checks that judge whatever answers came (the 503s' envelopes and request
 * ids); the checks listed in INCONCLUSIVE reach their "could not observe" path here, with the reason. The
 * rest fail: a 5xx where the spec requires an answer is, today, a finding (the auth checks name such probes
 * as not tried instead). Table of every check: /tmp/contracts/h21-table.md.
 */
import { describe, expect, it } from 'vitest';
import { startReferenceServer } from '../../src/reference/index.js';
import { proxiedReference, unavailable, verdicts } from '../support/proxied-conformance.js';

const ref = proxiedReference(() => startReferenceServer({ seed: 31, budgets: { read: 1e6, write: 1e6 } }));

/** Checks that judge every answer they are given, a 503's too. */
const JUDGE_ANY_ANSWER = ['errors.envelope', 'errors.request-id-header', 'errors.request-id-matches', 'errors.codes-spelled'];

const INCONCLUSIVE = [
  'auth.missing-header',
  'auth.wrong-scheme',
  'auth.bad-key',
  'auth.expired',
  'auth.revoked',
  'auth.prefixes',
  'auth.legacy-same-data',
  'auth.no-workspace-header',
  'auth.scope-missing',
  'auth.scope-attachments',
  'auth.other-workspace',
  'shapes.id-prefixes',
  'shapes.collection',
  'shapes.statuses',
  'shapes.priorities',
  'status.resolve.completed-keys',
  'status.resolve.any-state',
  'status.resolve.active-keys',
  'customers.delete.unlisted',
  'errors.unknown-status',
  'limits.remaining-decreases',
  'limits.limit-constant',
  'limits.classes-isolated',
  'limits.429',
  'limits.429-read',
  // A pool turn is read before it is acted on (a turn that completed by itself is passed over), and the delete
  // check finds its customer through the identity lookup: an unread item is not judged.
  'assistant.cancel.pending',
  'assistant.cancel.repeat',
  'assistant.cancel.response',
  'assistant.owner-only',
  'customers.delete.idempotent',
];

describe('every /v1 answer a 503', () => {
  it('no check passes on what it exists for, none errors, and these reach their inconclusive path', async () => {
    const out = await ref.run(async () => unavailable(), { checks: [], runs: 2 });
    const v = Object.entries(verdicts(out));
    expect(v.filter(([, s]) => s.startsWith('error')).map(([id, s]) => `${id}: ${s}`)).toEqual([]);
    expect(
      v
        .filter(([, s]) => s.startsWith('passed'))
        .map(([id]) => id)
        .sort(),
    ).toEqual([...JUDGE_ANY_ANSWER].sort());
    expect(
      v
        .filter(([, s]) => s.startsWith('inconclusive'))
        .map(([id]) => id)
        .sort(),
    ).toEqual([...INCONCLUSIVE].sort());
    for (const c of out.checks.filter((x) => x.status === 'inconclusive'))
      expect(c.reason, c.checkId).toMatch(/503|not in the customer list|readable|not accepted|no key and route class/);
  });
});
