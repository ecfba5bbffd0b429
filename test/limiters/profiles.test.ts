/**
 * Issue 10, "real limiters in the project's own tests": every built-in profile against each widely used
 * limiter library, configured correctly, with the budgets NOT stated in the target file. A correct limiter
 * must pass: no finding, no rate-limit violation, every threshold held (latency thresholds aside: they
 * measure the shared test machine; see support/run.ts). The observed Limit must be the configured one, so
 * the run really read the limiter's headers.
 *
 * Each run has its own server (none sees another's traffic), and the runs mostly wait on windows, so they
 * go side by side. The ones that drive a class as fast as it goes (read-budget, burst, capacity) run at most
 * two at a time: four of them at once in one process drop requests (`dropped == 0` fails) for reasons that
 * have nothing to do with the limiter.
 */
import { describe, it } from 'vitest';
import { LIMITERS } from './support/limiters.js';
import { PROFILES, runAgainst } from './support/run.js';

const FAST = new Set<string>(['read-budget', 'burst', 'capacity']);
const FAST_AT_ONCE = 2;

/** Runs `fn` once fewer than FAST_AT_ONCE fast profiles are running. */
let fastRunning = 0;
const fastWaiting: Array<() => void> = [];
async function fastSlot<T>(fn: () => Promise<T>): Promise<T> {
  if (fastRunning >= FAST_AT_ONCE) await new Promise<void>((r) => fastWaiting.push(r));
  fastRunning++;
  try {
    return await fn();
  } finally {
    fastRunning--;
    fastWaiting.shift()?.();
  }
}

describe.concurrent.each(PROFILES)('%s, budgets unstated', (profile) => {
  it.for(LIMITERS)('$name passes with zero rate-limit violations', async (def, { expect }) => {
    const run = async () => {
      // A fresh server per run: budget left over from an earlier run (capacity before soak) would make a
      // correct limiter refuse a profile that expects no 429. A window begun before the run has its own test.
      const server = await def.start(def.budgets);
      try {
        return await runAgainst(def.name, server, profile, def.budgets);
      } finally {
        await server.close();
      }
    };
    const result = await (FAST.has(profile) ? fastSlot(run) : run());
    expect(result.summary).toEqual({ status: 'passed', failedThresholds: [], findings: [], violations: [] });
    for (const c of result.result.rateLimit.classes) expect(c.observedLimit).toBe(def.budgets[c.class].limit);
  });
});
