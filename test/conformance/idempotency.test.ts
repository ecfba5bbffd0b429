import { describe, expect, it } from 'vitest';
import suite from '../../suites/idempotency.js';
import { startReferenceServer } from '../../src/reference/index.js';
import { proveSuite, runSuite } from './stateful-harness.js';

proveSuite(suite, [
  'idempotency-ignores-body',
  'idempotency-double-effect',
  'idempotency-key-length',
  'idempotency-race',
  'idempotency-cross-connection',
]);

describe('idempotency model-based check', () => {
  // Once timing-dependent (a second effect that left the state as it was showed only when the server's clock
  // had ticked since the last write): the model now moves the state before such a retry (unmaskingMove).
  it('reports the shrunk sequence with its seed, shrink path and only the exchanges of that sequence', async () => {
    const server = await startReferenceServer({ seed: 7, budgets: { read: 1e6, write: 1e6 }, faults: ['idempotency-double-effect'] });
    try {
      const out = await runSuite(server, { ...suite, checks: suite.checks.filter((c) => c.id === 'idempotency.model') }, 7);
      const [f] = out.findings;
      expect(f?.clause).toBe('idempotency.replay');
      expect(f?.reproduction?.path).toMatch(/^\d+(:\d+)*$/);
      expect(f?.reproduction?.seed).toBe(7);
      expect(f?.actual).toMatch(/input assign\([^]*fresh key\),assign\([^]*no key\), assign\([^]*reused key/);
      // The shortest sequence: one keyed request, the keyless move, the retry, between the read-backs before and after.
      expect(f?.exchangeIds.length).toBe(5);
    } finally {
      await server.close();
    }
  });
});
