/**
 * Issue 30, "stricter than the spec" and "passes that judged nothing": each legitimate variant a rewriting
 * proxy makes of the reference server gives zero findings, the faults the checks exist for are still caught,
 * and a run that could not observe what a check is for leaves it inconclusive with the reason.
 */
import { describe, expect, it } from 'vitest';
import { startReferenceServer } from '../../src/reference/index.js';
import { TEAMS } from '../../src/reference/dialect.js';
import { type ConformanceOutcome } from '../../src/conformance/run.js';
import { runConformance } from '../support/conformance.js';
import { targetFromInput } from '../../src/target/resolve.js';
import type { TargetFileInput } from '../../src/target/schema.js';
import { mapObjects, startRewritingProxy, type ProxiedAnswer, type ProxyHook } from '../checks/rewriting-proxy.js';
import { proxiedReference, verdict, verdicts } from '../support/proxied-conformance.js';

const BUDGETS = { read: 1_000_000, write: 1_000_000, windowSeconds: 60 };
const ref = proxiedReference(() => startReferenceServer({ seed: 1, budgets: BUDGETS }));

const passThrough: ProxyHook = (_req, forward) => forward();
const clauses = (out: ConformanceOutcome) => out.findings.map((f) => f.clause);

/** Rewrites the JSON of 2xx answers on paths matching `on`. */
function rewrite(on: RegExp, f: (json: unknown) => unknown): ProxyHook {
  return async (req, forward) => {
    const a = await forward();
    if (!on.test(req.path) || a.status >= 300 || a.json === undefined) return a;
    return { ...a, json: f(a.json) };
  };
}

/** An error answer with the envelope, as a deployment of its own would give it. */
function refusal(status: number, code: string, message: string): ProxiedAnswer {
  return {
    status,
    headers: { 'content-type': 'application/json', 'x-request-id': 'req_proxy' },
    json: { error: { code, message, requestId: 'req_proxy' } },
  };
}

type Item = { key: string; name?: string; type?: string };
const KEY_LISTS = /^\/(statuses|priorities)$/;
const itemsOf = (json: unknown) => (json as { data: Item[] }).data;

describe('GET /statuses and /priorities: the key may sit in any field', () => {
  const checks = [
    'shapes.statuses',
    'shapes.priorities',
    'status.resolve.active-keys',
    'status.resolve.completed-keys',
    'errors.unknown-status',
  ];
  /** { name: "Open", value: "open" }: the display name beside the key. */
  const nameValue = rewrite(KEY_LISTS, (json) => ({
    data: itemsOf(json).map((s) => ({ name: s.name, value: s.key, ...(s.type ? { type: s.type } : {}) })),
  }));

  it('{ name: "Open", value: "open" } passes every check that reads the lists', async () => {
    const out = await ref.run(nameValue, { checks, runs: 1 });
    expect(out.findings).toEqual([]);
    expect(verdicts(out)).toEqual(Object.fromEntries(checks.map((c) => [c, 'passed'])));
  });

  it('{ id: "st_1", name: "open" }: a generated id beside the key passes', async () => {
    const hook = rewrite(KEY_LISTS, (json) =>
      itemsOf(json).map((s, i) => ({ id: `st_${i + 1}`, name: s.key, ...(s.type ? { type: s.type } : {}) })),
    );
    const out = await ref.run(hook, { checks, runs: 1 });
    expect(out.findings).toEqual([]);
  });

  it('in that shape, display names listed as keys and a missing priority are still caught', async () => {
    const display = await ref.run(nameValue, { checks: ['shapes.statuses'], runs: 1, faults: ['statuses-display-keys'] });
    expect(clauses(display)).toContain('4.10.statuses');
    const dropped = await ref.run(nameValue, { checks: ['shapes.priorities'], runs: 1, faults: ['priorities-drop-last'] });
    expect(clauses(dropped)).toEqual(['4.10.priorities']);
  });
});

