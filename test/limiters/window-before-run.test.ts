/**
 * Regression (issue 10): against a correct fixed-window limiter whose window had begun before the run,
 * read-budget labelled the model "unknown" and printed "0–232 admitted per exhausted window" for a limit
 * of 120: windows were anchored at the first response, not at the refills the headers announce. Each
 * fixed-window library is primed with part of its read budget just before the run starts.
 */
import { request } from 'undici';
import { describe, it } from 'vitest';
import { API_KEY } from './support/api.js';
import { LIMITERS } from './support/limiters.js';
import { runAgainst } from './support/run.js';
import type { Budgets, LimitedServer } from './support/server.js';

const BUDGETS: Budgets = { read: { limit: 24, windowSeconds: 1 }, write: { limit: 6, windowSeconds: 1 } };
const FIXED_WINDOW = LIMITERS.filter((l) => !l.name.includes('token bucket'));

/** Primes a third of the read budget, then runs read-budget; the server is closed after. */
async function primedRun(server: LimitedServer, name: string) {
  try {
    for (let i = 0; i < BUDGETS.read.limit / 3; i++) {
      const res = await request(`${server.url}/me`, { headers: { authorization: `Bearer ${API_KEY}` } });
      await res.body.dump();
    }
    return await runAgainst(name, server, 'read-budget', BUDGETS);
  } finally {
    await server.close();
  }
}

// Each library has its own server, on 1 s windows: the three runs go side by side.
describe.concurrent.each(FIXED_WINDOW)('$name, window begun before the run', (def) => {
  it('read-budget sees fixed windows of at most Limit admissions, and no violation', async ({ expect }) => {
    const run = await primedRun(await def.start(BUDGETS), def.name);
    const read = run.result.rateLimit.classes.find((c) => c.class === 'read')!;
    expect({ summary: run.summary, model: read.model, limit: read.observedLimit }).toEqual({
      summary: { status: 'passed', failedThresholds: [], findings: [], violations: [] },
      model: 'fixed-window',
      limit: BUDGETS.read.limit,
    });
    expect(read.windows.filter((w) => w.admitted > BUDGETS.read.limit)).toEqual([]);
  });
});
