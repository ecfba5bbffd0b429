/**
 * Issue 10, "real limiters in the project's own tests": every built-in profile against each widely used
 * limiter library, configured correctly, with the budgets NOT stated in the target file. A correct limiter
 * must pass: no finding, no rate-limit violation, every threshold held (latency thresholds aside: they
 * measure the shared test machine; see support/run.ts). The observed Limit must be the configured one, so
 * the run really read the limiter's headers.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { LIMITERS } from './support/limiters.js';
import { PROFILES, runAgainst } from './support/run.js';
import type { LimitedServer } from './support/server.js';

describe.each(LIMITERS)('$name, budgets unstated', (def) => {
  // A fresh server per profile: budget left over from the previous run (capacity before soak) would make
  // a correct limiter refuse a profile that expects no 429. A window begun before the run is its own test.
  let server: LimitedServer | undefined;
  afterEach(async () => {
    await server?.close();
    server = undefined;
  });

  it.each(PROFILES)('%s passes with zero rate-limit violations', async (profile) => {
    server = await def.start(def.budgets);
    const run = await runAgainst(def.name, server, profile, def.budgets);
    expect(run.summary).toEqual({ status: 'passed', failedThresholds: [], findings: [], violations: [] });
    for (const c of run.result.rateLimit.classes) expect(c.observedLimit).toBe(def.budgets[c.class].limit);
  });
});
