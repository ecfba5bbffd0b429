/**
 * Issues 23 and 34, end to end: for each real limiter library's misconfiguration (test/limiters) — among
 * them the one staging actually has, a store per replica behind one port, where which replica answers is
 * not the client's choice — and a reference server limiter fault, a trace recorded from an open-model run is
 * shrunk by the real CLI against the live target. The minimal schedule must be at most a quarter of the
 * original's requests (half behind a random balancer, where the search's path is chance), reproduce at
 * least 9 times in 10 (behind a random balancer, as often as the original did), its regression profile must
 * fail on the faulty limiter and pass on the correct one,
 * and the standalone bash + curl script must show the violation against the faulty limiter and not against
 * the fixed one. All eight run at once, in one vitest worker: their time is mostly spent waiting for budgets
 * and windows (about 8 % of a core each), so they share one of the run's workers rather than hold eight
 * (test/support/sequencer.ts starts this file first, vitest.config.ts counts it in maxWorkers). The per-replica
 * and fastify cases give the shrink a key pool (three more keys, each its own budget), which its attempts
 * take turns over; the others have one key, and each attempt waits for the budget the last one spent.
 */
import { execFile } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parseProfile, type ProfileInput } from '../../src/load/profile.js';
import { runProfile } from '../../src/load/run.js';
import { analyzeRateLimits } from '../../src/ratelimit/analyze.js';
import { readTrace } from '../../src/trace/reader.js';
import { Results, type ProfileResult } from '../../src/results/schema.js';
import { traceToSamples } from '../../src/trace/samples.js';
import { startReferenceServer } from '../../src/reference/index.js';
import { targetFromInput } from '../../src/target/resolve.js';
import { KEY_ROLES, type Target } from '../../src/target/schema.js';
import { SCRIPT_JUDGES } from '../../src/shrink/script-criteria.js';
import { asOftenAs } from '../../src/shrink/search.js';
import { runCli } from '../support/cli.js';
import { tempDir, writeJson } from '../support/target-file.js';
import { startExpressServer } from '../limiters/support/express-server.js';
import { startFastifyServer } from '../limiters/support/fastify-server.js';
import { startFlexibleServer } from '../limiters/support/flexible-server.js';
import { MISCONFIGS } from '../limiters/support/limiters.js';
import { startRoundRobinProxy } from '../limiters/support/proxy.js';
import { targetFor, type LimitedServer } from '../limiters/support/server.js';

interface Case {
  name: string;
  rule: string;
  class: 'read' | 'write';
  /** The budget and window the violation is about (for the bounds). */
  budget: number;
  windowSeconds: number;
  /** The open-model run whose trace is shrunk. */
  record: Omit<ProfileInput, 'name' | 'description' | 'model'>;
  /** The shrink's --max-time (default 420 s). */
  maxTime?: number;
  /** Behind a random balancer: whether a schedule reproduces is chance (which replica answers), so is the search's path. */
  randomBalancer?: true;
  /** Faulty and fixed targets; `fix` may switch the same server. */
  start(): Promise<{ faulty: Target; fixed: () => Promise<Target>; close: () => Promise<void> }>;
}

const misconfig = (name: string) => MISCONFIGS.find((m) => m.name.startsWith(name))!;

/**
 * A limiter-library case: the misconfigured server, and the same library configured correctly. With `pool`,
 * the faulty target's admin role has a pool of three more keys (each its own budget), which the shrink's
 * attempts take turns over (src/shrink/key-slots.ts).
 */
function libraryCase(
  prefix: string,
  correct: (b: (typeof MISCONFIGS)[number]['budgets']) => Promise<LimitedServer>,
  opts: { pool?: boolean } = {},
): Case['start'] {
  return async () => {
    const m = misconfig(prefix);
    const bad = await m.start(m.budgets);
    let good: LimitedServer | undefined;
    return {
      faulty: targetFor('faulty', bad.url, opts),
      fixed: async () => targetFor('fixed', (good = await correct(m.budgets)).url),
      close: async () => {
        await bad.close();
        await good?.close();
      },
    };
  };
}

