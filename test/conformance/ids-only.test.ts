/**
 * The user's situation: a deployment without a fixtures API, a target file with every key role,
 * allowWrites, the documented single ids and pools of disposable data. At least 90 % of all checks run,
 * the reference server yields no finding, and every skip names what to add to the target file.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runConformance, type ConformanceOutcome } from '../../src/conformance/run.js';
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
    expect(ran.length / out.checks.length, out.checks.filter((c) => c.status === 'skipped').map((c) => `${c.checkId}: ${c.reason}`).join('\n')).toBeGreaterThanOrEqual(0.9);
  });

  it('finds nothing and errors nowhere', () => {
    expect(out.findings.map((f) => `${f.checkId} ${f.clause}: expected ${f.expected}; got ${f.actual}`)).toEqual([]);
    expect(out.checks.filter((c) => c.status === 'error' || c.status === 'failed').map((c) => `${c.checkId}: ${c.reason ?? ''}`)).toEqual([]);
  });

  it('says for every skipped check which field, role or provider to add', () => {
    const vague = out.checks.filter((c) => c.status === 'skipped' && !/fixtures\.(ids\.[\w.]+|api|command)|role \w+|allowWrites/.test(c.reason ?? ''));
    expect(vague.map((c) => `${c.checkId}: ${c.reason}`)).toEqual([]);
  });
});
