import { describe, expect, it } from 'vitest';
import suite from '../../suites/idempotency.js';
import { startReferenceServer } from '../../src/reference/index.js';
import { proveSuite, runSuite } from './stateful-harness.js';

proveSuite(suite, [
  'idempotency-ignores-body', 'idempotency-double-effect', 'idempotency-key-length', 'idempotency-race', 'idempotency-cross-connection',
]);

describe('idempotency model-based check', () => {
  // Seen twice in full runs on a loaded machine (a 6-exchange sequence once, no finding once), never alone or
  // under synthetic load: one retry while the cause is open (see the closing note of 26 Nov 2026).
  it('reports the shrunk sequence with its seed, shrink path and only the exchanges of that sequence', { retry: 1 }, async () => {
    const server = await startReferenceServer({ seed: 7, budgets: { read: 1e6, write: 1e6 }, faults: ['idempotency-double-effect'] });
    try {
      const out = await runSuite(server, { ...suite, checks: suite.checks.filter((c) => c.id === 'idempotency.model') }, 7);
      const [f] = out.findings;
      expect(f?.clause).toBe('idempotency.replay');
      expect(f?.reproduction?.path).toMatch(/^\d+(:\d+)*$/);
      expect(f?.reproduction?.seed).toBe(7);
      expect(f?.actual).toMatch(/input assign\([^]*fresh key\),assign\([^]*reused key/);
      // The shortest sequence: one keyed request and its retry, between the read-backs before and after.
      expect(f?.exchangeIds.length).toBe(4);
    } finally {
      await server.close();
    }
  });
});
