/**
 * The rate-limit profiles against every reference-server dialect, each through a target that holds only ids
 * and states no budgets: the budgets are discovered from the headers and the profiles see no rate-limit
 * violation. A profile that only works on the default limiter fails here. (The whole suite against every
 * dialect: dialects-a/-b.test.ts.)
 *
 * read-budget drives reads as fast as the connections go: one run at a time. write-budget and
 * class-isolation send a few requests a second and mostly wait on windows: they run side by side (vitest's
 * maxConcurrency at a time), and beside the read-budget runs, each against its own server, so none sees
 * another's traffic.
 */
import { describe, expect, it } from 'vitest';
import { loadProfile } from '../../src/load/profile.js';
import { runProfile } from '../../src/load/run.js';
import { DIALECT_NAMES, startReferenceServer, type DialectName } from '../../src/reference/index.js';
import { targetFromInput } from '../../src/target/resolve.js';

/**
 * One-second windows keep each profile's ≥ 2.5 windows to 3 s (read-budget keeps a core busy all that time:
 * 5.5 s a dialect with 2 s windows); each dialect keeps its limiter model.
 */
const BUDGETS = { read: 40, write: 8, windowSeconds: 1 };

/** Runs the profile against a fresh server of the dialect and asserts what every dialect must give. */
async function discoveredWithoutViolation(dialect: DialectName, name: string): Promise<void> {
  const limited = await startReferenceServer({ seed: 11, dialect, fixturesApi: false, budgets: BUDGETS });
  try {
    const target = targetFromInput(limited.describe({ budgets: false }), `${dialect}.target.json`);
    const durationOverride = 2.5 * BUDGETS.windowSeconds + 0.5;
    const { result, findings } = await runProfile({ target, profile: loadProfile(name), durationOverride });
    expect(result.rateLimit.violations.map((v) => `${v.rule}: ${v.message}`)).toEqual([]);
    expect(findings.filter((f) => f.severity === 'error').map((f) => `${f.clause}: ${f.title}`)).toEqual([]);
    const budgets = result.config.budgets as Record<string, { source: string } | undefined> | undefined;
    for (const cls of ['read', 'write'] as const) if (budgets?.[cls]) expect(budgets[cls]!.source).toBe('observed');
  } finally {
    await limited.close();
  }
}

/**
 * The two groups run side by side (vitest's maxConcurrency runs at a time in all): the read-budget runs one
 * after another, the low-rate ones mostly wait on their windows beside them.
 */
describe.concurrent('read-budget, one dialect at a time, ids-only target, budgets unstated', () => {
  it.sequential.each(DIALECT_NAMES)('%s: budgets discovered from the headers, no rate-limit violation', (dialect) =>
    discoveredWithoutViolation(dialect, 'read-budget'),
  );
});

describe.concurrent('low-rate profiles, every dialect side by side, ids-only target, budgets unstated', () => {
  const cells = DIALECT_NAMES.flatMap((dialect) => ['write-budget', 'class-isolation'].map((profile) => ({ dialect, profile })));
  it.each(cells)('$dialect, $profile: budgets discovered from the headers, no rate-limit violation', ({ dialect, profile }) =>
    discoveredWithoutViolation(dialect, profile),
  );
});
