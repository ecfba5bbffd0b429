/**
 * The shapes, assistant and errors checks judge what the spec states, and nothing stricter (issue 21): each
 * legitimate variant a rewriting proxy makes of the reference server passes, each broken one fails, and
 * what a check cannot observe leaves it inconclusive with the line that would let it judge.
 */
import { describe, expect, it } from 'vitest';
import { AGENTS, TEAMS } from '../../src/reference/dialect.js';
import { startReferenceServer } from '../../src/reference/index.js';
import type { TargetFileInput } from '../../src/target/schema.js';
import type { ConformanceOutcome } from '../../src/conformance/run.js';
import { mapObjects, mapStrings, type ProxiedAnswer, type ProxyHook } from '../checks/rewriting-proxy.js';
import { proxiedReference, verdicts } from '../support/proxied-conformance.js';

const BUDGETS = { read: 1_000_000, write: 1_000_000, windowSeconds: 60 };
const ref = proxiedReference(() => startReferenceServer({ seed: 1, budgets: BUDGETS }));

const passThrough: ProxyHook = (_req, forward) => forward();
const errors = (out: ConformanceOutcome) =>
  out.findings.filter((f) => f.severity === 'error').map((f) => `${f.checkId} ${f.clause}: ${f.actual}`);
const ids = (t: TargetFileInput) => t.fixtures!.ids!;
/** The target with fixtures.ids changed by `f` (and, with `noApi`, without the fixtures API). */
const withIds =
  (f: (i: ReturnType<typeof ids>) => void, noApi = false) =>
  (t: TargetFileInput): TargetFileInput => {
    const copy = structuredClone(t);
    f(ids(copy));
    if (noApi) delete copy.fixtures!.api;
    return copy;
  };

/** Rewrites the JSON of 2xx answers on paths matching `on`. */
function rewrite(on: RegExp, f: (json: unknown) => unknown): ProxyHook {
  return async (req, forward) => {
    const a = await forward();
    if (!on.test(req.path) || a.status >= 300 || a.json === undefined) return a;
    return { ...a, json: f(a.json) };
  };
}

const isEmpty = (v: unknown) => v === null || v === '' || (Array.isArray(v) && v.length === 0);
/** Go's omitempty on every object of the chat and collection answers. */
const omitEmpty = rewrite(/^\/(ai|authoring\/collections)\//, (json) =>
  mapObjects(json, (o) => Object.fromEntries(Object.entries(o).filter(([, v]) => !isEmpty(v)))),
);

