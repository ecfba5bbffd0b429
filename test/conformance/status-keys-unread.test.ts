/**
 * The status checks that judge every key of a type (completed-keys, active-keys, any-state) take the
 * workspace's own keys from GET /statuses beside the assumed ones. A /statuses that did not answer 200
 * shows none of them, so "each completed key moves there" no longer passes on the assumed keys alone: the
 * check is inconclusive naming the answer. A 200 whose shape the lenient reading does not recognise still adds
 * no key (the shape is not shown), and resolve.default, which judges no set of keys, runs on as before.
 */
import { describe, expect, it } from 'vitest';
import { startReferenceServer, type FaultName } from '../../src/reference/index.js';
import type { ConformanceOutcome } from '../../src/conformance/run.js';
import type { ProxiedAnswer, ProxyHook } from '../checks/rewriting-proxy.js';
import { proxiedReference, unavailable, verdicts } from '../support/proxied-conformance.js';
import type { TargetFileInput } from '../../src/target/schema.js';

const BUDGETS = { read: 1_000_000, write: 1_000_000, windowSeconds: 60 };
const EVERY_KEY = ['status.resolve.completed-keys', 'status.resolve.active-keys', 'status.resolve.any-state'];
const ref = proxiedReference(() => startReferenceServer({ seed: 2, budgets: BUDGETS }));

const statusesAnswer =
  (answer: (a: ProxiedAnswer) => ProxiedAnswer): ProxyHook =>
  async (req, forward) => {
    const a = await forward();
    return req.method === 'GET' && /^\/statuses(\?|$)/.test(req.path) ? answer(a) : a;
  };

/**
 * The target file as a real deployment's would be: only the default assumed keys (open, pending; resolved,
 * closed), the workspace's own (waiting_on_customer, spam) left to GET /statuses.
 */
const defaultKeys = (t: TargetFileInput): TargetFileInput => {
  const { activeStatuses: _a, completedStatuses: _c, ...assumptions } = (t.assumptions ?? {}) as Record<string, unknown>;
  return { ...t, assumptions };
};

async function run(hook: ProxyHook, checks: string[], faults: FaultName[] = []): Promise<ConformanceOutcome> {
  ref.server.setFaults(faults);
  try {
    return await ref.run(hook, { checks, runs: 2, edit: defaultKeys });
  } finally {
    ref.server.setFaults([]);
  }
}

describe('status checks over an unread GET /statuses', () => {
  it('pass through a faithful proxy, and completed-keys catches a custom completed key moved to the default', async () => {
    const clean = await run((_req, forward) => forward(), [...EVERY_KEY, 'status.resolve.default']);
    expect(clean.findings).toEqual([]);
    expect(clean.checks.map((c) => c.status)).toEqual(['passed', 'passed', 'passed', 'passed']);
    const faulty = await run((_req, forward) => forward(), ['status.resolve.completed-keys'], ['resolve-custom-completed-default']);
    expect(faulty.checks[0]!.status).toBe('failed');
  });

  it('are inconclusive, naming the 503, when /statuses cannot be read (completed-keys no longer passes over the fault)', async () => {
    const out = await run(statusesAnswer(unavailable), EVERY_KEY, ['resolve-custom-completed-default']);
    expect(out.findings).toEqual([]);
    for (const id of EVERY_KEY)
      expect(verdicts(out)[id]).toMatch(
        /^inconclusive: the workspace's (completed|active)-type status keys are unknown: GET \/statuses answered HTTP 503/,
      );
  });

  it('resolve.default, which judges no set of keys, still passes over a 503 from /statuses', async () => {
    const out = await run(statusesAnswer(unavailable), ['status.resolve.default']);
    expect(verdicts(out)['status.resolve.default']).toBe('passed');
  });

  it('a /statuses of a shape the reading does not recognise adds no key and judges the assumed ones (the shape is not shown)', async () => {
    const out = await run(
      statusesAnswer((a) => ({ ...a, json: { statuses: 'open,pending,resolved,closed' } })),
      EVERY_KEY,
    );
    expect(out.findings).toEqual([]);
    expect(out.checks.map((c) => c.status)).toEqual(['passed', 'passed', 'passed']);
  });
});