/** A store per replica, two replicas behind one port: the limiter bug staging has. The faulty target has a key pool (above). */
function perReplicaCase(
  start: (
    budgets: { read: { limit: number; windowSeconds: number }; write: { limit: number; windowSeconds: number } },
    instance: string,
  ) => Promise<LimitedServer>,
  budgets: { read: { limit: number; windowSeconds: number }; write: { limit: number; windowSeconds: number } },
  pick: 'round-robin' | { random: number },
): Case['start'] {
  return async () => {
    const bad = await startRoundRobinProxy([await start(budgets, 'a'), await start(budgets, 'b')], pick);
    let good: LimitedServer | undefined;
    return {
      faulty: targetFor('faulty', bad.url, { pool: true }),
      fixed: async () => targetFor('fixed', (good = await start(budgets, 'a')).url),
      close: async () => {
        await bad.close();
        await good?.close();
      },
    };
  };
}

const ONE_SECOND = { read: { limit: 20, windowSeconds: 1 }, write: { limit: 6, windowSeconds: 1 } };
const READS = { routes: [{ route: 'me' as const }, { route: 'statuses' as const }] };
const CASES: Case[] = [
  {
    name: 'express-rate-limit, a store per replica, two replicas behind one port',
    maxTime: 240,
    randomBalancer: true,
    rule: '8.ratelimit.remaining-rises',
    class: 'read',
    budget: 20,
    windowSeconds: 1,
    record: { duration: 4, classes: { read: { routes: [{ route: 'me' }], rate: 40 } } },
    start: perReplicaCase((budgets) => startExpressServer({ budgets }), ONE_SECOND, { random: 34 }),
  },
  {
    name: 'rate-limiter-flexible, a store per replica, two replicas behind one port',
    maxTime: 240,
    randomBalancer: true,
    rule: '8.ratelimit.remaining-rises',
    class: 'read',
    budget: 15,
    windowSeconds: 1,
    record: { duration: 4, classes: { read: { routes: [{ route: 'me' }], rate: 40 } } },
    start: perReplicaCase(
      (budgets) => startFlexibleServer({ budgets }),
      { read: { limit: 15, windowSeconds: 1 }, write: { limit: 5, windowSeconds: 1 } },
      { random: 35 },
    ),
  },
  {
    name: 'express-rate-limit, one store for read and write',
    rule: '8.ratelimit.classes-isolated',
    class: 'read',
    budget: 20,
    windowSeconds: 1,
    record: { duration: 3, classes: { read: { routes: [{ route: 'me' }], rate: 10 }, write: { routes: [{ route: 'assign' }], rate: 4 } } },
    start: libraryCase('express-rate-limit: read and write sharing', (budgets) => startExpressServer({ budgets })),
  },
  {
    name: '@fastify/rate-limit, a store per replica, two replicas behind one port',
    rule: '8.ratelimit.over-admission',
    class: 'read',
    budget: 20,
    windowSeconds: 3,
    record: { duration: 6, classes: { read: { ...READS, rate: 60 } } },
    // Its 3 s windows make each attempt the longest of the table (about 3.5 s for the 62 requests: the key pool
    // saves the wait for a full budget, and its windows start with each attempt, so after four attempts none
    // waits for a phase, src/shrink/window-starts.ts); the smallest count above the bound is kept in the first
    // few steps (360 → 62, under a minute in) and the rest of the search only shaves routes and gaps. Issue 34
    // asks a two-window trace like this one to shrink within 2 minutes: --max-time 150 leaves the search what
    // the final measurement's reserve (the 62 and the original's rest) does not take, and ends in about 110 s.
    maxTime: 150,
    start: libraryCase('@fastify/rate-limit', (budgets) => startFastifyServer({ budgets }), { pool: true }),
  },
  {
    name: 'rate-limiter-flexible, Reset in ms',
    rule: '8.ratelimit.reset-plausible',
    class: 'read',
    budget: 15,
    windowSeconds: 1,
    record: { duration: 3, classes: { read: { routes: [{ route: 'me' }], rate: 30 } } },
    start: libraryCase('rate-limiter-flexible: RateLimit-Reset', (budgets) => startFlexibleServer({ budgets })),
  },
  {
    name: 'rate-limiter-flexible, Remaining before the count',
    rule: '8.ratelimit.under-admission',
    class: 'write',
    budget: 5,
    windowSeconds: 1,
    record: { duration: 3, classes: { write: { routes: [{ route: 'assign' }], rate: 10 } } },
    start: libraryCase('rate-limiter-flexible: Remaining', (budgets) => startFlexibleServer({ budgets })),
  },
  {
    name: 'express-rate-limit, windowMs 1',
    rule: '8.ratelimit.over-admission',
    class: 'read',
    budget: 20,
    windowSeconds: 1,
    // Its smallest proof is one more than twice the Limit at once (42; docs/rate-limits.md): a recording
    // of 3 s, not 2, so a quarter of it can hold that.
    record: { duration: 3, classes: { read: { ...READS, rate: 80 } } },
    start: libraryCase('express-rate-limit: the window', (budgets) => startExpressServer({ budgets })),
  },
  {
    name: 'reference server, fault ratelimit-early-429',
    rule: '8.ratelimit.under-admission',
    class: 'read',
    budget: 20,
    // The shape that shows an early 429 sends the window's first request alone and the rest a quarter of the
    // window later, at once, one more than the window admitted: should a window's end fall between them (gap/W of the
    // phases: 9/10 in two of the last four runs of the suite with a budget of 10), the rest are refused in a
    // window of their own. The analyzer may count the first request in that window too, so the budget is 20
    // (16 admitted + 1 is at most the Limit less its tolerance of 2; with 10, 8 + 1 is not). 2 s windows: Reset
    // in whole seconds of a 1 s window leaves its edges too uncertain. Recorded at 30/s: 120 requests, whose
    // quarter holds what the generic steps reach should the fitted shape miss once (CI: 80 → 30).
    windowSeconds: 2,
    record: { duration: 4, classes: { read: { routes: [{ route: 'me' }], rate: 30 } } },
    start: async () => {
      const s = await startReferenceServer({ faults: ['ratelimit-early-429'], budgets: { read: 20, write: 5, windowSeconds: 2 } });
      const target = targetFromInput(s.describe({ budgets: false }), 'reference');
      return {
        faulty: target,
        fixed: async () => {
          s.setFaults([]);
          return target;
        },
        close: () => s.close(),
      };
    },
  },
];

