/**
 * The body-limit checks judge "no 413 for a body within the limit" by the answer to that body. An answer
 * that shows nothing of how the body was taken (a 5xx, a transport error) is no 413, and passed as "not
 * refused": a deployment that fails every request carrying a body passed. Now such answers are left
 * unjudged: the sweep is inconclusive naming them, unless it already failed; the property passes with a note
 * when some were, and is inconclusive when every within-limit body went unanswered.
 */
import { describe, expect, it } from 'vitest';
import { startReferenceServer } from '../../src/reference/index.js';
import type { ConformanceOutcome } from '../../src/conformance/run.js';
import type { ProxyHook } from '../checks/rewriting-proxy.js';
import { proxiedReference, verdicts } from '../support/proxied-conformance.js';

const CHECKS = ['limits.read-body', 'limits.read-body-routes'];
const ref = proxiedReference(() => startReferenceServer({ seed: 2, budgets: { read: 1_000_000, write: 1_000_000, windowSeconds: 60 } }));

/** A gateway that fails (502) every request carrying a JSON body that the server did not refuse with 413. */
const failsBodies: ProxyHook = async (req, forward) => {
  const a = await forward();
  if (req.headers['content-type']?.startsWith('application/json') && req.method === 'GET' && a.status !== 413)
    throw new Error('upstream reset');
  return a;
};

const run = (hook: ProxyHook): Promise<ConformanceOutcome> => ref.run(hook, { checks: CHECKS, runs: 5 });

describe('read body-limit checks over within-limit bodies that get no answer', () => {
  it('pass through a faithful proxy', async () => {
    const out = await run((_req, forward) => forward());
    expect(out.findings).toEqual([]);
    expect(Object.values(verdicts(out))).toEqual(['passed', 'passed']);
  });

  it('are inconclusive, naming the answer, when every read body within the limit is answered 502', async () => {
    const out = await run(failsBodies);
    expect(out.findings).toEqual([]);
    expect(verdicts(out)['limits.read-body']).toMatch(
      /^inconclusive: every body within the limit was answered with no sign of how it was taken .*HTTP 502/,
    );
    expect(verdicts(out)['limits.read-body-routes']).toMatch(/^inconclusive: bodies within the limit got no answer to judge: .*HTTP 502/);
  });
});

describe('write body-limit checks over within-limit bodies that get no answer', () => {
  const WRITES = ['limits.write-body', 'limits.write-body-routes'];
  /** A gateway that fails (502) every write carrying a body that the server did not refuse with 413. */
  const failsWrites: ProxyHook = async (req, forward) => {
    const a = await forward();
    if (req.method !== 'GET' && req.headers['content-type']?.startsWith('application/json') && a.status !== 413)
      throw new Error('upstream reset');
    return a;
  };

  it('are inconclusive, naming the answer, when every write body within the limit is answered 502', async () => {
    const out = await ref.run(failsWrites, { checks: WRITES, runs: 5 });
    expect(out.findings).toEqual([]);
    expect(verdicts(out)['limits.write-body']).toMatch(
      /^inconclusive: every body within the limit was answered with no sign of how it was taken .*HTTP 502/,
    );
    expect(verdicts(out)['limits.write-body-routes']).toMatch(/^inconclusive: bodies within the limit got no answer to judge: .*HTTP 502/);
  });
});
