import { describe, expect, it } from 'vitest';
import suite from '../../suites/assistant.js';
import type { ConformanceOutcome } from '../../src/conformance/run.js';
import type { ProxyHook } from '../checks/rewriting-proxy.js';
import { proxiedReference } from '../support/proxied-conformance.js';
import { proveSuite, startServer } from './stateful-harness.js';

proveSuite(suite, [
  'chat-ownership-leak',
  'chat-member-allowed',
  'cancel-completed-200',
  'cancel-repeat-409',
  'sessions-oldest-first',
  'sessions-archived-hidden',
  'sessions-unbounded',
  'sessions-paginated',
  'receipt-undo-pending',
  'turn-answer-text',
  'cancel-not-persisted',
  'sessions-cross-conversation',
  'sessions-expired-listed',
  'cancel-member-allowed',
  'cancel-unwrapped',
  'foreign-cancel-applied',
  'sessions-limit-before-sort',
]);

const NEW_CHECKS = [
  'assistant.sessions.this-conversation',
  'assistant.sessions.unexpired',
  'assistant.cancel.admin-only',
  'assistant.cancel.response',
];

/** The same instant written with a +02:00 offset (RFC 3339 allows any offset). */
function plusTwo(ms: number): string {
  return new Date(ms + 2 * 3_600_000).toISOString().replace('Z', '+02:00');
}

/**
 * A legitimate deployment: session timestamps with +02:00 offsets, the newest chat's retention ending
 * `expiredAgoMs` before the answer's Date (within the tolerance: it expired as the answer was built), and
 * a cancel answer with a top-level key beside data and a vendor field in the turn.
 */
function deployment(expiredAgoMs: number): ProxyHook {
  return async (req, forward) => {
    const a = await forward();
    const body = a.json as { data?: unknown } | undefined;
    if (a.status === 200 && /\/assistant\/sessions$/.test(req.path) && Array.isArray(body?.data)) {
      const date = Date.parse(a.headers.date ?? '');
      const data = (body.data as Array<Record<string, unknown>>).map((s, i) => ({
        ...s,
        retentionExpiresAt: i === 0 ? plusTwo(date - expiredAgoMs) : plusTwo(Date.parse(String(s.retentionExpiresAt))),
      }));
      return { ...a, json: { data } };
    }
    if (a.status === 200 && req.path.endsWith('/cancel') && body && typeof body.data === 'object') {
      return { ...a, json: { ...body, meta: { source: 'proxy' }, data: { ...(body.data as object), x_vendor: 1 } } };
    }
    return a;
  };
}

describe('the 4.2/4.3 checks on legitimate variants', () => {
  const ref = proxiedReference(() => startServer(1));
  const through = (hook: ProxyHook, checks: string[]): Promise<ConformanceOutcome> => ref.run(hook, { checks, runs: 2 });

  it('pass with +02:00 timestamps, a chat that expired 30 s before the Date header (tolerance 60 s) and extra keys on the cancel answer', async () => {
    const out = await through(deployment(30_000), NEW_CHECKS);
    expect(out.findings.map((f) => `${f.checkId}: ${f.expected}; got ${f.actual}`)).toEqual([]);
    expect(out.checks.map((c) => `${c.checkId} ${c.status}`).sort()).toEqual(NEW_CHECKS.map((id) => `${id} passed`).sort());
  });

  it('still fail a chat listed two minutes after its retention ended', async () => {
    const out = await through(deployment(120_000), ['assistant.sessions.unexpired']);
    expect(out.findings.map((f) => f.clause)).toEqual(['4.3.sessions.unexpired']);
    expect(out.findings[0]?.actual).toMatch(/\+02:00/);
  });
});