describe('shapes.priorities on an empty list', () => {
  /** Runs through `hook` with the target marked as a user's own (no seeded keys are known then). */
  async function asOwnTarget(hook: ProxyHook, check: string): Promise<ConformanceOutcome> {
    const proxy = await startRewritingProxy(ref.server.target.baseUrl, hook);
    try {
      const target = targetFromInput({ ...ref.server.target, baseUrl: proxy.url } as TargetFileInput, 'ids-only');
      return await runConformance({ target, checks: [check], runs: 1, seed: 1 });
    } finally {
      await proxy.close();
    }
  }

  it('a workspace without priorities judges nothing: inconclusive, naming why', async () => {
    const out = await asOwnTarget(
      rewrite(/^\/priorities$/, () => ({ data: [] })),
      'shapes.priorities',
    );
    expect(out.findings).toEqual([]);
    expect(verdict(out)).toMatch(/^inconclusive: GET \/priorities listed no keys/);
  });

  it('a listed key off the pattern still fails', async () => {
    const out = await asOwnTarget(
      rewrite(/^\/priorities$/, () => ({ data: [{ key: 'Very High' }] })),
      'shapes.priorities',
    );
    expect(clauses(out)).toEqual(['4.10.priorities']);
  });
});

describe("status.assign.sets-and-clears: the assignee's inner fields are not shown", () => {
  const check = { checks: ['status.assign.sets-and-clears'], runs: 2 };
  /** An assignee rendered as { agentId } instead of { id }. */
  const agentId = rewrite(/^\/conversations\//, (json) =>
    mapObjects(json, (o) => {
      const a = o.assignee as { id?: string } | null | undefined;
      return a && typeof a.id === 'string' ? { ...o, assignee: { agentId: a.id } } : o;
    }),
  );

  it('an assignee rendered without an id field passes', async () => {
    const out = await ref.run(agentId, check);
    expect(out.findings).toEqual([]);
    expect(verdict(out)).toBe('passed');
  });

  it('in that shape, team "" that keeps the team is still caught', async () => {
    const out = await ref.run(agentId, { ...check, faults: ['assign-empty-team-kept'] });
    expect(clauses(out)).toEqual(['3.assign.sets-and-clears']);
  });

  it('an assignee that shows another id still fails', async () => {
    const other = rewrite(/^\/conversations\//, (json) =>
      mapObjects(json, (o) => {
        const a = o.assignee as { id?: string } | null | undefined;
        return a && typeof a.id === 'string' ? { ...o, assignee: { id: 'agt_someone_else' } } : o;
      }),
    );
    const out = await ref.run(other, check);
    expect(clauses(out)).toEqual(['3.assign.sets-and-clears']);
  });
});

describe('errors.route-not-found: a server that validates the body before the id', () => {
  /** Refuses an assign whose team the workspace does not know with 422, before looking the conversation up. */
  const bodyFirst: ProxyHook = async (req, forward) => {
    if (req.method === 'POST' && req.path.endsWith('/assign')) {
      const team = (JSON.parse(req.body || '{}') as { team?: unknown }).team;
      if (typeof team === 'string' && team !== '' && !(TEAMS as readonly string[]).includes(team))
        return refusal(422, 'validation.failed', `team "${team}" is unknown`);
    }
    return forward();
  };

  it('passes, and unknown routes answered with another code are still caught', async () => {
    const out = await ref.run(bodyFirst, { checks: ['errors.route-not-found'], runs: 2 });
    expect(out.findings).toEqual([]);
    expect(verdict(out)).toBe('passed');
    const faulty = await ref.run(bodyFirst, { checks: ['errors.route-not-found'], runs: 1, faults: ['not-found-code'] });
    expect(clauses(faulty)).toContain('7.route.not-found');
  });
});

describe('shapes.collection: a refused update shows no collection', () => {
  it('a Help Center that requires a locale (422) is inconclusive, not a shape error', async () => {
    const hook: ProxyHook = async (req, forward) =>
      req.method === 'PUT' && req.path.startsWith('/authoring/collections/')
        ? refusal(422, 'validation.failed', 'locale is required')
        : forward();
    const out = await ref.run(hook, { checks: ['shapes.collection'], runs: 1 });
    expect(out.findings).toEqual([]);
    expect(verdict(out)).toMatch(/^inconclusive: the collection update answered HTTP 422/);
  });

  it('a collection of the wrong shape is still caught', async () => {
    const out = await ref.run(passThrough, { checks: ['shapes.collection'], runs: 1, faults: ['collection-translations-object'] });
    expect(clauses(out)).toEqual(['2.collection.shape']);
  });
});