describe('optional fields (required-ness not stated in part 2)', () => {
  const checks = [
    'shapes.turn',
    'shapes.session',
    'shapes.collection',
    'assistant.cancel.response',
    'assistant.turn.completed-answer',
    'assistant.receipt.shape',
    'assistant.sessions.archived',
  ];

  it('a server that omits unset or empty optional fields passes every shape check', async () => {
    const out = await ref.run(omitEmpty, { checks, runs: 2 });
    expect(errors(out)).toEqual([]);
    expect(Object.values(verdicts(out)).filter((v) => v !== 'passed')).toEqual([]);
  });

  it('a present field of the wrong type still fails (answer.warnings a string)', async () => {
    const hook = rewrite(/\/turns\//, (json) => mapObjects(json, (o) => (Array.isArray(o.warnings) ? { ...o, warnings: 'none' } : o)));
    const out = await ref.run(hook, { checks: ['assistant.turn.completed-answer'], runs: 1 });
    expect(out.findings.map((f) => [f.clause, f.severity])).toEqual([['3.turn.completed-has-answer', 'error']]);
  });

  it('a withheld answer (part 2 allows it) makes the answer check inconclusive, naming why; the turn shape passes', async () => {
    const hook = rewrite(/\/turns\/[^/]+$/, (json) =>
      mapObjects(json, (o) => {
        const { answer: _withheld, ...rest } = o;
        return 'runId' in o ? rest : o;
      }),
    );
    const out = await ref.run(hook, { checks: ['assistant.turn.completed-answer', 'shapes.turn'], runs: 1 });
    expect(verdicts(out)['assistant.turn.completed-answer']).toMatch(/^inconclusive: .*withheld/);
    expect(verdicts(out)['shapes.turn']).toBe('passed');
    expect(out.findings).toEqual([]);
  });
});

describe('GET /statuses and /priorities (shapes not shown, 4.10)', () => {
  const checks = ['shapes.statuses', 'shapes.priorities', 'errors.unknown-status'];
  type Item = { key: string; type?: string };

  it('other common shapes are read: { items: [{ id, kind }] }', async () => {
    const hook = rewrite(/^\/(statuses|priorities)$/, (json) => ({
      items: (json as { data: Item[] }).data.map((s) => ({ id: s.key, ...(s.type ? { kind: s.type } : {}) })),
    }));
    const out = await ref.run(hook, { checks, runs: 2 });
    expect(verdicts(out)).toEqual(Object.fromEntries(checks.map((c) => [c, 'passed'])));
  });

  it('a body no reader knows (a map by key) is inconclusive, not failed', async () => {
    const hook = rewrite(/^\/(statuses|priorities)$/, (json) => ({
      byKey: Object.fromEntries((json as { data: Item[] }).data.map((s) => [s.key, s])),
    }));
    const out = await ref.run(hook, { checks, runs: 2 });
    expect(out.findings).toEqual([]);
    for (const c of checks) expect(verdicts(out)[c]).toMatch(/^inconclusive: /);
  });
});

describe('timestamps: ISO 8601 is the spec, RFC 3339 the standard', () => {
  const checks = ['shapes.customer', 'shapes.turn', 'shapes.session', 'shapes.descriptor', 'shapes.collection', 'shapes.conversation'];
  const RFC3339_Z = /^(\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(?:\.\d+)?)Z$/;

  it('a proxy that strips every offset ("2026-11-25T10:00:00"): zero errors, a standard-basis warning', async () => {
    const hook: ProxyHook = async (_req, forward) => {
      const a = await forward();
      return a.json === undefined ? a : { ...a, json: mapStrings(a.json, (s) => s.replace(RFC3339_Z, '$1')) };
    };
    const out = await ref.run(hook, { checks, runs: 2 });
    expect(errors(out)).toEqual([]);
    const warnings = out.findings.filter((f) => f.severity === 'warning');
    expect(warnings.length).toBeGreaterThan(0);
    for (const w of warnings) expect([w.clause, w.basis]).toEqual(['2.datetime.rfc3339', 'standard']);
  });

  it('a date that is not ISO 8601 ("11/25/2026 10:00") is a spec error under 2.datetime', async () => {
    const hook = rewrite(/^\/customers/, (json) =>
      mapStrings(json, (s) => (RFC3339_Z.test(s) ? `${s.slice(5, 7)}/${s.slice(8, 10)}/${s.slice(0, 4)} ${s.slice(11, 16)}` : s)),
    );
    const out = await ref.run(hook, { checks: ['shapes.customer'], runs: 1 });
    expect(out.findings.map((f) => [f.clause, f.basis, f.severity])).toEqual([['2.datetime', 'spec', 'error']]);
  });
});

describe('assistant.sessions.no-pagination (4.3 "No pagination keys")', () => {
  const sessions = /\/assistant\/sessions$/;
  it('{ object: "list", data } passes', async () => {
    const out = await ref.run(
      rewrite(sessions, (json) => ({ object: 'list', ...(json as object) })),
      { checks: ['assistant.sessions.no-pagination'], runs: 1 },
    );
    expect(verdicts(out)).toEqual({ 'assistant.sessions.no-pagination': 'passed' });
  });
  it('a pagination key in any spelling (has_more) fails', async () => {
    const out = await ref.run(
      rewrite(sessions, (json) => ({ ...(json as object), has_more: false })),
      { checks: ['assistant.sessions.no-pagination'], runs: 1 },
    );
    expect(out.findings.map((f) => f.clause)).toEqual(['4.3.sessions.no-pagination']);
  });
});

describe('errors.route-not-found', () => {
  it('runs the read-only download case without allowWrites, and no write', async () => {
    const seen: string[] = [];
    const hook: ProxyHook = (req, forward) => {
      seen.push(`${req.method} ${req.path}`);
      return forward();
    };
    const out = await ref.run(hook, { checks: ['errors.route-not-found'], runs: 2, edit: (t) => ({ ...t, allowWrites: false }) });
    expect(verdicts(out)).toEqual({ 'errors.route-not-found': 'passed' });
    expect(seen).toContain('GET /messages/msg_spgate_missing/attachments/0/download');
    expect(seen.filter((s) => !s.startsWith('GET '))).toEqual([]);
  });

  it('a 204 to the DELETE of a customer that never existed passes (delete is idempotent, 4.5)', async () => {
    const hook: ProxyHook = async (req, forward) =>
      req.method === 'DELETE' ? { status: 204, headers: { 'x-request-id': 'req_proxy' } } : forward();
    const out = await ref.run(hook, { checks: ['errors.route-not-found'], runs: 2 });
    expect(verdicts(out)).toEqual({ 'errors.route-not-found': 'passed' });
  });
});

describe('chat listings: a pass means judged', () => {
  it('assistant.sessions.unexpired without a known expired chat is inconclusive, naming fixtures.ids.expiredChatId', async () => {
    const out = await ref.run(passThrough, {
      checks: ['assistant.sessions.unexpired'],
      runs: 1,
      edit: withIds((i) => delete i.expiredChatId),
    });
    expect(verdicts(out)['assistant.sessions.unexpired']).toMatch(/^inconclusive: no expired chat is known/);
    expect(out.checks[0]!.remedy).toMatch(/fixtures\.ids\.expiredChatId/);
  });

  it('assistant.sessions.unexpired fails when the known expired chat is listed', async () => {
    const out = await ref.run(passThrough, { checks: ['assistant.sessions.unexpired'], runs: 1, faults: ['sessions-expired-listed'] });
    expect(out.findings.map((f) => f.clause)).toContain('4.3.sessions.unexpired');
  });

  it('assistant.sessions.max-100 fails a LIMIT taken before the sort (the 100 oldest chats, ordered)', async () => {
    const out = await ref.run(passThrough, { checks: ['assistant.sessions.max-100'], runs: 1, faults: ['sessions-limit-before-sort'] });
    expect(out.findings.map((f) => [f.clause, f.severity])).toEqual([['4.3.sessions.max-100', 'error']]);
  });

  it("assistant.sessions.max-100 without the newest chat's id is inconclusive naming it (a LIMIT before the sort would look the same)", async () => {
    const out = await ref.run(passThrough, {
      checks: ['assistant.sessions.max-100'],
      runs: 1,
      edit: withIds((i) => delete i.crowdedNewestChatId, true),
    });
    expect(verdicts(out)['assistant.sessions.max-100']).toMatch(/^inconclusive: which 100 chats were listed .* unknown/);
    expect(out.checks[0]!.remedy).toMatch(/fixtures\.ids\.crowdedNewestChatId/);
  });

  it("assistant.sessions.max-100 with a fixtures API judges the newest chat of the crowd it creates, without the target file's ids", async () => {
    const out = await ref.run(passThrough, {
      checks: ['assistant.sessions.max-100'],
      runs: 1,
      edit: withIds((i) => {
        delete i.crowdedNewestChatId;
        delete i.crowdedConversationId;
      }),
    });
    expect(verdicts(out)).toEqual({ 'assistant.sessions.max-100': 'passed' });
    const bad = await ref.run(passThrough, {
      checks: ['assistant.sessions.max-100'],
      runs: 1,
      faults: ['sessions-limit-before-sort'],
      edit: withIds((i) => {
        delete i.crowdedNewestChatId;
        delete i.crowdedConversationId;
      }),
    });
    expect(bad.findings.map((f) => f.clause)).toEqual(['4.3.sessions.max-100']);
  });
});

describe('assistant turns', () => {
  it('assistant.cancel.completed runs on a target with a completed turn and no pending-turn pool', async () => {
    const out = await ref.run(passThrough, {
      checks: ['assistant.cancel.completed'],
      runs: 1,
      edit: withIds((i) => delete i.pools?.pendingTurns, true),
    });
    expect(verdicts(out)).toEqual({ 'assistant.cancel.completed': 'passed' });
  });

  it('assistant.owner-only: a refused foreign cancel that cancels anyway is a spec failure (4.1/4.2), not an assumed warning', async () => {
    const out = await ref.run(passThrough, { checks: ['assistant.owner-only'], runs: 1, faults: ['foreign-cancel-applied'] });
    expect(out.findings.map((f) => [f.clause, f.basis, f.severity])).toEqual([['4.1.chat.owner-only', 'spec', 'error']]);
  });
});

describe('shapes.conversation over the assignee values the target names', () => {
  const known = new Set<string>([...AGENTS, ...TEAMS, '']);
  /** A deployment that refuses unknown assignee ids and teams with 422 (after the fact: the answer is what the check reads). */
  const validating: ProxyHook = async (req, forward) => {
    const a = await forward();
    const body = a.json as { assignee?: { id?: string } | null; team?: string | null } | undefined;
    if (!/\/assign$/.test(req.path) || a.status !== 200 || !body) return a;
    const bad = [body.assignee?.id ?? '', body.team ?? ''].find((v) => !known.has(v));
    if (bad === undefined) return a;
    const refusal: ProxiedAnswer = {
      status: 422,
      headers: { 'content-type': 'application/json', 'x-request-id': 'req_proxy' },
      json: { error: { code: 'conversations.unknown_assignee', message: `unknown ${bad}`, requestId: 'req_proxy' } },
    };
    return refusal;
  };

  it('with fixtures.ids.assigneeIds/teams: every case judged, passed', async () => {
    const out = await ref.run(validating, { checks: ['shapes.conversation'], runs: 6 });
    expect(verdicts(out)).toEqual({ 'shapes.conversation': 'passed' });
  });

  it('without them, the made-up values a validating server refuses are discarded, not failed', async () => {
    const out = await ref.run(validating, {
      checks: ['shapes.conversation'],
      runs: 6,
      edit: withIds((i) => {
        delete i.assigneeIds;
        delete i.teams;
      }),
    });
    expect(out.findings).toEqual([]);
    expect(verdicts(out)['shapes.conversation']).toMatch(/refused as invalid/);
  });
});
