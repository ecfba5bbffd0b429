/**
 * helpcenter.replaces on Help Centers that store what was sent in a form of their own: positions renumbered
 * among siblings and sanitised descriptions (dialect strict-inputs), descriptions escaped as HTML entities
 * (a proxy). Each passes; an ignored description and an inverted position order are still caught.
 */
import { describe, expect, it } from 'vitest';
import { startReferenceServer } from '../../src/reference/index.js';
import type { ProxyHook } from '../checks/rewriting-proxy.js';
import { proxiedReference, verdicts } from '../support/proxied-conformance.js';

const BUDGETS = { read: 1_000_000, write: 1_000_000, windowSeconds: 60 };
const CHECK = 'helpcenter.replaces';
const passThrough: ProxyHook = (_req, forward) => forward();

/** Rewrites every 200 collection answer with `f`. */
function collections(f: (c: Record<string, unknown>) => Record<string, unknown>): ProxyHook {
  return async (req, forward) => {
    const a = await forward();
    if (a.status !== 200 || !/^\/authoring\/collections\//.test(req.path) || typeof a.json !== 'object' || a.json === null) return a;
    return { ...a, json: f(a.json as Record<string, unknown>) };
  };
}

const ESCAPES: Record<string, string> = { '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' };

describe('dialect strict-inputs: renumbered positions, sanitised descriptions', () => {
  const ref = proxiedReference(() => startReferenceServer({ seed: 5, dialect: 'strict-inputs', budgets: BUDGETS }));

  it('passes, the position judged by order (no note)', async () => {
    const out = await ref.run(passThrough, { checks: [CHECK], runs: 10 });
    expect(out.findings.map((f) => `${f.expected}; got ${f.actual}`)).toEqual([]);
    expect(verdicts(out)).toEqual({ [CHECK]: 'passed' });
  });

  it('an ignored description is still caught', async () => {
    const out = await ref.run(passThrough, { checks: [CHECK], runs: 10, faults: ['collection-description-ignored'] });
    expect(out.findings.map((f) => f.clause)).toEqual(['4.9.collection.replaces']);
  });

  it('positions shown in the inverse order of the ones sent are caught', async () => {
    const out = await ref.run(
      collections((c) => ({ ...c, position: 1000 - (c.position as number) })),
      { checks: [CHECK], runs: 10 },
    );
    expect(out.findings.map((f) => f.clause)).toEqual(['4.9.collection.replaces']);
    expect(out.findings[0]!.expected).toMatch(/position 0, then to 1000/);
  });
});

describe('default dialect', () => {
  const ref = proxiedReference(() => startReferenceServer({ seed: 5, budgets: BUDGETS }));

  it('descriptions escaped as HTML entities pass', async () => {
    const escape = collections((c) => ({ ...c, description: String(c.description).replace(/[&<>"']/g, (ch) => ESCAPES[ch]!) }));
    const out = await ref.run(escape, { checks: [CHECK], runs: 10 });
    expect(out.findings.map((f) => `${f.expected}; got ${f.actual}`)).toEqual([]);
    expect(verdicts(out)).toEqual({ [CHECK]: 'passed' });
  });

  it('a position that never moves leaves it unjudged: passed with a note naming it, the other fields judged', async () => {
    const out = await ref.run(
      collections((c) => ({ ...c, position: 1001 })),
      { checks: [CHECK], runs: 10 },
    );
    expect(out.findings).toEqual([]);
    expect(verdicts(out)[CHECK]).toMatch(/^passed: position not judged/);
  });

  it('an ignored description is caught', async () => {
    const out = await ref.run(passThrough, { checks: [CHECK], runs: 10, faults: ['collection-description-ignored'] });
    expect(out.findings.map((f) => f.clause)).toEqual(['4.9.collection.replaces']);
  });
});
