import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startReferenceServer, type RunningReferenceServer } from '../../src/reference/index.js';
import { targetFromInput } from '../../src/target/resolve.js';
import type { TargetFileInput } from '../../src/target/schema.js';
import { loadProfile } from '../../src/load/profile.js';
import { runProfile } from '../../src/load/run.js';
import { STATED_BUDGET_CLAUSE } from '../../src/load/discover.js';

// Unusual budgets no fallback rate fits: 20 reads and 6 writes per 3 s window.
let ref: RunningReferenceServer;
beforeAll(async () => {
  ref = await startReferenceServer({ port: 0, seed: 11, budgets: { read: 20, write: 6, windowSeconds: 3 } });
});
afterAll(async () => {
  await ref?.close();
});

function target(rateLimit: NonNullable<TargetFileInput['assumptions']>['rateLimit'], strict = false) {
  return targetFromInput({ ...ref.target, assumptions: { ...ref.target.assumptions, rateLimit, strict } }, 'embedded');
}

describe('budgets discovered from the headers, against the reference server (20 reads, 6 writes per 3 s)', () => {
  it('class-isolation passes a correct limiter whose budgets the file does not state (reads at ~3.3 rps, not the 20 rps fallback)', async () => {
    const { result, findings } = await runProfile({ target: target({}), profile: loadProfile('class-isolation'), durationOverride: 4 });
    const budgets = result.config.budgets as Record<string, { limit: number; windowSeconds: number; source: string }>;
    expect(budgets.read).toMatchObject({ limit: 20, windowSeconds: 3, source: 'observed' });
    expect(budgets.write).toMatchObject({ limit: 6, windowSeconds: 3, source: 'observed' });
    const classes = result.config.classes as Array<{ class: string; peakRate: number }>;
    expect(classes.find((c) => c.class === 'read')!.peakRate).toBeCloseTo(20 / 3 / 2, 1);
    expect(findings).toEqual([]);
    expect(result.thresholds.filter((t) => !t.ok)).toEqual([]);
    expect(result.status).toBe('passed');
  }, 30_000);
});
