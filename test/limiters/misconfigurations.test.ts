/**
 * Issue 10: each realistic limiter misconfiguration, run through the built-in profile that exposes it with
 * budgets unstated, is reported under the rule that names the bug (not only under some other rule), and
 * the run fails.
 */
import { describe, it } from 'vitest';
import { MISCONFIGS, type MisconfigDef } from './support/limiters.js';
import { runAgainst, type LimiterRun } from './support/run.js';

/** Runs the misconfiguration's profile against a server of its own, closed after. */
async function runMisconfig(m: MisconfigDef): Promise<LimiterRun> {
  const server = await m.start(m.budgets);
  try {
    return await runAgainst(m.name, server, m.profile, m.budgets);
  } finally {
    await server.close();
  }
}

// Each bug has its own server and shows plainly (twice the budget admitted, a shared store, Reset in ms):
// the runs go side by side.
describe.concurrent.each(MISCONFIGS)('$name', (m) => {
  it(`fails ${m.profile} under ${m.rule}`, async ({ expect }) => {
    const run = await runMisconfig(m);
    expect({ status: run.result.status, rules: [...run.rules].sort() }).toEqual({
      status: 'failed',
      rules: expect.arrayContaining([m.rule]),
    });
  });
});
