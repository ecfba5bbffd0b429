/**
 * Issue 10: each realistic limiter misconfiguration, run through the built-in profile that exposes it with
 * budgets unstated, is reported under the rule that names the bug (not only under some other rule), and
 * the run fails.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { MISCONFIGS } from './support/limiters.js';
import { runAgainst } from './support/run.js';
import type { LimitedServer } from './support/server.js';

let server: LimitedServer | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

describe.each(MISCONFIGS)('$name', (m) => {
  it(`fails ${m.profile} under ${m.rule}`, async () => {
    server = await m.start(m.budgets);
    const run = await runAgainst(m.name, server, m.profile, m.budgets);
    expect({ status: run.result.status, rules: [...run.rules].sort() }).toEqual({
      status: 'failed',
      rules: expect.arrayContaining([m.rule]),
    });
  });
});
