/**
 * `read.429 > 0` against a budget the run cannot spend: four closed-loop connections of `read-budget`
 * against a budget of a million per second (a staging budget of thousands over the network is the same).
 * No limiter had cause to refuse, so the threshold is not judged: the run passes and every output says
 * "not judged" with why. Against a limiter that lets Remaining reach 0 and still admits (a proxy turning
 * its 429s into 200s), the same threshold is judged and breached.
 */
import { readFileSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startReferenceServer, type RunningReferenceServer } from '../../src/reference/index.js';
import { startRewritingProxy, type RewritingProxy } from '../checks/rewriting-proxy.js';
import { runCli } from '../support/cli.js';
import { tempDir, writeJson } from '../support/target-file.js';

let big: RunningReferenceServer;
/** The same budget for the --fail-on-inconclusive run: the cases run at once, and a key shared by two runs is spent by both. */
let big2: RunningReferenceServer;
let small: RunningReferenceServer;
let proxy: RewritingProxy;
beforeAll(async () => {
  big = await startReferenceServer({ port: 0, budgets: { read: 1_000_000, write: 100_000, windowSeconds: 1 } });
  big2 = await startReferenceServer({ port: 0, budgets: { read: 1_000_000, write: 100_000, windowSeconds: 1 } });
  // Four per 2 s: the four connections' first requests spend it, however slowly a loaded machine answers
  // (with 20 per 1 s, a run beside other test files once answered too slowly to spend it, and rightly said
  // "not judged").
  small = await startReferenceServer({ port: 0, budgets: { read: 4, write: 2, windowSeconds: 2 } });
  // A limiter that does not enforce: Remaining reaches 0, and the refusals go out as admissions.
  proxy = await startRewritingProxy(small.target.baseUrl, async (_req, forward) => {
    const a = await forward();
    return a.status === 429 ? { status: 200, headers: a.headers, json: { id: 'me' } } : a;
  });
});
afterAll(async () => {
  await proxy?.close();
  await big?.close();
  await big2?.close();
  await small?.close();
});

/** `spgate load --profile read-budget` for 2 s against `input`, every report in a fresh directory. */
async function readBudget(input: object, extra: string[] = []) {
  const dir = tempDir('spgate-unspent-');
  const target = writeJson(dir, 'target.json', input);
  const out = join(dir, 'out');
  const run = await runCli(['load', '--profile', 'read-budget', '--target', target, '--duration', '2', '--out', out, ...extra], {
    timeoutMs: 60_000,
  });
  const read = (pattern: RegExp) => readFileSync(join(out, readdirSync(out).find((f) => pattern.test(f))!), 'utf8');
  return { run, read };
}

describe.concurrent('read.429 > 0', () => {
  it('is not judged when the run never spent the budget: exit 0, and every report says why', async () => {
    const { run, read } = await readBudget(big.describe());
    expect({ code: run.code, stderr: run.stderr.split('\n').filter((l) => l.startsWith('spgate:')) }, run.stdout).toEqual({
      code: 0,
      stderr: [],
    });
    expect(run.stdout).toMatch(
      /\? read\.429 > 0 \(actual 0; not judged: the run never spent the read budget \(lowest RateLimit-Remaining \d+, no 429\)/,
    );
    const results = JSON.parse(read(/^results\.json$/)) as { verdict: string; load: Array<{ status: string; thresholds: unknown[] }> };
    expect(results.verdict).toBe('passed');
    expect(results.load[0]!.status).toBe('passed');
    expect(results.load[0]!.thresholds).toContainEqual(
      expect.objectContaining({ expression: 'read.429 > 0', ok: true, actual: '0', notJudged: expect.stringMatching(/^not judged/) }),
    );
    // The others are judged as ever.
    expect(results.load[0]!.thresholds.filter((t) => (t as { notJudged?: string }).notJudged === undefined)).toHaveLength(3);
    expect(read(/\.xml$/)).toMatch(
      /<testcase [^>]*name="threshold read\.429 &gt; 0"[^>]*>\s*<skipped message="not judged: the run never spent/,
    );
    expect(read(/\.md$/)).toContain('3/4 held, 1 not judged');
    expect(read(/\.html$/)).toContain('<span class="badge inconclusive">not judged</span>');
  });

  it('fails the run under --fail-on-inconclusive, as an inconclusive check does', async () => {
    const { run, read } = await readBudget(big2.describe(), ['--fail-on-inconclusive']);
    expect(run.code, run.stderr).toBe(1);
    expect(run.stdout).toMatch(/\? read\.429 > 0 \(actual 0; not judged: /);
    const results = JSON.parse(read(/^results\.json$/)) as { verdict: string; meta: { failOnInconclusive?: boolean } };
    expect({ verdict: results.verdict, gate: results.meta.failOnInconclusive }).toEqual({ verdict: 'failed', gate: true });
  });

  it('is judged and breached when Remaining reached 0 and no 429 came', async () => {
    const { run, read } = await readBudget({ ...small.describe(), baseUrl: proxy.url });
    expect(run.code).toBe(1);
    expect(run.stdout).toContain('✗ read.429 > 0 (actual 0)');
    const results = JSON.parse(read(/^results\.json$/)) as { load: Array<{ thresholds: unknown[] }> };
    expect(results.load[0]!.thresholds).toContainEqual({ expression: 'read.429 > 0', ok: false, actual: '0' });
  });
});
