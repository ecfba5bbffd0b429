/**
 * No auth check passes on probes that got no answer of the server's own: behind a gateway that answers 503
 * to everything, every auth check is inconclusive (none passed, no finding); a single probe answered 503
 * is named as not tried while the others judge.
 */
import { describe, expect, it } from 'vitest';
import { startReferenceServer } from '../../src/reference/index.js';
import { SUITES } from '../../suites/index.js';
import { proxiedReference, unavailable, verdict, verdicts } from '../support/proxied-conformance.js';

const BUDGETS = { read: 1_000_000, write: 1_000_000, windowSeconds: 60 };
const AUTH = SUITES.find((s) => s.name === 'auth')!.checks.map((c) => c.id);
const ref = proxiedReference(() => startReferenceServer({ seed: 6, budgets: BUDGETS }));

describe('auth checks behind a gateway that answers nothing', () => {
  it('every request 503: every auth check is inconclusive, none passed, no finding', async () => {
    const out = await ref.run(async () => unavailable(), { checks: AUTH, runs: 3 });
    expect(out.findings.map((f) => `${f.checkId}: ${f.expected}; ${f.actual}`)).toEqual([]);
    const notInconclusive = Object.entries(verdicts(out)).filter(([, v]) => !v.startsWith('inconclusive'));
    expect(notInconclusive).toEqual([]);
    expect(Object.keys(verdicts(out)).sort()).toEqual([...AUTH].sort());
  });

  it('one probe 503 (GET /me without Authorization): that probe named as not tried, the others judged', async () => {
    const out = await ref.run(async (req, forward) => (req.path === '/me' && !req.headers.authorization ? unavailable() : forward()), {
      checks: ['auth.missing-header'],
      runs: 1,
    });
    expect(verdict(out)).toMatch(/^passed: not tried: GET \/me without Authorization \(it answered HTTP 503/);
  });
});
