/**
 * auth.scope-missing covers customers:read and help:read where a key lacks them (the attachmentsOnly key,
 * by its listed scopes or, where the target lists none, by the scopes its GET /me declares), says so where
 * no key is known to lack them, and never passes on
 * pairs it could not judge: answers that are no answer of the server's own (503) leave them untried, and
 * no judged pair makes the check inconclusive.
 */
import { describe, expect, it } from 'vitest';
import { startReferenceServer } from '../../src/reference/index.js';
import type { TargetFileInput } from '../../src/target/schema.js';
import type { ProxiedRequest, ProxyHook } from '../checks/rewriting-proxy.js';
import { proxiedReference, unavailable, verdict } from '../support/proxied-conformance.js';

const BUDGETS = { read: 1_000_000, write: 1_000_000, windowSeconds: 60 };
const CHECK = ['auth.scope-missing'];
const ref = proxiedReference(() => startReferenceServer({ seed: 9, budgets: BUDGETS }));

type Keys = Record<string, { key: string }>;
const keys = (): Keys => ref.server.target.keys as Keys;
const isRole = (r: ProxiedRequest, role: string): boolean => r.headers.authorization === `Bearer ${keys()[role]!.key}`;
const passThrough: ProxyHook = (_req, forward) => forward();
/** The target's keys without their listed scopes: only the role definitions say what a key lacks. */
const unlisted = (t: TargetFileInput): TargetFileInput => ({
  ...t,
  keys: Object.fromEntries(
    Object.entries(t.keys).map(([role, k]) => [role, { key: (k as { key: string }).key }]),
  ) as TargetFileInput['keys'],
});

describe('customers:read and help:read', () => {
  it.each([
    [
      'customers:read',
      (r: ProxiedRequest) => r.path.startsWith('/customers?'),
      /HTTP 403 for GET \/customers with the attachmentsOnly key, which lacks customers:read/,
    ],
    [
      'help:read',
      (r: ProxiedRequest) => r.path.startsWith('/authoring/articles'),
      /HTTP 403 for GET \/authoring\/articles with the attachmentsOnly key, which lacks help:read/,
    ],
  ] as const)('a server that does not check %s fails (the attachmentsOnly key, scopes listed)', async (_scope, route, message) => {
    const out = await ref.run(
      (req, forward) =>
        forward(
          isRole(req, 'attachmentsOnly') && route(req) ? { ...req.headers, authorization: `Bearer ${keys().admin!.key}` } : undefined,
        ),
      { checks: CHECK, runs: 1 },
    );
    expect(out.findings.map((f) => `${f.clause}: ${f.expected}`).join('\n')).toMatch(message);
  });

  it("keys without listed scopes: what each key's GET /me declares says what it lacks, so both are withheld", async () => {
    const out = await ref.run(passThrough, { checks: CHECK, runs: 1, edit: unlisted });
    expect(out.findings).toEqual([]);
    expect(verdict(out)).not.toMatch(/a key lacking (customers|help):read/);
    // the same server not checking help:read is caught on a target file that lists no scopes
    const faulty = await ref.run(passThrough, { checks: CHECK, runs: 1, edit: unlisted, faults: ['scope-unchecked-on-articles'] });
    expect(faulty.findings.map((f) => `${f.clause}: ${f.expected}`).join('\n')).toMatch(
      /5\.scope\.missing: HTTP 403 for GET \/authoring\/articles with the attachmentsOnly key, which lacks help:read/,
    );
  });

  it('keys without listed scopes and a GET /me that declares none: names the scopes no key is known to lack, with the remedy', async () => {
    const noScopes: ProxyHook = async (req, forward) => {
      const a = await forward();
      return req.path === '/me' && a.status === 200 ? { ...a, json: { data: { workspace: { id: 'ws_proxy' } } } } : a;
    };
    const out = await ref.run(noScopes, { checks: CHECK, runs: 1, edit: unlisted });
    expect(out.findings).toEqual([]);
    expect(verdict(out)).toMatch(
      /^passed: not tried: .*a key lacking customers:read \(no key of the target lacks it.*a key lacking help:read .*keys\.attachmentsOnly\.scopes/,
    );
  });
});

describe('pairs it could not judge', () => {
  it('a pair answered 503 is named as not tried, not passed', async () => {
    const out = await ref.run(
      async (req, forward) => (isRole(req, 'attachmentsOnly') && req.path.startsWith('/authoring/articles') ? unavailable() : forward()),
      { checks: CHECK, runs: 1 },
    );
    expect(out.findings).toEqual([]);
    expect(verdict(out)).toMatch(/^passed: not tried: GET \/authoring\/articles with the attachmentsOnly key \(it answered HTTP 503/);
  });

  it('every pair answered 503: inconclusive', async () => {
    const out = await ref.run(async (req, forward) => (isRole(req, 'admin') ? forward() : unavailable()), { checks: CHECK, runs: 1 });
    expect(out.findings).toEqual([]);
    expect(verdict(out)).toMatch(/^inconclusive: no part could be judged: /);
  });
});
