import { afterAll, describe, it } from 'vitest';
import { startReferenceServer, type RunningReferenceServer } from '../../src/reference/index.js';
import { targetFromInput } from '../../src/target/resolve.js';
import type { TargetFileInput } from '../../src/target/schema.js';
import { loadProfile } from '../../src/load/profile.js';
import { runProfile } from '../../src/load/run.js';
import { STATED_BUDGET_CLAUSE } from '../../src/load/discover.js';

// Unusual budgets no fallback rate fits: 20 reads and 6 writes per 3 s window. Each case has a server of its
// own (none spends another's budget or inherits its window), so the cases run side by side.
const servers: RunningReferenceServer[] = [];
afterAll(async () => {
  await Promise.all(servers.map((s) => s.close()));
});

/** A fresh reference server's target, with these budgets stated (or none). */
async function target(rateLimit: NonNullable<TargetFileInput['assumptions']>['rateLimit'], strict = false) {
  const ref = await startReferenceServer({ port: 0, seed: 11, budgets: { read: 20, write: 6, windowSeconds: 3 } });
  servers.push(ref);
  return targetFromInput({ ...ref.target, assumptions: { ...ref.target.assumptions, rateLimit, strict } }, 'embedded');
}

describe('budgets discovered from the headers, against the reference server (20 reads, 6 writes per 3 s)', () => {
  it.concurrent('regression: class-isolation read at its 20 rps fallback above a 20-per-3-s read budget; now it reads at ~3.3 rps and passes', async ({
    expect,
  }) => {
    const tgt = await target({});
    const { result, findings } = await runProfile({ target: tgt, profile: loadProfile('class-isolation'), durationOverride: 4 });
    const budgets = result.config.budgets as Record<string, { limit: number; windowSeconds: number; source: string }>;
    // W is read to the second from a rounded-up Reset; a heavily loaded machine can wake the probe late.
    expect(budgets.read).toMatchObject({ limit: 20, source: 'observed' });
    expect(budgets.write).toMatchObject({ limit: 6, source: 'observed' });
    expect([2, 3]).toContain(budgets.read!.windowSeconds);
    const classes = result.config.classes as Array<{ class: string; peakRate: number }>;
    const readRate = classes.find((c) => c.class === 'read')!.peakRate;
    expect(readRate).toBeGreaterThanOrEqual(3.3);
    expect(readRate).toBeLessThanOrEqual(5);
    expect(findings).toEqual([]);
    expect(result.thresholds.filter((t) => !t.ok)).toEqual([]);
    expect(result.status).toBe('passed');
  }, 30_000);

  it.concurrent('write-budget sizes its writes from the observed write budget and drives it past it', async ({ expect }) => {
    const { result, findings } = await runProfile({ target: await target({}), profile: loadProfile('write-budget'), durationOverride: 4 });
    const budgets = result.config.budgets as Record<string, { limit: number; windowSeconds: number; source: string }>;
    expect(budgets.write).toMatchObject({ limit: 6, source: 'observed' });
    expect(result.totals.byStatus['429']).toBeGreaterThan(0);
    expect(findings).toEqual([]);
    expect(result.status).toBe('passed');
  }, 30_000);

  it.concurrent('a stated budget the headers contradict is a finding naming both values, and the observed budget drives the run', async ({
    expect,
  }) => {
    const stated = { read: { limit: 1000, windowSeconds: 5 }, write: { limit: 250, windowSeconds: 5 } };
    const tgt = await target(stated);
    const { result, findings } = await runProfile({ target: tgt, profile: loadProfile('class-isolation'), durationOverride: 4 });
    const own = findings.filter((f) => f.clause === STATED_BUDGET_CLAUSE);
    expect(own).toHaveLength(2);
    for (const f of own) {
      expect(f.basis).toBe('assumed');
      expect(f.severity).toBe('warning');
    }
    const read = own.find((f) => f.expected.startsWith('read'))!;
    expect(read.expected).toContain('1000 per 5 s');
    expect(read.actual).toContain('RateLimit-Limit: 20');
    const budgets = result.config.budgets as Record<string, { limit: number; windowSeconds: number; source: string; stated?: unknown }>;
    expect(budgets.read).toMatchObject({ limit: 20, source: 'observed', stated: stated.read });
    expect(findings.filter((f) => f.clause !== STATED_BUDGET_CLAUSE)).toEqual([]);
    expect(result.thresholds.filter((t) => !t.ok)).toEqual([]);
    expect(result.status).toBe('passed');
  }, 30_000);

  it.concurrent('a contradicted stated budget under assumptions.strict drives the run and fails it', async ({ expect }) => {
    const stated = { write: { limit: 250, windowSeconds: 5 } };
    const { result, findings } = await runProfile({
      target: await target(stated, true),
      profile: loadProfile('write-budget'),
      durationOverride: 1,
    });
    const own = findings.filter((f) => f.clause === STATED_BUDGET_CLAUSE);
    expect(own.map((f) => f.severity)).toEqual(['error']);
    expect(own[0]!.actual).toContain('RateLimit-Limit: 6');
    expect(result.config.budgets).toMatchObject({ write: { limit: 250, windowSeconds: 5, source: 'stated' } });
    expect(result.status).toBe('failed');
  }, 30_000);

  it.concurrent('a stated budget the headers confirm costs one request per class and gives no finding', async ({ expect }) => {
    const stated = { read: { limit: 20, windowSeconds: 3 }, write: { limit: 6, windowSeconds: 3 } };
    const tgt = await target(stated);
    const { result, findings } = await runProfile({ target: tgt, profile: loadProfile('class-isolation'), durationOverride: 1 });
    expect(findings.filter((f) => f.clause === STATED_BUDGET_CLAUSE)).toEqual([]);
    expect(result.config.budgets).toMatchObject({ read: { limit: 20, windowSeconds: 3, source: 'stated' }, write: { source: 'stated' } });
    expect(String(result.config.notes)).toContain('budget probe: 2 request(s)');
  }, 30_000);

  it.concurrent('an abort during the probe (a 30 s window to wait for) ends the run at once, status aborted', async ({ expect }) => {
    const slow = await startReferenceServer({ port: 0, seed: 12, budgets: { read: 20, write: 6, windowSeconds: 30 } });
    try {
      const t = targetFromInput({ ...slow.target, assumptions: { ...slow.target.assumptions, rateLimit: {} } }, 'embedded');
      const ac = new AbortController();
      setTimeout(() => ac.abort(), 300);
      const { result } = await runProfile({ target: t, profile: loadProfile('class-isolation'), durationOverride: 4, signal: ac.signal });
      expect(result.status).toBe('aborted');
      expect(result.totals.sent).toBe(0);
    } finally {
      await slow.close();
    }
  }, 10_000);
});