/** The issue's table, one row per case; printed, never asserted on (times measure the shared machine). */
const table: string[] = [];
/** Each case's search, step by step (counts and rates only: no body, no key), printed under the table. */
const searches: string[] = [];

/**
 * The table's header and rows, then each case's search steps, for the afterAll to print: a case that
 * passes the long way (CI once took 297 s to shrink the early 429's 80 requests to 30, where a run alone
 * takes 90 s to 18) says which step went otherwise.
 */
function tableText(): string {
  const header = 'misconfiguration | original requests | shrunk requests | reproduced | shrink time | script';
  return [header, ...table, ...searches].join('\n') + '\n';
}

/** A target file for `target`: every role's key, with its pool when it has one, and the fixtures' ids. */
function writeTargetFile(dir: string, file: string, name: string, target: Target): string {
  const keys = Object.fromEntries(
    KEY_ROLES.filter((role) => target.secrets[role] !== undefined).map((role) => {
      const pool = (target.pools[role] ?? []).slice(1).map((key) => target.secrets[key]!);
      return [role, { key: target.secrets[role], ...(pool.length ? { pool } : {}) }];
    }),
  );
  return writeJson(dir, file, { name, baseUrl: target.baseUrl, keys, allowWrites: true, fixtures: { ids: target.fixtures.ids } });
}

/** `spgate load --profile PROFILE --target TARGET`, its exit code checked against its verdict; the profile's result. */
async function regressionCheck(profilePath: string, targetFile: string, jsonPath: string): Promise<ProfileResult> {
  const run = await runCli(['load', '--profile', profilePath, '--target', targetFile, '--json', jsonPath], { timeoutMs: 120_000 });
  expect(run.timedOut).toBe(false);
  const result = Results.parse(JSON.parse(readFileSync(jsonPath, 'utf8'))).load[0]!;
  expect({ code: run.code, status: result.status }).toEqual({ code: result.status === 'passed' ? 0 : 1, status: result.status });
  return result;
}

