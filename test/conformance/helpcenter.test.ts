import { describe, expect, it } from 'vitest';
import suite from '../../suites/helpcenter.js';
import { startReferenceServer } from '../../src/reference/index.js';
import { proveSuite, runSuite } from './stateful-harness.js';

proveSuite(suite, [
  'collection-key-pattern-lenient',
  'collection-stale-accepted',
  'collection-revision-static',
  'collection-undelegated',
  'collection-description-ignored',
  'collection-parent-null-clears',
  'collection-parent-empty-ignored',
  'collection-limit-64000',
  'idempotency-before-auth',
  'idempotency-revoked-own-replay',
  'collection-membership-unchecked',
]);

// The body-limit check's second half: its 413 must carry the code of part 7/8, reported under 8.body.code.
describe('helpcenter.body-limit checks the 413 code too', () => {
  it('collection-body-limit-code → a helpcenter.body-limit finding under 8.body.code, and none under the 413 status', async () => {
    const server = await startReferenceServer({
      seed: 1,
      budgets: { read: 1_000_000, write: 1_000_000, windowSeconds: 60 },
      faults: ['collection-body-limit-code'],
    });
    try {
      const out = await runSuite(server, suite);
      const mine = out.findings.filter((f) => f.checkId === 'helpcenter.body-limit');
      expect(mine.map((f) => f.clause)).toEqual(['8.body.code']);
      expect(mine[0]!.actual).toContain('help.payload_too_large');
    } finally {
      await server.close();
    }
  });
});
