/**
 * shapes.id-prefixes judges "no id without its prefix" on a customer list page and an assign answer. When
 * those answers show no ids (a 503, a 200 without data), there is nothing to judge: it passed on the
 * request ids alone. Now it is inconclusive naming the answers, unless an id it did see failed.
 */
import { describe, expect, it } from 'vitest';
import { startReferenceServer, type FaultName } from '../../src/reference/index.js';
import type { ConformanceOutcome } from '../../src/conformance/run.js';
import type { ProxyHook } from '../checks/rewriting-proxy.js';
import { proxiedReference, unavailable, verdict } from '../support/proxied-conformance.js';

const BUDGETS = { read: 1_000_000, write: 1_000_000, windowSeconds: 60 };
const CHECK = 'shapes.id-prefixes';
const ref = proxiedReference(() => startReferenceServer({ seed: 2, budgets: BUDGETS }));

/** Answers the customer list and the assigns with a 503. */
const idsUnavailable: ProxyHook = async (req, forward) =>
  (req.method === 'GET' && /^\/customers(\?|$)/.test(req.path)) || (req.method === 'POST' && req.path.endsWith('/assign'))
    ? unavailable()
    : forward();

const run = (hook: ProxyHook, faults: FaultName[] = []): Promise<ConformanceOutcome> => ref.run(hook, { checks: [CHECK], runs: 2, faults });

describe('shapes.id-prefixes over answers that show no ids', () => {
  it('passes through a faithful proxy', async () => {
    const out = await run((_req, forward) => forward());
    expect(out.findings).toEqual([]);
    expect(verdict(out)).toBe('passed');
  });

  it('is inconclusive, naming both answers, when the customer list and the assign answer 503', async () => {
    const out = await run(idsUnavailable);
    expect(out.findings).toEqual([]);
    expect(verdict(out)).toMatch(
      /^inconclusive: customer or conversation ids were not seen: the customer list answered HTTP 503.*; the assign answered HTTP 503/,
    );
  });

  it('is inconclusive when the customer list answers 200 without a data array', async () => {
    const out = await run(async (req, forward) => {
      const a = await forward();
      return req.method === 'GET' && /^\/customers(\?|$)/.test(req.path)
        ? { ...a, json: { customers: (a.json as { data?: unknown }).data } }
        : a;
    });
    expect(verdict(out)).toMatch(/^inconclusive: customer or conversation ids were not seen: the customer list answered HTTP 200/);
  });

  it('still reports the request ids it did see (a warning: the prefixes are assumed)', async () => {
    const out = await run(idsUnavailable, ['request-ids-unprefixed']);
    expect(out.checks[0]!.status).toBe('warned');
    expect(out.findings.map((f) => f.clause)).toEqual(['2.id-prefixes']);
  });
});
