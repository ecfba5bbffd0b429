/**
 * The chat-listing checks judge "none of them listed", "no expired chat", "at most 100" only on a listing
 * they could read: 200 with a { data: [...] } body. A listing answered otherwise (a 503, a 200 whose body
 * holds no data array) shows no chat at all, so it no longer passes as "nothing wrong listed":
 * - the listing under test (another connection's, another workspace's) is then a finding: it is neither a
 *   refusal (403/404) nor a listing without the chats;
 * - the listing read to judge by (the sessions conversation's own, the admin's) leaves the check inconclusive,
 *   or the auth.other-workspace part untried, naming the answer.
 */
import { describe, expect, it } from 'vitest';
import type { ConformanceOutcome } from '../../src/conformance/run.js';
import type { ProxiedAnswer, ProxyHook } from '../checks/rewriting-proxy.js';
import { proxiedReference, unavailable, verdicts } from '../support/proxied-conformance.js';
import { startServer } from './stateful-harness.js';

const ref = proxiedReference(() => startServer(1));

type Keys = Record<string, { key: string }>;
const keyOf = (role: string): string => `Bearer ${(ref.server.target.keys as Keys)[role]!.key}`;
const isRole = (headers: Record<string, string>, role: string): boolean => headers.authorization === keyOf(role);
const isListing = (req: { method: string; path: string }): boolean => req.method === 'GET' && /\/assistant\/sessions(\?|$)/.test(req.path);

/** The same chats, but not under data (a body the checks cannot read a listing from). */
const undata = (a: ProxiedAnswer): ProxiedAnswer => ({ ...a, json: { sessions: (a.json as { data?: unknown }).data } });

/** Rewrites the chat listings made with `role` (or every chat listing, without one). */
const listings =
  (rewrite: (a: ProxiedAnswer) => ProxiedAnswer, role?: string): ProxyHook =>
  async (req, forward) => {
    const a = await forward();
    return isListing(req) && (role === undefined || isRole(req.headers, role)) ? rewrite(a) : a;
  };

const findings = (out: ConformanceOutcome) => out.findings.map((f) => `${f.checkId}: expected ${f.expected}; got ${f.actual}`);
const run = (hook: ProxyHook, checks: string[]) => ref.run(hook, { checks, runs: 2 });

describe('chat listings that could not be read', () => {
  it('the checks pass through a faithful proxy', async () => {
    const checks = ['assistant.owner-only', 'assistant.sessions.max-100', 'assistant.sessions.unexpired', 'auth.other-workspace'];
    const out = await run((_req, forward) => forward(), checks);
    expect(findings(out)).toEqual([]);
    expect(out.checks.map((c) => `${c.checkId} ${c.status}`).sort()).toEqual(checks.map((c) => `${c} passed`).sort());
    expect(verdicts(out)['auth.other-workspace']).not.toMatch(/chats list/);
  });

  it("assistant.owner-only is inconclusive, naming the answer, when the owner's own listing (what it judges by) shows no data array", async () => {
    const out = await run(listings(undata, 'admin'), ['assistant.owner-only']);
    expect(findings(out)).toEqual([]);
    expect(verdicts(out)['assistant.owner-only']).toMatch(/^inconclusive: /);
  });

  it('assistant.sessions.order, archived and this-conversation are inconclusive too on a 200 listing without a data array', async () => {
    const checks = ['assistant.sessions.order', 'assistant.sessions.archived', 'assistant.sessions.this-conversation'];
    const out = await run(listings(undata), checks);
    expect(findings(out)).toEqual([]);
    for (const id of checks) expect(verdicts(out)[id]).toMatch(/^inconclusive: .*listing answered HTTP 200 .*no data array/);
  });

  it('assistant.sessions.unexpired and max-100 are inconclusive, naming the answer, on a 200 listing without a data array', async () => {
    const out = await run(listings(undata), ['assistant.sessions.unexpired', 'assistant.sessions.max-100']);
    expect(findings(out)).toEqual([]);
    for (const id of ['assistant.sessions.unexpired', 'assistant.sessions.max-100']) {
      expect(verdicts(out)[id]).toMatch(/^inconclusive: .*listing answered HTTP 200 .*no data array/);
    }
  });

  it("assistant.owner-only fails when the other connection's listing answers 503 (neither refused nor shown without the chats)", async () => {
    const out = await run(listings(unavailable, 'secondConnection'), ['assistant.owner-only']);
    expect(out.checks[0]!.status).toBe('failed');
    expect(findings(out).join('\n')).toMatch(/another connection's listing .*HTTP 503/);
  });

  it("auth.other-workspace fails when the other key's listing answers 200 with this workspace's chats outside data", async () => {
    // The other key is served the first workspace's chats (as a leaking server would), under another key than data.
    const leak: ProxyHook = async (req, forward) => {
      if (!isListing(req) || !isRole(req.headers, 'otherWorkspace')) return forward();
      const r = await fetch(ref.server.baseUrl + req.path, {
        headers: { authorization: keyOf('admin') },
        signal: AbortSignal.timeout(10_000),
      });
      return undata({ status: r.status, headers: { 'content-type': 'application/json' }, json: await r.json() });
    };
    const out = await run(leak, ['auth.other-workspace']);
    expect(out.checks[0]!.status).toBe('failed');
    expect(findings(out).join('\n')).toMatch(/chats listed with the otherWorkspace key/);
  });

  it("auth.other-workspace leaves the chats list untried, naming the answer, when the admin's own listing answers 503", async () => {
    const out = await run(listings(unavailable, 'admin'), ['auth.other-workspace']);
    expect(findings(out)).toEqual([]);
    expect(verdicts(out)['auth.other-workspace']).toMatch(/^passed: not tried: .*the chats list \(.*HTTP 503/);
  });
});
