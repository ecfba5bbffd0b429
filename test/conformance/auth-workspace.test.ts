/**
 * The workspace-binding and scope checks (auth.other-workspace, attachments.other-workspace,
 * auth.scope-missing, auth.scope-attachments): they pass on legitimate deployments that differ from the
 * reference server where the spec allows it (403 instead of 404 for foreign ids, a second workspace seeded
 * by the same script, a foreign key without customers:read, keys without listed scopes, no allowWrites) and
 * fail on broken ones. Each fault of the reference server is proven in every-check.test.ts; here a proxy
 * makes the other deployments.
 */
import { describe, expect, it } from 'vitest';
import { type ConformanceOutcome } from '../../src/conformance/run.js';
import { runConformance } from '../support/conformance.js';
import { DIALECT_NAMES, startReferenceServer } from '../../src/reference/index.js';
import { targetFromInput } from '../../src/target/resolve.js';
import type { TargetFileInput } from '../../src/target/schema.js';
import type { ProxiedAnswer, ProxyHook } from '../checks/rewriting-proxy.js';
import { proxiedReference } from '../support/proxied-conformance.js';

const BUDGETS = { read: 1_000_000, write: 1_000_000, windowSeconds: 60 };
const CHECKS = ['auth.other-workspace', 'attachments.other-workspace', 'auth.scope-missing', 'auth.scope-attachments'];

const ref = proxiedReference(() => startReferenceServer({ seed: 3, budgets: BUDGETS }));

type Keys = Record<string, { key: string; scopes?: string[] }>;
const keys = (): Keys => ref.server.target.keys as Keys;
const isOther = (headers: Record<string, string>): boolean => headers.authorization === `Bearer ${keys().otherWorkspace!.key}`;

/** Runs `checks` through a proxy with `hook`; `edit` changes the target file first. */
function run(hook: ProxyHook, edit: (t: TargetFileInput) => TargetFileInput = (t) => t, checks = CHECKS): Promise<ConformanceOutcome> {
  return ref.run(hook, { checks, runs: 3, edit });
}

const passThrough: ProxyHook = (_req, forward) => forward();
const findingsOf = (out: ConformanceOutcome) =>
  out.findings.map((f) => `${f.checkId} ${f.clause}: expected ${f.expected}; got ${f.actual}`);
const statuses = (out: ConformanceOutcome) => Object.fromEntries(out.checks.map((c) => [c.checkId, c.status]));
const forbidden = (): ProxiedAnswer => ({
  status: 403,
  headers: { 'content-type': 'application/json' },
  json: { error: { code: 'auth.forbidden', message: 'not allowed', requestId: 'req_proxy' } },
});

/** The first workspace's answer to the same request, made with the admin key (what a leaking server would serve). */
async function asAdmin(path: string): Promise<ProxiedAnswer> {
  const r = await fetch(ref.server.baseUrl + path, {
    headers: { authorization: `Bearer ${keys().admin!.key}` },
    signal: AbortSignal.timeout(10_000),
  });
  return { status: r.status, headers: { 'content-type': 'application/json' }, json: await r.json() };
}

