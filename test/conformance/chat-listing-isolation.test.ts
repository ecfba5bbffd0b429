/**
 * Another connection's (assistant.owner-only) and another workspace's (auth.other-workspace) listing of a
 * conversation's chats, every legitimate answer and every unreadable one for both checks (unread-chats.test.ts
 * has one case of each): refused with 403 or 404, or 200 with a data array without the owner's chats,
 * passes (4.3 lists "for the calling connection"); a 200 without data shows nothing of the isolation and
 * fails, and so does a 503 for assistant.owner-only, while auth.other-workspace names a 503 (no answer of the
 * server's own) as an untried part. auth.other-workspace leaves the chats list untried, named, when the admin's own
 * listing shows no chat to look for (a 503, or an empty listing).
 */
import { describe, expect, it } from 'vitest';
import { startReferenceServer } from '../../src/reference/index.js';
import type { ConformanceOutcome } from '../../src/conformance/run.js';
import type { ProxiedAnswer, ProxiedRequest, ProxyHook } from '../checks/rewriting-proxy.js';
import { proxiedReference, unavailable } from '../support/proxied-conformance.js';

const BUDGETS = { read: 1_000_000, write: 1_000_000, windowSeconds: 60 };
const ref = proxiedReference(() => startReferenceServer({ seed: 5, budgets: BUDGETS }));

type Role = 'admin' | 'secondConnection' | 'otherWorkspace';
const keyOf = (role: Role): string => (ref.server.target.keys as Record<string, { key: string }>)[role]!.key;
/** A chats listing (4.3) sent with `role`'s key. */
const chatsListing = (req: ProxiedRequest, role: Role): boolean =>
  req.method === 'GET' &&
  /^\/ai\/conversations\/[^/]+\/assistant\/sessions(\?|$)/.test(req.path) &&
  req.headers.authorization === `Bearer ${keyOf(role)}`;

const json = (status: number, body: unknown): ProxiedAnswer => ({ status, headers: { 'content-type': 'application/json' }, json: body });

/** Answers `role`'s chats listings with `answer()`, everything else as the server does. */
const listingAnswers =
  (role: Role, answer: () => ProxiedAnswer): ProxyHook =>
  async (req, forward) =>
    chatsListing(req, role) ? answer() : forward();

const run = (hook: ProxyHook, check: string): Promise<ConformanceOutcome> => ref.run(hook, { checks: [check], runs: 2 });
const expectedOf = (out: ConformanceOutcome): string[] => out.findings.map((f) => f.expected);

describe.each([
  [
    'assistant.owner-only',
    'secondConnection',
    "another connection's listing to be refused (403 or 404) or not to show the owner's chats (200 with data)",
  ],
  [
    'auth.other-workspace',
    'otherWorkspace',
    "this workspace's conversation's chats listed with the otherWorkspace key: 403, 404, or 200 with a data array holding none of them",
  ],
] as const)('%s on the chats listing', (check, role, expected) => {
  it.each([
    ['as the server answers', (_req: ProxiedRequest, forward: () => Promise<ProxiedAnswer>) => forward()],
    ['403', listingAnswers(role, () => json(403, { error: { code: 'auth.forbidden', message: 'no', requestId: 'req_proxy' } }))],
    ['404', listingAnswers(role, () => json(404, { error: { code: 'route.not_found', message: 'no', requestId: 'req_proxy' } }))],
    ['200 with an empty data array', listingAnswers(role, () => json(200, { data: [] }))],
  ] as const)('passes when the listing answers %s', async (_what, hook) => {
    const out = await run(hook, check);
    expect(out.findings).toEqual([]);
    expect(out.checks[0]!.status).toBe('passed');
  });

  // auth.other-workspace takes a 503 for what it is, no answer of the server's own: that part is untried (below)
  it.each(
    (
      [
        ['503', unavailable],
        ['200 without a data array', () => json(200, { sessions: [] })],
      ] as const
    ).filter(([what]) => check === 'assistant.owner-only' || what !== '503'),
  )('fails when the listing answers %s (no evidence of isolation)', async (what, answer) => {
    const out = await run(listingAnswers(role, answer), check);
    expect(out.checks[0]!.status).toBe('failed');
    expect(expectedOf(out)).toContain(expected);
    expect(out.findings.find((f) => f.expected === expected)!.actual).toContain(what.slice(0, 3));
  });
});

describe('auth.other-workspace with a foreign listing that got no answer', () => {
  it("leaves the chats list untried, named, when the otherWorkspace key's listing answers 503", async () => {
    const out = await run(listingAnswers('otherWorkspace', unavailable), 'auth.other-workspace');
    expect(out.findings).toEqual([]);
    expect(out.checks[0]!.reason).toMatch(/^not tried: .*the chats list \(the chats list with the otherWorkspace key answered HTTP 503/);
  });
});

describe("auth.other-workspace without the admin's chats to compare with", () => {
  it.each([
    ['answers 503', unavailable, /the chats list \(the admin key's listing of conversation \S+ answered .*503/],
    ['is empty', () => json(200, { data: [] }), /the chats list \(the admin key's listing of conversation \S+ answered no chats\)/],
  ] as const)("leaves the chats list untried, named, when the admin's listing %s", async (_what, answer, note) => {
    const out = await run(listingAnswers('admin', answer), 'auth.other-workspace');
    expect(out.findings).toEqual([]);
    expect(out.checks[0]!.status).toBe('passed');
    expect(out.checks[0]!.reason).toMatch(note);
  });
});
