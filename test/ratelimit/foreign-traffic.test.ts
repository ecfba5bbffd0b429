/**
 * Other clients on the same budget (a staging key shared by two CI jobs, or a budget per workspace) spend it
 * too: Remaining falls by more than the run's own requests, and 429s come before the run used the budget.
 * That is the limiter working, not failing. Step by step (a counter driven in the test, the analyzer alone):
 * with another client's request before each of the run's, the run used to fail 8.ratelimit.remaining-rises
 * ("several counters": the window refills read as jumps); now it passes, and its summary says others spend
 * the budget and which rules were therefore not judged (spentByOthers); the same 429s without the others'
 * spending are still under-admission. Live, beside another spgate process on one key of the reference
 * server: never several counters or over-admission (a million-per-second budget used to fail the first,
 * 218 falls and 3 refills). Several counters behind one port (three reference servers behind a random
 * balancer) still fail.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { loadProfile } from '../../src/load/profile.js';
import { analyzeRateLimits } from '../../src/ratelimit/analyze.js';
import type { RateLimitSample } from '../../src/ratelimit/sample.js';
import { runProfile } from '../../src/load/run.js';
import { startReferenceServer, type RunningReferenceServer } from '../../src/reference/index.js';
import { targetFromInput } from '../../src/target/resolve.js';
import { startRoundRobinProxy } from '../limiters/support/proxy.js';
import { runCli } from '../support/cli.js';
import { tempDir, writeJson } from '../support/target-file.js';

const servers: Array<{ close(): Promise<void> }> = [];
afterEach(async () => {
  await Promise.all(servers.splice(0).map((s) => s.close()));
});

/** read-budget: four closed-loop connections of reads (each run below is 2 s, without its minWindows extension). */
const profile = () => loadProfile('read-budget');

async function reference(budgets: { read: number; write: number; windowSeconds: number }, seed = 7): Promise<RunningReferenceServer> {
  const s = await startReferenceServer({ port: 0, seed, budgets });
  servers.push(s);
  return s;
}

/**
 * One fixed-window counter (Limit 10, 1 s windows aligned to 0), answered one request at a time: the run's
 * requests every 50 ms, and `foreign` requests of another client counted just before each of them. The run
 * sees its own responses only.
 */
function sharedCounter(foreign: number, windows = 3): RateLimitSample[] {
  const out: RateLimitSample[] = [];
  let window = -1;
  let used = 0;
  for (let t = 0; t < windows * 1000; t += 50) {
    if (Math.floor(t / 1000) !== window) [window, used] = [Math.floor(t / 1000), 0];
    used += foreign;
    const reset = String(Math.ceil((1000 * (window + 1) - t) / 1000));
    const admitted = used < 10;
    if (admitted) used += 1;
    out.push({
      sentAt: t,
      receivedAt: t + 2,
      class: 'read',
      status: admitted ? 200 : 429,
      limit: '10',
      remaining: String(Math.max(0, 10 - used)),
      reset,
      key: 'admin',
      ...(admitted ? {} : { retryAfter: reset, errorCode: 'rate_limit.exceeded' }),
    });
  }
  return out;
}

describe('a counter others spend, step by step (analyzer alone)', () => {
  it('alone on it: no violation, nothing spent by others', () => {
    const a = analyzeRateLimits(sharedCounter(0));
    expect(a.violations).toEqual([]);
    expect(a.classes[0]!.spentByOthers).toBeUndefined();
  });

  it("another client spends one request before each of the run's: no violation, and the summary says why", () => {
    const a = analyzeRateLimits(sharedCounter(1));
    expect(a.violations.map((v) => `${v.rule}: ${v.message}`)).toEqual([]);
    expect(a.classes[0]!.spentByOthers).toBeGreaterThanOrEqual(2);
    expect(a.classes[0]!.explanation).toContain(
      'Remaining fell ' + a.classes[0]!.spentByOthers + " times by more than this run's requests: others spend this budget",
    );
  });

  it("the same 429s with Remaining falling only by the run's own requests are under-admission", () => {
    // The limiter refuses from the 6th request of each window though Remaining says 5 are left.
    const early = sharedCounter(0).map((s, i, all) => {
      const inWindow = all.filter((x) => Math.floor(x.sentAt / 1000) === Math.floor(s.sentAt / 1000) && x.sentAt <= s.sentAt).length;
      return inWindow > 5 ? { ...s, status: 429, remaining: '4', retryAfter: s.reset, errorCode: 'rate_limit.exceeded' } : s;
    });
    expect(analyzeRateLimits(early).violations.map((v) => v.rule)).toContain('8.ratelimit.under-admission');
  });
});

