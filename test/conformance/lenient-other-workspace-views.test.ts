/**
 * auth.other-workspace's articles list, GET /me and team change parts (spec 5.1): each fails on its own
 * reference fault, legitimate variants pass (a foreign key without help:read, a /me in another shape), and
 * a /me that names no workspace leaves that part untried, never failed.
 */
import { describe, expect, it } from 'vitest';
import type { ConformanceOutcome } from '../../src/conformance/run.js';
import { startReferenceServer } from '../../src/reference/index.js';
import type { ProxiedRequest, ProxyHook } from '../checks/rewriting-proxy.js';
import { proxiedReference, verdict } from '../support/proxied-conformance.js';

const BUDGETS = { read: 1_000_000, write: 1_000_000, windowSeconds: 60 };
const CHECK = ['auth.other-workspace'];
const ref = proxiedReference(() => startReferenceServer({ seed: 5, budgets: BUDGETS }));

const isOther = (r: ProxiedRequest): boolean =>
  r.headers.authorization === `Bearer ${(ref.server.target.keys as Record<string, { key: string }>).otherWorkspace!.key}`;
const findings = (out: ConformanceOutcome): string =>
  out.findings.map((f) => `${f.clause}: expected ${f.expected}; got ${f.actual}`).join('\n');
const passThrough: ProxyHook = (_req, forward) => forward();

describe('auth.other-workspace: articles, /me, a team change', () => {
  it.each([
    ['workspace-leak-articles', /articles list with the otherWorkspace key: none of this workspace's articles/],
    ['workspace-leak-me', /GET \/me with the otherWorkspace key to name its own workspace/],
    ['workspace-leak-team', /team unchanged by the otherWorkspace key's assign of team/],
  ] as const)('fault %s fails it', async (fault, message) => {
    const out = await ref.run(passThrough, { checks: CHECK, runs: 1, faults: [fault] });
    expect(verdict(out)).toMatch(/^failed/);
    expect([...new Set(out.findings.map((f) => f.clause))]).toEqual(['5.workspace-bound']);
    expect(findings(out)).toMatch(message);
  });

  it('the clean server passes with every new part judged', async () => {
    const out = await ref.run(passThrough, { checks: CHECK, runs: 1 });
    expect(findings(out)).toEqual('');
    expect(verdict(out)).toBe('passed');
  });

  it('a foreign key refused the articles list (403) and a /me as { workspaceId } pass', async () => {
    const hook: ProxyHook = async (req, forward) => {
      if (isOther(req) && req.path.startsWith('/authoring/articles')) {
        return {
          status: 403,
          headers: { 'content-type': 'application/json' },
          json: { error: { code: 'auth.scope_missing', message: 'help:read', requestId: 'req_p' } },
        };
      }
      const a = await forward();
      if (req.path !== '/me' || a.status !== 200) return a;
      const data = (a.json as { data: { workspace: { id: string }; scopes: string[] } }).data;
      return { ...a, json: { workspaceId: data.workspace.id, scopes: data.scopes } };
    };
    const out = await ref.run(hook, { checks: CHECK, runs: 1 });
    expect(findings(out)).toEqual('');
    expect(verdict(out)).toBe('passed');
  });

  it('a /me without a workspace field leaves that part untried, named, not failed', async () => {
    const hook: ProxyHook = async (req, forward) => {
      const a = await forward();
      return req.path === '/me' && a.status === 200 ? { ...a, json: { scopes: [] } } : a;
    };
    const out = await ref.run(hook, { checks: CHECK, runs: 1 });
    expect(findings(out)).toEqual('');
    expect(verdict(out)).toMatch(/^passed: .*not tried: .*GET \/me \(the admin key's GET \/me names no workspace field/);
  });
});
