/**
 * A capacity run against a per-key rate limiter measures the key's budget, not the server (issue 31: "863/s
 * — capacity is at least that" while 5,671 of 8,037 answers were 429s). The figure must say so and name the
 * way out; with no refusals it stays a capacity figure.
 */
import { describe, it } from 'vitest';
import { parseProfile } from '../../src/load/profile.js';
import { runProfile } from '../../src/load/run.js';
import { startReferenceServer } from '../../src/reference/index.js';
import { targetFromInput } from '../../src/target/resolve.js';

const ramp = parseProfile(
  {
    name: 'capacity-admission',
    description: 'ramp past a small read budget',
    model: 'open',
    duration: 3,
    maxConnections: 16,
    dropAfterMs: 2000,
    maxRequests: 600,
    classes: { read: { ramp: { start: 20, stages: [{ duration: 3, target: 120 }] }, routes: [{ route: 'me' }] } },
    capacity: { p95Ms: 2000, maxErrorPct: 5 },
  },
  'test',
);

/** Runs the ramp against a reference server of its own with these budgets (the two cases go side by side). */
async function rampAgainst(budgets: { read: number; write: number; windowSeconds?: number }) {
  const ref = await startReferenceServer({ port: 0, seed: 5, budgets });
  try {
    return await runProfile({ target: targetFromInput(ref.target, 'embedded'), profile: ramp });
  } finally {
    await ref.close();
  }
}

describe('capacity against a rate-limited target', () => {
  it.concurrent('a budget of 30 reads/s: the figure is the admission budget, with the way out', async ({ expect }) => {
    const { result } = await rampAgainst({ read: 30, write: 10, windowSeconds: 1 });
    const cap = result.capacity!;
    expect(result.totals.byStatus['429'] ?? 0).toBeGreaterThan(0);
    expect(cap.admissionBudget).toBe(true);
    expect(cap.explanation).toMatch(
      /^this is the admission budget of the key \(30\/s\), not the server's capacity: \d+ of \d+ answers were 429s/,
    );
    expect(cap.remedy).toMatch(/^spread the load over a pool of keys: list more keys of the role under keys.admin.pool in the target file/);
    // Throughput counts the admitted answers only: never more than the budget allows (30 a window, 3 windows + 1).
    expect(result.throughput.meanRps).toBeLessThanOrEqual(40);
  }, 30_000);

  it.concurrent('no refusals: a capacity figure, not flagged', async ({ expect }) => {
    const { result } = await rampAgainst({ read: 1_000_000, write: 1_000_000 });
    expect(result.totals.byStatus['429'] ?? 0).toBe(0);
    expect(result.capacity!.admissionBudget).toBeUndefined();
    expect(result.capacity!.explanation).not.toContain('admission budget');
  }, 30_000);
});
