/**
 * idempotency.model gives the same verdict on a quiet and on a loaded machine: a second effect of a retry is
 * shown by the state (never only by a clock tick), and sequences cut by unanswered requests make the check
 * inconclusive, never passed and never a finding.
 */
import { describe, expect, it } from 'vitest';
import suite from '../../suites/idempotency.js';
import { initialModel, unmaskingMove, type ConversationModel } from '../../suites/model/conversation.js';
import { startReferenceServer, type FaultName } from '../../src/reference/index.js';
import { createClient } from '../../src/client/client.js';
import type { HttpClient } from '../../src/client/types.js';
import { runConformance } from '../support/conformance.js';
import { targetFromInput } from '../../src/target/load.js';

const TYPES = { active: ['open', 'pending'], completed: ['resolved', 'closed'], defaultCompleted: 'resolved' };
const VALUES = { assigneeIds: ['u1', 'u2'], teams: ['t1', 't2'] };
const model = (team: string | null, status = 'open'): ConversationModel => initialModel({ status, assigneeId: null, team }, TYPES);

describe('unmaskingMove', () => {
  it('moves a field the retry would set to the value it holds, clearing with "" where it can', () => {
    expect(unmaskingMove(model('t1'), { op: 'assign', body: { team: 't1' }, key: 'k' }, VALUES)).toEqual({
      op: 'assign',
      body: { team: '' },
    });
    expect(unmaskingMove(model(null), { op: 'assign', body: { team: '' }, key: 'k' }, VALUES)).toEqual({
      op: 'assign',
      body: { team: 't1' },
    });
    expect(unmaskingMove(model(null), { op: 'assign', body: { assignee: { id: '' }, team: '' }, key: 'k' }, VALUES)).toEqual({
      op: 'assign',
      body: { assignee: { id: 'u1' }, team: 't1' },
    });
  });
  it('needs none when a second effect would change the state anyway', () => {
    expect(unmaskingMove(model('t2'), { op: 'assign', body: { team: 't1' }, key: 'k' }, VALUES)).toBeUndefined();
    expect(unmaskingMove(model(null, 'open'), { op: 'resolve', body: {}, key: 'k' }, VALUES)).toBeUndefined();
  });
  it('resolves to another completed status, and has none with a single one', () => {
    expect(unmaskingMove(model(null, 'resolved'), { op: 'resolve', body: {}, key: 'k' }, VALUES)).toEqual({
      op: 'resolve',
      body: { status: 'closed' },
    });
    const single = initialModel({ status: 'resolved', assigneeId: null, team: null }, { ...TYPES, completed: ['resolved'] });
    expect(unmaskingMove(single, { op: 'resolve', body: {}, key: 'k' }, VALUES)).toBeUndefined();
  });
});

/** A client that never answers a retry (an Idempotency-Key sent before): a loaded server timing out. */
function retriesTimeOut(inner: HttpClient): HttpClient {
  const seen = new Set<string>();
  let n = 0;
  return {
    ...inner,
    async send(spec) {
      const key = spec.headers?.['Idempotency-Key'];
      if (key === undefined || !seen.has(key)) {
        if (key !== undefined) seen.add(key);
        return inner.send(spec);
      }
      return {
        id: `cut${++n}`,
        request: { method: spec.method, url: spec.path, headers: {}, bodyBytes: 0 },
        error: { kind: 'timeout', message: 'no complete response within 60000 ms' },
        timings: { start: Date.now(), total: 60_000 },
      };
    },
  };
}

async function modelRun(faults: FaultName[], cut: boolean, seed = 7) {
  const server = await startReferenceServer({ seed, budgets: { read: 1e6, write: 1e6 }, faults });
  const target = targetFromInput(server.target, 'embedded');
  const inner = createClient({ baseUrl: target.baseUrl, secrets: target.secrets });
  try {
    const client = cut ? retriesTimeOut(inner) : inner;
    return await runConformance({
      target,
      client,
      suites: ['idempotency'],
      checks: ['idempotency.model'],
      catalogue: [suite],
      runs: 5,
      seed,
    });
  } finally {
    await inner.close();
    await server.close();
  }
}

describe('idempotency.model with unanswered retries', () => {
  for (const faults of [[], ['idempotency-double-effect']] as FaultName[][]) {
    it(`${faults[0] ?? 'clean'}: inconclusive with the cut named, no finding`, async () => {
      const out = await modelRun(faults, true);
      expect(out.findings.map((f) => `${f.clause}: ${f.actual}`)).toEqual([]);
      expect(out.checks[0]?.status).toBe('inconclusive');
      expect(out.checks[0]?.reason).toMatch(/cases cut by requests spgate gave up on after 60000 ms \(first: .*timeout/);
    });
  }
});
