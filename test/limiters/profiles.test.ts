/**
 * Issue 10, "real limiters in the project's own tests": every built-in profile against each widely used
 * limiter library, configured correctly, with the budgets NOT stated in the target file. A correct limiter
 * must pass: no finding, no rate-limit violation, every threshold held (latency thresholds aside: they
 * measure the shared test machine; see support/run.ts). The observed Limit must be the configured one, so
 * the run really read the limiter's headers.
 *
 * One profile at a time. The low-rate profiles run the limiters side by side (each on its own server, so
 * none sees another's traffic): those runs mostly wait on windows. The ones that drive a class as fast as
 * it goes (read-budget, burst, capacity) run one limiter at a time: four of them at once in one process
 * drop requests (`dropped == 0` fails) for reasons that have nothing to do with the limiter.
 */
import { describe, it } from 'vitest';
import { LIMITERS } from './support/limiters.js';
import { PROFILES, runAgainst } from './support/run.js';

const SIDE_BY_SIDE = new Set<string>(['smoke', 'write-budget', 'class-isolation', 'soak']);

describe.each(PROFILES)('%s, budgets unstated', (profile) => {
  (SIDE_BY_SIDE.has(profile) ? it.concurrent : it).for(LIMITERS)(
    '$name passes with zero rate-limit violations',
    async (def, { expect }) => {
      // A fresh server per run: budget left over from an earlier run (capacity before soak) would make a
      // correct limiter refuse a profile that expects no 429. A window begun before the run has its own test.
      const server = await def.start(def.budgets);
      try {
        const run = await runAgainst(def.name, server, profile, def.budgets);
        expect(run.summary).toEqual({ status: 'passed', failedThresholds: [], findings: [], violations: [] });
        for (const c of run.result.rateLimit.classes) expect(c.observedLimit).toBe(def.budgets[c.class].limit);
      } finally {
        await server.close();
      }
    },
  );
});
