/**
 * auth.other-workspace tries every operation with the foreign key — the customer list, the external-id
 * filter, text search, the identity lookup, a turn read, the chats list, and with allowWrites cancel,
 * resolve, delete, assign and the collection update — and judges each by its answer and its effect as this
 * workspace's keys observe it. Each part fails on its own (a reference fault or a proxy letting the foreign
 * key through on that operation alone); legitimate variants pass; a part that cannot judge is named, and a
 * run where no part judged is inconclusive.
 */
import { describe, expect, it } from 'vitest';
import type { ConformanceOutcome } from '../../src/conformance/run.js';
import { startReferenceServer } from '../../src/reference/index.js';
import type { ProxiedRequest, ProxyHook } from '../checks/rewriting-proxy.js';
import { proxiedReference, unavailable, verdict } from '../support/proxied-conformance.js';

const BUDGETS = { read: 1_000_000, write: 1_000_000, windowSeconds: 60 };
const CHECK = ['auth.other-workspace'];
const ref = proxiedReference(() => startReferenceServer({ seed: 5, budgets: BUDGETS }));

type Keys = Record<string, { key: string }>;
const keys = (): Keys => ref.server.target.keys as Keys;
const isOther = (r: ProxiedRequest): boolean => r.headers.authorization === `Bearer ${keys().otherWorkspace!.key}`;
const searchParam = (): string =>
  (ref.server.target as { assumptions?: { params?: { search?: string } } }).assumptions?.params?.search ?? 'q';
const findings = (out: ConformanceOutcome): string =>
  out.findings.map((f) => `${f.clause}: expected ${f.expected}; got ${f.actual}`).join('\n');
const passThrough: ProxyHook = (_req, forward) => forward();

/** Lets the foreign key through as `role` of this workspace on the requests `leaks` picks, and nowhere else. */
const letThrough =
  (leaks: (r: ProxiedRequest) => boolean, role = 'admin'): ProxyHook =>
  (req, forward) =>
    forward(isOther(req) && leaks(req) ? { ...req.headers, authorization: `Bearer ${keys()[role]!.key}` } : undefined);

describe('each part fails on its own', () => {
  it.each([
    ['search-no-tenant-filter', /text search with the otherWorkspace key: none of this workspace's customers/],
    ['delete-cross-workspace', /customer still listed after deleting it with the otherWorkspace key/],
  ] as const)('fault %s', async (fault, message) => {
    const out = await ref.run(passThrough, { checks: CHECK, runs: 2, faults: [fault] });
    expect(verdict(out)).toMatch(/^failed/);
    expect([...new Set(out.findings.map((f) => f.clause))]).toEqual(['5.workspace-bound']);
    expect(findings(out)).toMatch(message);
  });

  it.each([
    [
      'the identity lookup',
      (r: ProxiedRequest) => r.method === 'GET' && r.path.includes('identityIdentifier='),
      'admin',
      /identity lookup with the otherWorkspace key: none of this workspace's customers/,
    ],
    [
      'the text search',
      (r: ProxiedRequest) => r.method === 'GET' && r.path.includes(`${searchParam()}=`),
      'admin',
      /text search with the otherWorkspace key/,
    ],
    [
      'cancel',
      (r: ProxiedRequest) => r.method === 'POST' && r.path.endsWith('/cancel'),
      'admin',
      /turn still pending after the otherWorkspace key's cancel/,
    ],
    [
      'assign',
      (r: ProxiedRequest) => r.method === 'POST' && r.path.endsWith('/assign'),
      'admin',
      /unchanged by the otherWorkspace key's assign/,
    ],
    [
      'the collection update',
      (r: ProxiedRequest) => r.method === 'PUT',
      'helpDelegated',
      /collection's revision unchanged by the otherWorkspace key's update/,
    ],
  ] as const)('a gateway letting the foreign key through on %s alone', async (_what, leaks, role, message) => {
    const out = await ref.run(letThrough(leaks, role), { checks: CHECK, runs: 2 });
    expect([...new Set(out.findings.map((f) => f.clause))]).toEqual(['5.workspace-bound']);
    expect(findings(out)).toMatch(message);
  });
});

describe('legitimate variants pass', () => {
  it('foreign writes with a body refused as invalid (a server that checks the body before the id): 422, nothing changed', async () => {
    const out = await ref.run(
      async (req, forward) =>
        isOther(req) && ['POST', 'PUT'].includes(req.method) && !req.path.endsWith('/cancel')
          ? {
              status: 422,
              headers: { 'content-type': 'application/json' },
              json: { error: { code: 'request.invalid', message: 'invalid', requestId: 'req_proxy' } },
            }
          : forward(),
      { checks: CHECK, runs: 2 },
    );
    expect(findings(out)).toBe('');
    expect(verdict(out)).toBe('passed');
  });
});

describe('what it cannot judge is said', () => {
  it('an admin search that finds nothing leaves the search part untried (named), the rest judged', async () => {
    const out = await ref.run(
      async (req, forward) => {
        const a = await forward();
        return !isOther(req) && req.path.includes(`${searchParam()}=`) ? { ...a, json: { data: [], hasMore: false, nextCursor: null } } : a;
      },
      { checks: CHECK, runs: 2 },
    );
    expect(verdict(out)).toMatch(/^passed: not tried: the text search \(the admin key's text search lists no cus_/);
  });

  it('every foreign request unanswered (503) and no allowWrites: no part judged, inconclusive with the remedy', async () => {
    const out = await ref.run(async (req, forward) => (isOther(req) ? unavailable() : forward()), {
      checks: CHECK,
      runs: 2,
      edit: (t) => ({ ...t, allowWrites: false }),
    });
    expect(verdict(out)).toMatch(
      /^inconclusive: no part could be judged: the customer list \(GET \/customers with the otherWorkspace key answered HTTP 503/,
    );
    expect(out.checks[0]!.remedy).toMatch(/allowWrites/);
  });
});