/** Runs the standalone script with the admin key in its variable; its exit code and output. */
function runScript(path: string, env: Record<string, string>, args: string[] = []): Promise<{ code: number; stdout: string }> {
  return new Promise((resolve) => {
    execFile('bash', [path, ...args], { env: { PATH: process.env.PATH ?? '/usr/bin:/bin', ...env }, timeout: 60_000 }, (err, stdout) => {
      resolve({ code: err ? (typeof err.code === 'number' ? err.code : -1) : 0, stdout });
    });
  });
}

/**
 * One case end to end: record, shrink, the final measurement, the script, the regression profile. Its
 * verdicts rest on timing (which window an attempt lands in): eight shrinks at once cost little CPU (about
 * 8 % of a core each), but beside more busy workers on two cores they delay attempts enough that the smaller
 * schedules reproduce less often than the original in the final measurement and the shrink falls back to the
 * original (beside four busy workers at the same priority, the per-replica case 160 → 57 measured 6/8 and
 * fell back). The other workers yield to this one (test/support/priority.ts), and the eight start together,
 * a second apart (below), so that they are done before the busiest end of the run.
 */
async function shrinkCase(c: Case): Promise<void> {
  const env = await c.start();
  try {
    const dir = tempDir('spgate-shrink-');
    const original = join(dir, 'original.ndjson');
    const record = parseProfile(
      { name: 'record', description: 'the run that saw the bug', model: 'open', thresholds: [], ...c.record },
      'record',
    );
    // The recording is the user's input: under a loaded machine the analyzer may name the same bug under a
    // neighbouring rule (Remaining before the count: remaining-decreases instead of under-admission); a user
    // would shrink the trace that shows the rule, so the harness records until one does (three runs at most).
    for (let i = 0; i < 3; i++) {
      await runProfile({ target: env.faulty, profile: record, tracePath: original });
      if (analyzeRateLimits(traceToSamples(await readTrace(original))).violations.some((v) => v.rule === c.rule)) break;
      await new Promise((r) => setTimeout(r, c.windowSeconds * 1000 + 1200));
    }
    const targetFile = writeTargetFile(dir, 'target.json', 'faulty', env.faulty);
    const [minPath, profilePath, jsonPath, scriptPath] = ['min.ndjson', 'repro.json', 'shrink.json', 'repro.sh'].map((f) =>
      join(dir, f),
    ) as [string, string, string, string];
    const run = await runCli(
      [
        'shrink',
        original,
        '--target',
        targetFile,
        '--trace-out',
        minPath,
        '--profile-out',
        profilePath,
        '--json',
        jsonPath,
        '--script-out',
        scriptPath,
        '--rule',
        c.rule,
        '--times',
        '10',
        '--max-time',
        String(c.maxTime ?? 420),
      ],
      { timeoutMs: 520_000 },
    );
    expect(run.timedOut).toBe(false);
    expect({ code: run.code, stderr: run.stderr.split('\n').filter((l) => l.startsWith('spgate:')) }).toEqual({ code: 1, stderr: [] });
    const out = JSON.parse(readFileSync(jsonPath, 'utf8')) as {
      original: { requests: number; spanMs: number; rate: { reproduced: number; attempts: number } };
      minimal: { requests: number; spanMs: number; rate: { reproduced: number; attempts: number } };
      seconds: number;
      stopped: string;
      violation: { rule: string; class: string };
    };
    // The search's progress lines (counts and steps, no body or key) say why, should a bound below fail.
    const steps = `shrink progress:\n${run.stderr
      .split('\n')
      .filter((l) => l.startsWith('  '))
      .join('\n')}`;
    expect(out.violation).toMatchObject({ rule: c.rule, class: c.class });
    // With a key pool the attempts take turns over it (each key its own budget: none stops them); without, not.
    const turns = "  the attempts take turns over the pool's keys (admin: 4 keys)";
    expect(run.stderr.includes(turns), steps).toBe((env.faulty.pools.admin?.length ?? 1) > 1);
    expect(run.stderr, steps).not.toContain('no longer take turns');
    expect(out.minimal.rate.attempts, steps).toBe(10);
    // Nine in ten where the limiter decides alone. Behind a random balancer, which replica answers is chance
    // for the original too, and the shrink promises what its final measurement holds a schedule to: as often
    // as the original reproduced (less one attempt, src/shrink/search.ts). Once the original reproduced 2 of 3
    // times and the minimal 7 of 10, a search keep on 7 of 7 (its 10 % risk, src/shrink/acceptance.ts).
    if (c.randomBalancer) expect(asOftenAs(out.minimal.rate, out.original.rate), steps).toBe(true);
    else expect(out.minimal.rate.reproduced, steps).toBeGreaterThanOrEqual(9);
    // Never longer than the original: the search only takes a schedule that is strictly smaller (fewer
    // sends, or as many over a shorter span). A few windows is what a finished search usually reaches, but
    // not a bound: the reference server's fixed windows are aligned to its clock, so a one-window schedule
    // reproduces only at some phases, and on a loaded machine (CI: 1 s windows, the early-429 case kept
    // 3.96 s of a 4 s original after a finished search) the search rightly keeps a longer one that
    // reproduces as often as the original. Which phases attempts land at is the open part of issue 34.
    expect(out.minimal.spanMs).toBeLessThanOrEqual(out.original.spanMs);
    expect(out.stopped).toMatch(/^(time|done)$/);
    const perReplica = c.name.includes('a store per replica');
    if (!c.randomBalancer && out.stopped === 'done') expect(out.minimal.requests, steps).toBeLessThanOrEqual(4 * c.budget);
    // Issue 34's bound, a quarter of the original or less, holds every deterministic case. Behind a random
    // balancer which replica answers is chance, and so is the search's path: with the key pool and keeps on
    // seven reproductions, six runs gave 160 → 20 to 40 and one 160 → 60 (a final measurement that dropped
    // two lucky keeps and, then, jumped halfway back); their bound is half the original, the table says which.
    if (c.randomBalancer) expect(out.minimal.requests, steps).toBeLessThanOrEqual(out.original.requests / 2);
    else expect(out.minimal.requests, steps).toBeLessThanOrEqual(out.original.requests / 4);
    expect(run.stdout).toContain(`Re-run: spgate replay ${minPath} --target ${targetFile} --times 10 --rule ${c.rule}`);
    for (const text of [
      run.stdout,
      run.stderr,
      readFileSync(minPath, 'utf8'),
      readFileSync(profilePath, 'utf8'),
      readFileSync(join(dir, 'min.html'), 'utf8'),
      readFileSync(scriptPath, 'utf8'),
    ]) {
      for (const secret of Object.values(env.faulty.secrets)) expect(text).not.toContain(secret);
    }
    const settle = () => new Promise((r) => setTimeout(r, c.windowSeconds * 1000 + 1200));

    // The standalone script: shows the violation against the faulty limiter (in one of three runs: which
    // replica answers is not the client's choice), not against the fixed one; rules it does not judge
    // print the evidence and say so. Its criteria are simpler than the analyzer's (test/shrink/
    // script-out.test.ts proves them against limiters made for them); here they must agree with it.
    const keyEnv = { SPGATE_KEY_ADMIN: env.faulty.secrets.admin! };
    const judged = SCRIPT_JUDGES.includes(c.rule);
    const runs: string[] = [];
    let shown = { code: -1, stdout: '' };
    for (let i = 0; i < 3 && shown.code !== 1; i++) {
      await settle();
      shown = await runScript(scriptPath, keyEnv);
      runs.push(shown.stdout.trim().split('\n').pop() ?? '');
      if (!judged) break;
    }
    expect({ code: shown.code, verdicts: runs }).toEqual(
      judged
        ? { code: 1, verdicts: [...runs.slice(0, -1), expect.stringMatching(new RegExp(`^VIOLATION ${c.rule.replaceAll('.', '\\.')}: `))] }
        : { code: 0, verdicts: [expect.stringMatching(/does not judge/)] },
    );
    expect(shown.stdout).toContain('\tRemaining\tReset\t');
    searches.push(`${c.name}: ${steps}`);
    table.push(
      `${c.name} | ${out.original.requests} | ${out.minimal.requests} | ${out.minimal.rate.reproduced}/${out.minimal.rate.attempts} | ${out.seconds} s${out.stopped === 'done' ? '' : ` (stopped: ${out.stopped})`} | ${judged ? (shown.code === 1 ? 'shows it' : 'not shown') : 'prints it'}`,
    );

    // The regression profile, by the command the shrink printed (`spgate load --profile`, in a process of its
    // own, as its user runs it: in this worker, beside the other cases' limiters, the engine's sends were late
    // enough once that a per-replica profile's three copies of a 25-request schedule that reproduced 9/10 in
    // the shrink's own process showed nothing): fails while the bug is there, every run, naming the rule (per
    // replica: in one of three runs at most; behind a random balancer, counters per replica show as a rise of
    // Remaining in most runs and as a 429 while another replica reported budget left in others: CI once saw
    // under-admission alone); passes once fixed. A reproduction starts from a full budget: one window and the
    // rounding of Reset after the shrink's last attempt.
    expect(run.stdout).toContain(`Regression check: spgate load --profile ${profilePath}`);
    const seen: string[][] = [];
    for (let i = 0; i < (perReplica ? 3 : 1) && !seen.some((rules) => rules.includes(c.rule)); i++) {
      await settle();
      const bad = await regressionCheck(profilePath, targetFile, join(dir, `check-${i}.json`));
      expect(bad.status, `run ${i + 1}`).toBe('failed');
      seen.push(bad.rateLimit.violations.map((v) => v.rule));
    }
    expect(seen.flat()).toContain(c.rule);
    await settle();
    const fixedTarget = await env.fixed();
    const fixedFile = writeTargetFile(dir, 'fixed.json', 'fixed', fixedTarget);
    const good = await regressionCheck(profilePath, fixedFile, join(dir, 'check-fixed.json'));
    expect({
      status: good.status,
      violations: good.rateLimit.violations.map((v) => `${v.rule}: ${v.message}`),
      thresholds: good.thresholds.filter((t) => !t.ok),
    }).toEqual({ status: 'passed', violations: [], thresholds: [] });
    await settle();
    const clean = await runScript(scriptPath, { SPGATE_KEY_ADMIN: fixedTarget.secrets.admin! }, [fixedTarget.baseUrl]);
    expect({ code: clean.code, shown: clean.stdout.includes('VIOLATION') }).toEqual({ code: 0, shown: false });
  } finally {
    await env.close();
  }
}

