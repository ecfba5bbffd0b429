/**
 * No false findings: legitimate deployments the spec allows must pass (or, where they differ from an
 * assumption, only warn). Each case is the reference server turned into another legitimate deployment by a
 * rewriting proxy or by a behaviour the spec permits; each test failed before the fix it is named after.
 */
import { describe, expect, it } from 'vitest';
import type { ConformanceOutcome } from '../../src/conformance/run.js';
import { startReferenceServer, type FaultName } from '../../src/reference/index.js';
import type { TargetFileInput } from '../../src/target/schema.js';
import { proxiedReference } from '../support/proxied-conformance.js';
import { mapObjects, mapStrings, type ProxiedAnswer, type ProxyHook } from './rewriting-proxy.js';

const BUDGETS = { read: 1_000_000, write: 1_000_000, windowSeconds: 60 };
const RUNS = 3;

const ref = proxiedReference(() => startReferenceServer({ seed: 1, budgets: BUDGETS }));

/** Runs the named checks through a proxy with `hook`, with extra assumptions and reference faults. */
async function run(
  checks: string[],
  hook: ProxyHook,
  assumptions: Record<string, unknown> = {},
  faults: FaultName[] = [],
): Promise<ConformanceOutcome> {
  ref.server.setFaults(faults);
  try {
    return await ref.run(hook, {
      checks,
      runs: RUNS,
      edit: (t: TargetFileInput) => ({ ...t, assumptions: { ...(t.assumptions ?? {}), ...assumptions } }) as TargetFileInput,
    });
  } finally {
    ref.server.setFaults([]);
  }
}

const passThrough: ProxyHook = (_req, forward) => forward();
const findingsOf = (out: ConformanceOutcome) =>
  out.findings.map((f) => `${f.checkId} ${f.clause} ${f.severity}: expected ${f.expected}; got ${f.actual}`);
const statuses = (out: ConformanceOutcome) =>
  Object.fromEntries(out.checks.map((c) => [c.checkId, c.reason ? `${c.status}: ${c.reason}` : c.status]));

const RFC3339_Z = /^(\d{4}-\d{2}-\d{2})T(\d{2}:\d{2}:\d{2})(\.\d+)?Z$/;

/** Extra keys in every object (error.details included) and timestamps in other RFC 3339 forms. */
const openDeployment: ProxyHook = async (_req, forward) => {
  const a = await forward();
  if (a.json === undefined) return a;
  let n = 0;
  const dated = mapStrings(a.json, (s) => {
    const m = RFC3339_Z.exec(s);
    if (!m) return s;
    // Cycle through forms RFC 3339 allows: +00:00, lowercase t/z, long fractions.
    const form = n++ % 3;
    return form === 0
      ? `${m[1]}T${m[2]}${m[3] ?? ''}+00:00`
      : form === 1
        ? `${m[1]}t${m[2]}${m[3] ?? ''}z`
        : `${m[1]}T${m[2]}${m[3] ?? '.0'}00000001Z`;
  });
  const json = mapObjects(dated, (o) =>
    'code' in o && 'requestId' in o ? { ...o, details: [{ field: 'x', issue: 'y' }] } : { ...o, x_vendor_extension: { v: 1 } },
  );
  return { ...a, json };
};

describe('open schemas and RFC 3339 date-times', () => {
  // Regression: closed schemas failed every response of a deployment adding error.details or one field.
  it('shapes and errors suites pass a deployment with extra keys everywhere, error.details and +00:00 / t…z / long-fraction timestamps', async () => {
    const checks = [
      'shapes.conversation',
      'shapes.customer',
      'shapes.turn',
      'shapes.session',
      'shapes.descriptor',
      'shapes.collection',
      'shapes.me',
      'assistant.receipt.shape',
      'assistant.turn.completed-answer',
      'errors.envelope',
      'errors.request-id-matches',
      'errors.route-not-found',
    ];
    const out = await run(checks, openDeployment);
    expect(findingsOf(out)).toEqual([]);
    expect(out.checks.filter((c) => c.status !== 'passed' && c.status !== 'skipped').map((c) => c.checkId)).toEqual([]);
  });

  it('a timestamp without offset (ISO 8601, not RFC 3339) is a standard-basis warning, no error', async () => {
    const out = await run(['shapes.customer'], passThrough, {}, ['timestamps-no-offset']);
    expect(out.findings.map((f) => [f.clause, f.basis, f.severity])).toEqual([['2.datetime.rfc3339', 'standard', 'warning']]);
  });
});

