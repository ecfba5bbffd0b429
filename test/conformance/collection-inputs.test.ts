/**
 * The Help Center checks send conservative inputs (slugs of lowercase letters and digits joined by single
 * dashes, unique per case and run; names without surrounding whitespace) and judge nothing from an update a
 * deployment refuses as invalid:
 * - the strict-inputs dialect (validates slugs with 422, stores names and descriptions trimmed) passes every
 *   helpcenter check through an ids-only target;
 * - a Help Center that keeps slugs unique across collections passes two runs with the same seed;
 * - a deployment that refuses every update as invalid makes the checks inconclusive, never failed or passed.
 * The faults that make them fail are collection-description-ignored and collection-limit-64000 (helpcenter.test.ts).
 */
import { describe, expect, it } from 'vitest';
import { runConformance } from '../support/conformance.js';
import { startReferenceServer } from '../../src/reference/index.js';
import { targetFromInput } from '../../src/target/resolve.js';
import { IDS_ONLY_HIDES } from '../support/ids-only-hides.js';
import { SUITES } from '../../suites/index.js';
import type { ProxyHook } from '../checks/rewriting-proxy.js';
import { proxiedReference, verdicts } from '../support/proxied-conformance.js';

const BUDGETS = { read: 1_000_000, write: 1_000_000, windowSeconds: 60 };
const HELPCENTER = SUITES.find((s) => s.name === 'helpcenter')!.checks.map((c) => c.id);

describe('dialect strict-inputs (slugs validated, names trimmed)', () => {
  it('passes every helpcenter check with no finding, through an ids-only target', async () => {
    const server = await startReferenceServer({ seed: 4, dialect: 'strict-inputs', fixturesApi: false, budgets: BUDGETS });
    try {
      const out = await runConformance({
        target: targetFromInput(server.describe({}), 'strict-inputs.target.json'),
        checks: HELPCENTER,
        runs: 4,
        seed: 4,
      });
      expect(out.findings.map((f) => `${f.checkId} ${f.clause}: ${f.actual}`)).toEqual([]);
      // every check passed, but the one an ids-only target cannot let judge (its reason: ids-only-hides.ts)
      const hidden = HELPCENTER.filter((id) => Object.hasOwn(IDS_ONLY_HIDES, id));
      expect(hidden).toEqual(['helpcenter.idempotency.revoked-no-replay']);
      expect(verdicts(out)).toEqual(
        Object.fromEntries(HELPCENTER.map((id) => [id, hidden.includes(id) ? expect.stringMatching(/^inconclusive: /) : 'passed'])),
      );
    } finally {
      await server.close();
    }
  });
});

describe('Help Centers the proxy makes stricter', () => {
  const ref = proxiedReference(() => startReferenceServer({ seed: 1, budgets: BUDGETS }));
  const invalid = {
    status: 422,
    headers: { 'content-type': 'application/json', 'x-request-id': 'req_proxy' },
    json: { error: { code: 'request.validation_failed', message: 'invalid', requestId: 'req_proxy' } },
  };

  it('slugs unique across collections: two runs with the same seed both pass', async () => {
    const owner = new Map<string, string>();
    const unique: ProxyHook = async (req, forward) => {
      const a = await forward();
      const j = a.json as { id?: unknown; slug?: unknown } | undefined;
      if (req.method !== 'PUT' || a.status !== 200 || typeof j?.slug !== 'string') return a;
      const held = owner.get(j.slug);
      if (held !== undefined && held !== j.id) return { ...invalid, status: 409 };
      owner.set(j.slug, String(j.id));
      return a;
    };
    const checks = ['helpcenter.replaces', 'helpcenter.revision-advances', 'idempotency.concurrent.collection'];
    for (const _run of [1, 2]) {
      const out = await ref.run(unique, { checks, runs: 3 });
      expect(verdicts(out)).toEqual(Object.fromEntries(checks.map((id) => [id, 'passed'])));
    }
  });

  it('every update refused as invalid: inconclusive, naming the refused input', async () => {
    const out = await ref.run(async (req, forward) => (req.method === 'PUT' ? invalid : forward()), {
      checks: ['helpcenter.replaces', 'helpcenter.revision-advances'],
      runs: 4,
    });
    expect(out.findings).toEqual([]);
    expect(out.checks.map((c) => c.status)).toEqual(['inconclusive', 'inconclusive']);
    for (const c of out.checks) expect(c.reason).toMatch(/refused as invalid/);
  });
});
