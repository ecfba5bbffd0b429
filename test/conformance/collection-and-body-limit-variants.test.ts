/**
 * The collection parentId checks, the collection shape with translations and the per-route body-limit sweeps
 * on legitimate deployments: every dialect through its own ids-only target (no fixtures API), a root shown
 * as "" or with no parentId at all, a deployment that refuses bodies within the limit on GET or DELETE with 400, a collection without
 * translations. Each must pass; the faults that make them fail are proven in every-check and the suite tests.
 */
import { describe, expect, it } from 'vitest';
import { type ConformanceOutcome } from '../../src/conformance/run.js';
import { runConformance } from '../support/conformance.js';
import { DIALECT_NAMES, startReferenceServer } from '../../src/reference/index.js';
import { targetFromInput } from '../../src/target/resolve.js';
import type { ProxyHook } from '../checks/rewriting-proxy.js';
import { proxiedReference, verdicts } from '../support/proxied-conformance.js';

const MINE = [
  'helpcenter.parent-kept',
  'helpcenter.parent-root',
  'helpcenter.body-limit',
  'shapes.collection',
  'limits.read-body-routes',
  'limits.write-body-routes',
];
const BUDGETS = { read: 1_000_000, write: 1_000_000, windowSeconds: 60 };

const allPassed = Object.fromEntries(MINE.map((id) => [id, 'passed']));

describe.each(DIALECT_NAMES)('dialect %s, ids-only target from --target-out', (dialect) => {
  it('runs every new check (none skipped) and finds nothing', async () => {
    const server = await startReferenceServer({ seed: 13, dialect, fixturesApi: false, budgets: BUDGETS });
    try {
      const input = server.describe({});
      expect(input.fixtures?.api).toBeUndefined();
      const out = await runConformance({ target: targetFromInput(input, `${dialect}.target.json`), checks: MINE, runs: 3, seed: 2 });
      expect(out.findings.map((f) => `${f.checkId} ${f.clause}: ${f.actual}`)).toEqual([]);
      expect(verdicts(out)).toEqual(allPassed);
    } finally {
      await server.close();
    }
  });
});

describe('legitimate variants through a rewriting proxy', () => {
  const ref = proxiedReference(() => startReferenceServer({ seed: 1, budgets: BUDGETS }));
  const run = (checks: string[], hook: ProxyHook): Promise<ConformanceOutcome> => ref.run(hook, { checks, runs: 2 });

  /** Rewrites the collection answers' parentId when it shows the root (null). */
  const rootAs =
    (shown: '' | 'absent'): ProxyHook =>
    async (_req, forward) => {
      const a = await forward();
      const j = a.json as Record<string, unknown> | undefined;
      if (!j || typeof j !== 'object' || !('translations' in j) || j.parentId !== null) return a;
      const { parentId: _drop, ...rest } = j;
      return { ...a, json: shown === '' ? { ...j, parentId: '' } : rest };
    };

  it.each(['', 'absent'] as const)('a root shown as parentId %j passes the parent checks and the collection shape', async (shown) => {
    const out = await run(['helpcenter.parent-kept', 'helpcenter.parent-root', 'shapes.collection'], rootAs(shown));
    expect(out.findings.map((f) => `${f.checkId}: ${f.actual}`)).toEqual([]);
    expect(verdicts(out)).toEqual({
      'helpcenter.parent-kept': 'passed',
      'helpcenter.parent-root': 'passed',
      'shapes.collection': 'passed',
    });
  });

  it('a collection with no translations (an empty array) fits the shape', async () => {
    const out = await run(['shapes.collection'], async (_req, forward) => {
      const a = await forward();
      const j = a.json as Record<string, unknown> | undefined;
      return j && Array.isArray(j.translations) ? { ...a, json: { ...j, translations: [] } } : a;
    });
    expect(verdicts(out)).toEqual({ 'shapes.collection': 'passed' });
  });

  // RFC 9110 §9.3.1: content on a GET has no defined semantics, and a server may refuse it; the spec only
  // bounds it (8: 1 KB, then 413). Refusing a body within the limit with 400 is therefore legitimate.
  it('a deployment that refuses a body on GET within the limit with 400 passes the read sweep', async () => {
    let refused = 0;
    const out = await run(['limits.read-body-routes'], async (req, forward) => {
      const a = await forward();
      if (req.method !== 'GET' || !req.headers['content-type'] || a.status === 413) return a;
      refused++;
      return {
        status: 400,
        headers: a.headers,
        json: {
          error: { code: 'request.body_not_allowed', message: 'GET takes no body', requestId: a.headers['x-request-id'] ?? 'req_x' },
        },
      };
    });
    expect(out.findings.map((f) => `${f.checkId}: ${f.actual}`)).toEqual([]);
    expect(verdicts(out)).toEqual({ 'limits.read-body-routes': 'passed' });
    // every read route of the sweep met the variant
    expect(refused).toBeGreaterThanOrEqual(8);
  });

  it('a deployment that refuses a body on DELETE within the limit with 400 passes the write sweep', async () => {
    const out = await run(['limits.write-body-routes'], async (req, forward) => {
      const a = await forward();
      if (req.method !== 'DELETE' || !req.headers['content-type'] || a.status === 413) return a;
      return {
        status: 400,
        headers: a.headers,
        json: {
          error: { code: 'request.body_not_allowed', message: 'DELETE takes no body', requestId: a.headers['x-request-id'] ?? 'req_x' },
        },
      };
    });
    expect(out.findings.map((f) => `${f.checkId}: ${f.actual}`)).toEqual([]);
    expect(verdicts(out)).toEqual({ 'limits.write-body-routes': 'passed' });
  });

  it('a 413 with another code on one write route fails the write sweep under 8.body.code', async () => {
    const out = await run(['limits.write-body-routes'], async (req, forward) => {
      const a = await forward();
      if (req.method !== 'DELETE' || a.status !== 413) return a;
      return {
        ...a,
        json: { error: { code: 'payload_too_large', message: 'too large', requestId: a.headers['x-request-id'] ?? 'req_x' } },
      };
    });
    expect(out.findings.map((f) => [f.checkId, f.clause])).toEqual([['limits.write-body-routes', '8.body.code']]);
  });
});