describe('4.5 delete idempotency is judged by its effect', () => {
  // Regression: 204 then 404 failed, though the repeat leaves the same state (the customer is gone).
  it('204 then 404 on the repeat delete passes', async () => {
    // A deployment that answers 404 for a customer already gone (the effect is the same as a 204).
    const seen = new Set<string>();
    const repeat404: ProxyHook = async (req, forward) => {
      const a = await forward();
      if (req.method !== 'DELETE') return a;
      const again = seen.has(req.path);
      seen.add(req.path);
      return again && a.status < 300
        ? {
            status: 404,
            headers: a.headers,
            json: { error: { code: 'route.not_found', message: 'no such customer', requestId: a.headers['x-request-id'] ?? 'req_x' } },
          }
        : a;
    };
    const out = await run(['customers.delete.idempotent'], repeat404);
    expect(findingsOf(out)).toEqual([]);
    expect(statuses(out)).toEqual({ 'customers.delete.idempotent': 'passed' });
  });

  it('a repeat delete whose customer is still listed fails (the effect is wrong)', async () => {
    const out = await run(['customers.delete.idempotent'], passThrough, {}, ['soft-delete-listed']);
    expect(out.findings.map((f) => [f.clause, f.severity])).toEqual([['4.5.delete.idempotent', 'error']]);
  });

  it('a repeat delete answering 500 fails', async () => {
    let deletes = 0;
    const out = await run(['customers.delete.idempotent'], async (req, forward) => {
      if (req.method === 'DELETE' && ++deletes === 2)
        return { status: 500, headers: (await forward()).headers, json: { error: { code: 'internal', message: 'm', requestId: 'req_x' } } };
      return forward();
    });
    expect(out.findings.map((f) => f.clause)).toContain('4.5.delete.idempotent');
  });
});

/** Rewrites the HTTP status of answers with the given error code. */
const statusOfCode =
  (code: string, status: number): ProxyHook =>
  async (_req, forward) => {
    const a = await forward();
    const got = (a.json as { error?: { code?: unknown } } | undefined)?.error?.code;
    return got === code ? { ...a, status } : a;
  };

describe('7.route.not-found: the code is spec, the status assumed', () => {
  // Regression: part 7 gives route.not_found no status, yet 404 was required as a spec error.
  it('route.not_found with HTTP 400 only warns by default, and passes when the target says 400', async () => {
    const lax = await run(['errors.route-not-found'], statusOfCode('route.not_found', 400));
    expect(lax.checks[0]!.status).toBe('warned');
    expect([...new Set(lax.findings.map((f) => `${f.clause} ${f.basis} ${f.severity}`))]).toEqual([
      '7.route.not-found-status assumed warning',
    ]);
    const told = await run(['errors.route-not-found'], statusOfCode('route.not_found', 400), { statuses: { notFound: 400 } });
    expect(findingsOf(told)).toEqual([]);
  });

  it('a wrong code is still a spec error', async () => {
    const out = await run(['errors.route-not-found'], passThrough, {}, ['not-found-code']);
    expect(out.findings.map((f) => [f.clause, f.severity])).toContainEqual(['7.route.not-found', 'error']);
  });
});

describe('4.4 identity pair: the rejection is spec, its status assumed', () => {
  const lone422: ProxyHook = async (req, forward) => {
    const a = await forward();
    const q = new URL(req.path, 'http://x').searchParams;
    return a.status === 400 && q.has('identityIdentifier') !== q.has('identityType') ? { ...a, status: 422 } : a;
  };

  it('422 for a lone identity parameter only warns by default and passes when the target says 422', async () => {
    const lax = await run(['pagination.identity'], lone422);
    expect(lax.checks[0]!.status).toBe('warned');
    expect([...new Set(lax.findings.map((f) => `${f.clause} ${f.severity}`))]).toEqual(['4.4.identity.pair-status warning']);
    const told = await run(['pagination.identity'], lone422, { statuses: { validation: 422 } });
    expect(findingsOf(told)).toEqual([]);
  });

  it('accepting a lone parameter is still a spec error', async () => {
    const out = await run(['pagination.identity'], passThrough, {}, ['identity-single-param']);
    expect(out.findings.map((f) => [f.clause, f.severity])).toContainEqual(['4.4.identity.pair', 'error']);
  });
});