describe('other clients on the same budget', () => {
  it.each([
    ['a budget of a million per second (never spent)', { read: 1_000_000, write: 100_000, windowSeconds: 1 }],
    ['a budget of 40 per second (spent: 429s before the run used it)', { read: 40, write: 10, windowSeconds: 1 }],
  ])('another client on the key, %s: the run never reads it as several counters or over-admission', async (_name, budgets) => {
    const s = await reference(budgets);
    const target = targetFromInput(s.describe({ budgets: false }), 'reference');
    // The other client: spgate in a process of its own (another CI job on the same key), for a while longer.
    const file = writeJson(tempDir('spgate-foreign-'), 'target.json', s.describe({ budgets: false }));
    const other = runCli(['load', '--profile', 'read-budget', '--target', file, '--duration', '4'], { timeoutMs: 60_000 });
    await new Promise((r) => setTimeout(r, 1000));
    const run = await runProfile({ target, profile: profile(), durationOverride: 2 });
    await other;
    const read = run.result.rateLimit.classes.find((c) => c.class === 'read')!;
    // Never "several counters" or over-admission: a single counter rises only when it refills, and others
    // spending it make it admit less, never more. (Whether the run's own responses show the others'
    // spending, which keeps a 429 or a short budget after Reset from being held against the limiter,
    // depends on how the two interleave: a run beside 250 test files once saw none and judged
    // reset-restores 2 requests short; docs/rate-limits.md, limits. The step-by-step counter above
    // asserts that part.)
    const blamed = run.result.rateLimit.violations.filter(
      (v) => v.rule === '8.ratelimit.remaining-rises' || v.rule === '8.ratelimit.over-admission',
    );
    expect(
      blamed.map((v) => `${v.rule}: ${v.message}`),
      read.explanation,
    ).toEqual([]);
    expect(read.spentByOthers === undefined || read.explanation.includes('others spend this budget')).toBe(true);
  });

  it('a run alone on the key: nothing spent by others, and the rules judge as ever', async () => {
    const s = await reference({ read: 40, write: 10, windowSeconds: 1 });
    const target = targetFromInput(s.describe({ budgets: false }), 'reference');
    const run = await runProfile({ target, profile: profile(), durationOverride: 2 });
    const read = run.result.rateLimit.classes.find((c) => c.class === 'read')!;
    expect(run.result.rateLimit.violations).toEqual([]);
    expect(read.spentByOthers).toBeUndefined();
    expect(read.refused).toBeGreaterThan(0);
  });

  it('an early 429 alone on the key is still under-admission', async () => {
    const s = await startReferenceServer({
      port: 0,
      seed: 7,
      budgets: { read: 40, write: 10, windowSeconds: 1 },
      faults: ['ratelimit-early-429'],
    });
    servers.push(s);
    const target = targetFromInput(s.describe({ budgets: false }), 'reference');
    const run = await runProfile({ target, profile: profile(), durationOverride: 2 });
    expect(run.result.rateLimit.violations.map((v) => v.rule)).toContain('8.ratelimit.under-admission');
    expect(run.result.rateLimit.classes.find((c) => c.class === 'read')!.spentByOthers).toBeUndefined();
  });

  it('several counters behind one port (fixed windows, a random balancer) still fail remaining-rises', async () => {
    const budgets = { read: 40, write: 10, windowSeconds: 1 };
    // Same seed, same keys: three replicas of one deployment, each with its own counter. Not two: Reset in whole
    // seconds cannot rule out one limiter of 40 per 500 ms (80/s), and two counters of 40 per 1 s whose
    // admissions a starved client spreads over each window admit no more than that (CI once: 71–87 per window,
    // 250 in all, neither rule); three admit half as much again as any such limiter, however they are spread.
    const [a, b, c] = [await reference(budgets), await reference(budgets), await reference(budgets)];
    servers.splice(0);
    const up = (r: RunningReferenceServer) => ({ url: r.describe().baseUrl, close: () => r.close() });
    const proxy = await startRoundRobinProxy([up(a), up(b), up(c)], { random: 5 });
    servers.push(proxy);
    const target = targetFromInput(
      { ...a.describe({ budgets: false }), baseUrl: proxy.url, fixtures: { ids: a.describe().fixtures!.ids! } },
      'replicas',
    );
    const run = await runProfile({ target, profile: profile(), durationOverride: 3 });
    const rules = run.result.rateLimit.violations.map((v) => v.rule);
    // Either rule names the bug: each counter admits a budget of its own (twice the Limit per window).
    expect(
      rules.filter((r) => r === '8.ratelimit.remaining-rises' || r === '8.ratelimit.over-admission'),
      JSON.stringify({ classes: run.result.rateLimit.classes.map((c) => c.explanation), rules }),
    ).not.toEqual([]);
    expect(run.result.rateLimit.classes.find((c) => c.class === 'read')!.spentByOthers).toBeUndefined();
  });
});
