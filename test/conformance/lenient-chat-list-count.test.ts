/**
 * 4.3's chat list has "No pagination keys": a count beside `data` (total, totalCount) does not paginate and
 * passes; a cursor, a page, an offset or a next link still fails.
 */
import { describe, expect, it } from 'vitest';
import type { ProxyHook } from '../checks/rewriting-proxy.js';
import { proxiedReference, verdicts } from '../support/proxied-conformance.js';
import { startServer } from './stateful-harness.js';

const CHECK = 'assistant.sessions.no-pagination';

/** Adds `extra` beside `data` on every 200 chat list. */
function beside(extra: (n: number) => Record<string, unknown>): ProxyHook {
  return async (req, forward) => {
    const a = await forward();
    const body = a.json as { data?: unknown[] } | undefined;
    if (a.status !== 200 || !/\/assistant\/sessions$/.test(req.path) || !Array.isArray(body?.data)) return a;
    return { ...a, json: { ...body, ...extra(body.data.length) } };
  };
}

describe('assistant.sessions.no-pagination beside a count', () => {
  const ref = proxiedReference(() => startServer(1));

  it.each([
    ['total', (n: number) => ({ total: n })],
    ['totalCount', (n: number) => ({ totalCount: n })],
    ['total_count and object: "list"', (n: number) => ({ object: 'list', total_count: n })],
  ])('%s passes', async (_name, extra) => {
    const out = await ref.run(beside(extra), { checks: [CHECK], runs: 1 });
    expect(verdicts(out)).toEqual({ [CHECK]: 'passed' });
  });

  it.each([
    ['nextCursor', () => ({ nextCursor: null })],
    ['page', () => ({ page: 1 })],
    ['offset', () => ({ offset: 0 })],
    ['links.next', () => ({ links: { next: null } })],
  ])('%s beside a total still fails', async (_name, extra) => {
    const out = await ref.run(
      beside((n) => ({ total: n, ...extra() })),
      { checks: [CHECK], runs: 1 },
    );
    expect(out.findings.map((f) => f.clause)).toEqual(['4.3.sessions.no-pagination']);
  });
});