describe('turn status values are assumed (part 3: "not shown")', () => {
  const VALUES: Record<string, string> = { pending: 'in_progress', completed: 'succeeded', cancelled: 'canceled' };
  const otherValues: ProxyHook = async (req, forward) => {
    const a = await forward();
    if (!req.path.startsWith('/ai/assistant/')) return a;
    const data = (a.json as { data?: { status?: string } } | undefined)?.data;
    if (data?.status && VALUES[data.status]) data.status = VALUES[data.status];
    return a;
  };
  const checks = ['assistant.turn.completed-answer', 'assistant.cancel.pending', 'assistant.cancel.repeat', 'assistant.owner-only'];

  it('other status values only warn under 3.turn.status-values by default and pass when the target names them', async () => {
    const lax = await run(checks, otherValues);
    expect(lax.findings.filter((f) => f.severity === 'error').map((f) => f.clause)).toEqual([]);
    expect(new Set(lax.findings.map((f) => f.clause))).toEqual(new Set(['3.turn.status-values']));
    const told = await run(checks, otherValues, { turnStatus: { pending: 'in_progress', completed: 'succeeded', cancelled: 'canceled' } });
    expect(findingsOf(told)).toEqual([]);
  });

  it('a cancel that is not persisted is still a spec error', async () => {
    const out = await run(['assistant.cancel.pending'], passThrough, {}, ['cancel-not-persisted']);
    expect(out.findings.map((f) => [f.clause, f.severity])).toContainEqual(['3.turn.cancel-pending', 'error']);
  });
});

describe('4.10.articles: a long Help Center is not a finding', () => {
  // Regression: a Help Center with more than 50 pages failed pagination.articles.
  it('an endless articles list passes on what the bounded walk saw and says how far it walked', async () => {
    const endless: ProxyHook = async (req, forward) => {
      if (!req.path.startsWith('/authoring/articles')) return forward();
      const base = await forward();
      const after = new URL(req.path, 'http://x').searchParams.get('after');
      const n = after ? Number(after.slice(1)) : 0;
      return {
        ...base,
        status: 200,
        json: { data: [{ id: `art_${n}a` }, { id: `art_${n}b` }], nextCursor: `c${n + 1}` },
      } satisfies ProxiedAnswer;
    };
    const out = await run(['pagination.articles'], endless);
    expect(findingsOf(out)).toEqual([]);
    expect(out.checks[0]!.status).toBe('passed');
    expect(out.checks[0]!.reason).toMatch(/walked the first 50 pages \(100 articles\) without reaching the end/);
  });

  it('hasMore on the articles list is still caught', async () => {
    const out = await run(['pagination.articles'], passThrough, {}, ['articles-has-more']);
    expect(out.findings.map((f) => f.clause)).toContain('4.10.articles.after');
  });
});

describe('rules the spec does not state are switchable (assumptions.rules)', () => {
  it('foreignCursorRejected: false skips pagination.foreign-cursor, naming the switch; by default it warns', async () => {
    const dflt = await run(['pagination.foreign-cursor'], passThrough, {}, ['cursor-unbound-filter']);
    expect([dflt.checks[0]!.status, dflt.checks[0]!.basis]).toEqual(['warned', 'assumed']);
    const off = await run(['pagination.foreign-cursor'], passThrough, { rules: { foreignCursorRejected: false } }, [
      'cursor-unbound-filter',
    ]);
    expect(statuses(off)['pagination.foreign-cursor']).toMatch(/^skipped: assumptions\.rules\.foreignCursorRejected is false/);
    expect(off.findings).toEqual([]);
  });

  it('idempotencyPerConnection: false skips idempotency.per-connection', async () => {
    const off = await run(['idempotency.per-connection'], passThrough, { rules: { idempotencyPerConnection: false } }, [
      'idempotency-cross-connection',
    ]);
    expect(statuses(off)['idempotency.per-connection']).toMatch(/^skipped: assumptions\.rules\.idempotencyPerConnection is false/);
    expect(off.findings).toEqual([]);
  });
});

describe('429s during conformance (a shared staging budget)', () => {
  const busy = (times: number): ProxyHook => {
    let refused = 0;
    return async (req, forward) => {
      if (req.headers.authorization !== undefined || refused >= times) return forward();
      refused++;
      const a = await forward();
      const id = `req_busy${refused}`;
      return {
        status: 429,
        headers: { ...a.headers, 'x-request-id': id, 'retry-after': '0', 'ratelimit-remaining': '0' },
        json: { error: { code: 'rate_limit.exceeded', message: 'busy', requestId: id } },
      };
    };
  };

  it('a few 429s are waited out and the real answer is judged', async () => {
    const out = await run(['auth.missing-header'], busy(4));
    expect(findingsOf(out)).toEqual([]);
    expect(statuses(out)).toEqual({ 'auth.missing-header': 'passed' });
  });

  // Regression: after three retries within 10 s the 429 was judged as the answer ("expected 401, got 429").
  it('nothing but 429 makes the check inconclusive (rate limited) with the evidence; its own clause is never failed', async () => {
    const out = await run(['auth.missing-header'], busy(Number.MAX_SAFE_INTEGER), { rateLimitWaitSeconds: 0 });
    const c = out.checks[0]!;
    expect(c.status).toBe('inconclusive');
    expect(c.reason).toMatch(/^rate limited: GET \/\S+ answered HTTP 429 .* request ids req_busy1/);
    expect(out.findings.filter((f) => f.clause === '5.auth.missing')).toEqual([]);
  });
});
