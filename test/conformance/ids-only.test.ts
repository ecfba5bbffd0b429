/**
 * The user's situation: a deployment without a fixtures API, a target file with every key role,
 * allowWrites, the documented single ids and pools of disposable data. At least 90 % of all checks run,
 * the reference server yields no finding, and every skip names what to add to the target file.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type ConformanceOutcome } from '../../src/conformance/run.js';
import { runConformance } from '../support/conformance.js';
import { planConformance } from '../support/conformance.js';
import { startReferenceServer, type RunningReferenceServer } from '../../src/reference/index.js';
import type { Target } from '../../src/target/schema.js';
import { idsOnlyTarget } from './support/ids-only-target.js';

let server: RunningReferenceServer;
let target: Target;
let out: ConformanceOutcome;
beforeAll(async () => {
  server = await startReferenceServer({ port: 0, seed: 1, budgets: { read: 1_000_000, write: 300, windowSeconds: 5 } });
  target = await idsOnlyTarget(server);
  out = await runConformance({ target, runs: 5, seed: 3 });
}, 120_000);
afterAll(async () => {
  await server.close();
});

describe('fixture-ids-only target against the reference server', () => {
  it('has no fixtures API', () => {
    expect(target.fixtures.api).toBeUndefined();
  });

  it('runs at least 90 % of the checks', () => {
    const ran = out.checks.filter((c) => c.status !== 'skipped');
    expect(
      ran.length / out.checks.length,
      out.checks
        .filter((c) => c.status === 'skipped')
        .map((c) => `${c.checkId}: ${c.reason}`)
        .join('\n'),
    ).toBeGreaterThanOrEqual(0.9);
  });

  it('finds nothing and errors nowhere', () => {
    expect(out.findings.map((f) => `${f.checkId} ${f.clause}: expected ${f.expected}; got ${f.actual}`)).toEqual([]);
    expect(out.checks.filter((c) => c.status === 'error' || c.status === 'failed').map((c) => `${c.checkId}: ${c.reason ?? ''}`)).toEqual(
      [],
    );
  });

  it('plans the same: the dry-run plan runs at least 90 % too', () => {
    const plan = planConformance(target, [], 5, 3);
    const running = plan.suites.reduce((n, s) => n + s.running.length, 0);
    expect(running / out.checks.length).toBeGreaterThanOrEqual(0.9);
  });

  it('with the ids left out, every skipped check names the field (or provider) to add', async () => {
    const bare: Target = { ...target, fixtures: { ids: {} } };
    const res = await runConformance({
      target: bare,
      suites: ['status', 'assistant', 'attachments', 'helpcenter', 'customers'],
      runs: 2,
      seed: 3,
    });
    const skipped = res.checks.filter((c) => c.status === 'skipped');
    expect(skipped.length).toBeGreaterThan(20);
    // a check that reads what only a fixtures API shows (customers.delete.retained) names that provider
    const vague = skipped.filter(
      (c) =>
        !/^needs fixtures\.ids\.[\w.]+( \(\d+ ids?\))? or fixtures\.command$|^needs a fixtures API \(target fixtures\.api\)/.test(
          c.reason ?? '',
        ),
    );
    expect(vague.map((c) => `${c.checkId}: ${c.reason}`)).toEqual([]);
    expect(res.findings).toEqual([]);
  });
});