describe('errors.request-id-matches: equality needs both ids', () => {
  it('errors that never carry X-Request-Id: inconclusive (the header check fails, this one judged nothing)', async () => {
    const hook: ProxyHook = async (_req, forward) => {
      const a = await forward();
      if (a.status < 400) return a;
      const { 'x-request-id': _dropped, ...headers } = a.headers;
      return { ...a, headers };
    };
    const out = await ref.run(hook, { checks: ['errors.request-id-matches', 'errors.request-id-header'], runs: 1 });
    expect(verdicts(out)['errors.request-id-matches']).toMatch(/^inconclusive: no error response seen carried both/);
    expect(clauses(out)).toEqual(['7.request-id.header']);
  });

  it('a mismatch is still caught', async () => {
    const out = await ref.run(passThrough, { checks: ['errors.request-id-matches'], runs: 1, faults: ['request-id-mismatch'] });
    expect(clauses(out)).toEqual(['7.request-id.matches']);
  });
});

describe('status.resolve.default on a workspace with one completed status', () => {
  /** GET /statuses without the completed-type keys other than resolved. */
  const oneCompleted = rewrite(/^\/statuses$/, (json) => ({
    data: itemsOf(json).filter((s) => s.type !== 'completed' || s.key === 'resolved'),
  }));
  /** The target with only `resolved` assumed completed and the pool conversations that start in `status`. */
  async function poolIn(status: string) {
    const ids = ref.server.target.fixtures!.ids!;
    const pool: string[] = [];
    for (const id of ids.pools!.conversations!) {
      const conv = (await (await fetch(`${ref.server.fixturesUrl}/conversations/${id}`)).json()) as { data: { status: string } };
      if (conv.data.status === status && pool.length < 4) pool.push(id);
    }
    return (t: TargetFileInput): TargetFileInput => {
      const copy = structuredClone(t);
      delete copy.fixtures!.api;
      copy.fixtures!.ids!.pools = { ...copy.fixtures!.ids!.pools, conversations: pool };
      copy.assumptions = { ...copy.assumptions, completedStatuses: ['resolved'] };
      return copy;
    };
  }

  it('pool conversations already in the default status: inconclusive, naming what would let it judge', async () => {
    const out = await ref.run(oneCompleted, { checks: ['status.resolve.default'], runs: 1, edit: await poolIn('resolved') });
    expect(out.findings).toEqual([]);
    expect(verdict(out)).toMatch(/^inconclusive: the workspace has one completed-type status \(resolved\)/);
  });

  it('a pool conversation in an active status is judged: passes, and resolving to closed is caught', async () => {
    const edit = await poolIn('open');
    expect(verdict(await ref.run(oneCompleted, { checks: ['status.resolve.default'], runs: 1, edit }))).toBe('passed');
    const faulty = await ref.run(oneCompleted, {
      checks: ['status.resolve.default'],
      runs: 1,
      edit: await poolIn('pending'),
      faults: ['resolve-default-closed'],
    });
    expect(clauses(faulty)).toContain('3.resolve.default-status');
  });
});

describe('auth.prefixes judges the older prefixes', () => {
  const without =
    (...roles: Array<'legacyLive' | 'legacyTest'>) =>
    (t: TargetFileInput): TargetFileInput => {
      const copy = structuredClone(t);
      for (const r of roles) delete (copy.keys as Record<string, unknown>)[r];
      return copy;
    };

  it('without pk_live_ and pk_test_ keys: inconclusive, naming the keys to add', async () => {
    const out = await ref.run(passThrough, { checks: ['auth.prefixes'], runs: 1, edit: without('legacyLive', 'legacyTest') });
    expect(verdict(out)).toMatch(/^inconclusive: the target names no pk_live_ or pk_test_ key/);
    expect(out.checks[0]!.remedy).toMatch(/keys\.legacyLive.*keys\.legacyTest/);
  });

  it('with one of them: passed, naming the one not tried; a refused legacy key is still caught', async () => {
    const out = await ref.run(passThrough, { checks: ['auth.prefixes'], runs: 1, edit: without('legacyTest') });
    expect(verdict(out)).toMatch(/^passed: not tried: a pk_test_ key/);
    const faulty = await ref.run(passThrough, { checks: ['auth.prefixes'], runs: 1, faults: ['auth-legacy-prefix-rejected'] });
    expect(clauses(faulty)).toContain('5.auth.prefixes');
  });
});
