/**
 * limits.429 drives the second connection's write budget past its Remaining and expects a 429. Writes that
 * got no answer, or a 5xx from something in front of the limiter, were counted as admitted: a gateway that
 * answered some writes itself made a faithful limiter look like one that admits too much. Now only accepted
 * (2xx) answers count as charged admissions, and when those do not exceed the budget the check is
 * inconclusive, saying why.
 */
import { describe, expect, it } from 'vitest';
import { startReferenceServer, type FaultName } from '../../src/reference/index.js';
import type { ConformanceOutcome } from '../../src/conformance/run.js';
import type { ProxyHook } from '../checks/rewriting-proxy.js';
import { proxiedReference, unavailable, verdict } from '../support/proxied-conformance.js';

const CHECK = 'limits.429';
const ref = proxiedReference(() => startReferenceServer({ seed: 3, budgets: { read: 1_000, write: 10, windowSeconds: 60 } }));

/** The drive's writes (assigns that clear the team; no other check of this file writes). */
const isDrive = (req: { method: string; path: string }): boolean => req.method === 'POST' && req.path.endsWith('/assign');

const run = (hook: ProxyHook, faults: FaultName[] = []): Promise<ConformanceOutcome> => ref.run(hook, { checks: [CHECK], runs: 1, faults });

/** A gateway that answers every third write of the drive with a 503 itself (the limiter never sees it). */
function eatsEveryThirdWrite(): ProxyHook {
  let n = 0;
  return async (req, forward) => (isDrive(req) && ++n % 3 === 0 ? unavailable() : forward());
}

describe('limits.429 with writes that got no answer from the limiter', () => {
  it('passes through a faithful proxy and fails a limiter that admits budget + 5', async () => {
    const clean = await run((_req, forward) => forward());
    expect(verdict(clean)).toBe('passed');
    const over = await run((_req, forward) => forward(), ['ratelimit-over-admit']);
    expect(over.checks[0]!.status).toBe('failed');
    const f = over.findings[0]!;
    expect(f.clause).toBe('8.ratelimit.over-admission');
    expect(f.actual).toMatch(/^\d+ writes admitted$/);
  });

  it('is inconclusive, not failed, when a gateway answered some writes with a 503 and the rest stayed within the budget', async () => {
    const out = await run(eatsEveryThirdWrite());
    expect(out.findings).toEqual([]);
    expect(verdict(out)).toMatch(
      /^inconclusive: no 429 in \d+ write requests, but \d+ of them were not accepted \(first: HTTP 503 .*\), so only \d+ were shown charged \(the budget allowed 10\)$/,
    );
  });

  it('still fails an over-admitting limiter behind that gateway, naming the unanswered writes beside the admitted ones', async () => {
    // One write of twelve answered by the gateway: the eleven the limiter let through still exceed its 10.
    let n = 0;
    const some = await run(async (req, forward) => (isDrive(req) && ++n === 4 ? unavailable() : forward()), ['ratelimit-over-admit']);
    expect(some.checks[0]!.status).toBe('failed');
    expect(some.findings[0]!.actual).toMatch(/^\d+ writes admitted \(and 1 not accepted\)$/);
  });
});