describe('legitimate deployments pass', () => {
  it('the reference server as it is: every check passes', async () => {
    const out = await run(passThrough);
    expect(findingsOf(out)).toEqual([]);
    expect(statuses(out)).toEqual(Object.fromEntries(CHECKS.map((c) => [c, 'passed'])));
  });

  it('foreign ids answer 403 instead of 404 (which one is not shown)', async () => {
    const out = await run(async (req, forward) => {
      const a = await forward();
      return isOther(req.headers) && a.status === 404 ? forbidden() : a;
    });
    expect(findingsOf(out)).toEqual([]);
    expect(out.checks.every((c) => c.status === 'passed')).toBe(true);
  });

  it('a second workspace seeded by the same script (look-alike customers: equal externalIds, names, emails) is no leak', async () => {
    const out = await run(async (req, forward) => {
      if (!isOther(req.headers) || req.method !== 'GET' || !req.path.startsWith('/customers')) return forward();
      // the first workspace's customers, as the other workspace's own records: new ids and creation times
      const a = await asAdmin(req.path);
      const data = (a.json as { data: Array<Record<string, unknown>> }).data.map((c, i) => ({
        ...c,
        id: `cus_lookalike${i}`,
        createdAt: '2030-01-01T00:00:00Z',
      }));
      return { ...a, json: { ...(a.json as object), data } };
    });
    expect(findingsOf(out)).toEqual([]);
  });

  it('an idempotent delete that answers 204 for an id the foreign workspace does not hold, changing nothing, passes', async () => {
    const out = await run(
      async (req, forward) => {
        const a = await forward();
        return isOther(req.headers) && req.method === 'DELETE' && a.status === 404 ? { status: 204, headers: {} } : a;
      },
      (t) => t,
      ['auth.other-workspace'],
    );
    expect(findingsOf(out)).toEqual([]);
  });

  it('a customer list the admin cannot read after the foreign delete (a 503 mid-walk) leaves that part untried, not failed', async () => {
    let deleted = false;
    const out = await run(
      async (req, forward) => {
        if (isOther(req.headers) && req.method === 'DELETE') deleted = true;
        else if (deleted && !isOther(req.headers) && req.method === 'GET' && req.path.startsWith('/customers?')) {
          deleted = false;
          return {
            status: 503,
            headers: { 'content-type': 'application/json' },
            json: { error: { code: 'unavailable', message: 'try later', requestId: 'req_proxy' } },
          };
        }
        return forward();
      },
      (t) => t,
      ['auth.other-workspace'],
    );
    expect(findingsOf(out)).toEqual([]);
    expect(out.checks[0]!.status).toBe('passed');
    expect(out.checks[0]!.reason ?? '').toMatch(
      /not tried: .*customer delete \(the customer list could not be read after the delete \(.*503/,
    );
  });

  it('a foreign key without customers:read is refused the list with 403', async () => {
    const out = await run(async (req, forward) => (isOther(req.headers) && req.path.startsWith('/customers') ? forbidden() : forward()));
    expect(findingsOf(out)).toEqual([]);
    expect(statuses(out)['auth.other-workspace']).toBe('passed');
  });

  it('keys without listed scopes: auth.scope-missing uses the role definitions, and still runs', async () => {
    const out = await run(
      passThrough,
      (t) => ({
        ...t,
        keys: Object.fromEntries(
          Object.entries(t.keys).map(([role, k]) => [role, { key: (k as { key: string }).key }]),
        ) as TargetFileInput['keys'],
      }),
      ['auth.scope-missing'],
    );
    expect(findingsOf(out)).toEqual([]);
    expect(out.checks[0]!.status).toBe('passed');
  });

  it('without allowWrites: the read pairs run, the write pairs and the assign part are named as not tried', async () => {
    const out = await run(passThrough, (t) => ({ ...t, allowWrites: false }), ['auth.scope-missing', 'auth.other-workspace']);
    expect(findingsOf(out)).toEqual([]);
    for (const c of out.checks) {
      expect(c.status).toBe('passed');
      expect(c.reason ?? '').toMatch(/not tried: .*allowWrites/);
    }
  });
});

describe('broken deployments fail', () => {
  it('regression: a gateway that routes every key to the first workspace leaks its customers and turns', async () => {
    const out = await run(
      async (req, forward) => (isOther(req.headers) ? asAdmin(req.path) : forward()),
      (t) => t,
      ['auth.other-workspace'],
    );
    expect(out.findings.map((f) => f.clause)).toContain('5.workspace-bound');
    expect(findingsOf(out).join('\n')).toMatch(/none of this workspace's customers/);
  });

  // One operation at a time served as the first workspace's admin: each part of the check fails on its own.
  const asAdminFor =
    (leaks: (req: { method: string; path: string }) => boolean): ProxyHook =>
    (req, forward) =>
      forward(isOther(req.headers) && leaks(req) ? { ...req.headers, authorization: `Bearer ${keys().admin!.key}` } : undefined);
  it.each([
    [
      'the chats list of a conversation',
      (r: { method: string; path: string }) => r.method === 'GET' && /\/assistant\/sessions/.test(r.path),
      /chats listed with the otherWorkspace key/,
    ],
    [
      'resolve',
      (r: { method: string; path: string }) => r.method === 'POST' && /\/resolve/.test(r.path),
      /resolving this workspace's conversation[\s\S]*status unchanged/,
    ],
    [
      'customer delete',
      (r: { method: string; path: string }) => r.method === 'DELETE' && r.path.startsWith('/customers/'),
      /customer still listed after deleting it with the otherWorkspace key/,
    ],
  ] as const)('a gateway that lets a foreign key through on %s alone fails auth.other-workspace', async (_what, leaks, message) => {
    const out = await run(asAdminFor(leaks), (t) => t, ['auth.other-workspace']);
    expect([...new Set(out.findings.map((f) => f.clause))]).toEqual(['5.workspace-bound']);
    expect(findingsOf(out).join('\n')).toMatch(message);
  });

  it('a download that ignores conversations:read fails auth.scope-missing under clause 4.6.scopes', async () => {
    const out = await run(
      async (req, forward) => {
        const a = await forward();
        const attachmentsOnly = req.headers.authorization === `Bearer ${keys().attachmentsOnly!.key}`;
        return attachmentsOnly && req.path.includes('/download') ? asAdmin(req.path) : a;
      },
      (t) => t,
      ['auth.scope-missing'],
    );
    expect(out.findings.map((f) => f.clause)).toContain('4.6.scopes');
  });
});

describe.each(DIALECT_NAMES)('dialect %s, ids-only target (spgate serve --target-out)', (dialect) => {
  it('every workspace and scope check runs, tries every part, and passes', async () => {
    const ref = await startReferenceServer({ seed: 13, dialect, fixturesApi: false, budgets: BUDGETS });
    try {
      const checks = [...CHECKS, 'attachments.scopes'];
      const out = await runConformance({
        target: targetFromInput(ref.describe({ budgets: false }), `${dialect}.target.json`),
        checks,
        runs: 2,
        seed: 2,
      });
      expect(findingsOf(out)).toEqual([]);
      expect(out.checks.map((c) => `${c.checkId} ${c.status}${c.reason ? `: ${c.reason}` : ''}`).sort()).toEqual(
        checks.map((c) => `${c} passed`).sort(),
      );
    } finally {
      await ref.close();
    }
  });
});