/**
 * Each case's run, all eight started before the first test: vitest runs at most five tests of a file at a
 * time (its maxConcurrency), so with describe.concurrent three cases waited for a slot and the file took
 * about 320 s where its longest case takes about 210. They start a second apart: each records in this
 * process, then starts a shrink child whose imports alone take half a second of CPU: eight at once are four
 * seconds of CPU in one burst on two cores, beside the other timed file's load runs (test/compare/
 * repeat-runs.test.ts; its clean runs' event loops still stall now and then in the first seconds, 54 to 514
 * ms at the worst, which compare allows for). Each test
 * awaits its own case; a case that fails first is held (caught here) until its test reports it.
 */
const STAGGER_MS = 1000;
const runs = new Map<string, Promise<void>>();
beforeAll(() => {
  CASES.forEach((c, i) => {
    const run = new Promise((r) => setTimeout(r, i * STAGGER_MS)).then(() => shrinkCase(c));
    run.catch(() => undefined);
    runs.set(c.name, run);
  });
});
afterAll(() => process.stdout.write(tableText()));
describe('spgate shrink against misconfigured limiters', () => {
  it.each(CASES)(
    '$name: small, reproduces ≥ 9/10, regression profile and script fail then pass',
    { timeout: 600_000 },
    (c) => runs.get(c.name)!,
  );
});
