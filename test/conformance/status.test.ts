import { describe, expect, it } from 'vitest';
import suite from '../../suites/status.js';
import { startReferenceServer, type RunningReferenceServer } from '../../src/reference/index.js';
import { runConformance } from '../support/conformance.js';
import { targetFromInput } from '../../src/target/resolve.js';
import type { TargetFileInput } from '../../src/target/schema.js';
import { listedKeys, keysOfType } from '../../suites/model/status-list.js';
import { proveSuite, runSuite } from './stateful-harness.js';

proveSuite(suite, [
  'resolve-active-accepted',
  'resolve-default-closed',
  'assign-reopens',
  'assign-empty-team-kept',
  'resolve-custom-completed-default',
  'assign-empty-accepted',
  'resolve-from-custom-refused',
]);

describe('status model-based check', () => {
  it('shrinks assign-reopens to a resolve and one assign (after the read-back that starts each sequence)', async () => {
    const server = await startReferenceServer({ seed: 3, budgets: { read: 1e6, write: 1e6 }, faults: ['assign-reopens'] });
    try {
      const out = await runSuite(server, { ...suite, checks: suite.checks.filter((c) => c.id === 'status.assign.model') }, 3);
      const [f] = out.findings;
      expect(f?.clause).toBe('3.assign.status-unchanged');
      // The read-back assign that gives the starting state, the resolve that leaves "open", the assign that reopens.
      expect(f?.exchangeIds).toHaveLength(3);
      expect(f?.actual).toMatch(/input resolve\([^)]*\),assign\(/);
      expect(f?.reproduction?.path).toBeTruthy();
    } finally {
      await server.close();
    }
  });
});

describe('reading status lists (shape not shown)', () => {
  it('accepts objects with key/type, bare strings and rejects unrecognisable items', () => {
    expect(
      listedKeys({
        data: [
          { key: 'open', type: 'active' },
          { key: 'done', type: 'completed' },
        ],
      }),
    ).toEqual([
      { key: 'open', type: 'active' },
      { key: 'done', type: 'completed' },
    ]);
    expect(listedKeys(['low', 'high'])).toEqual([{ key: 'low' }, { key: 'high' }]);
    expect(listedKeys({ data: [{ label: 'x' }] })).toBeUndefined();
    expect(listedKeys({ list: [] })).toBeUndefined();
    expect(listedKeys({ statuses: [{ slug: 'open', category: 'active' }] })).toEqual([{ key: 'open', type: 'active' }]);
    expect(listedKeys({ priorities: [{ slug: 'low' }] })).toEqual([{ key: 'low' }]);
  });

  it('takes the field that holds keys, not the display name or a generated id', () => {
    expect(
      listedKeys({
        data: [
          { name: 'Open', value: 'open' },
          { name: 'Waiting on customer', value: 'waiting_on_customer' },
        ],
      }),
    ).toEqual([{ key: 'open' }, { key: 'waiting_on_customer' }]);
    expect(
      listedKeys([
        { id: 'st_1', name: 'open' },
        { id: 'st_2', name: 'pending' },
      ]),
    ).toEqual([{ key: 'open' }, { key: 'pending' }]);
    expect(listedKeys([{ id: 7, code: 'low', name: 'Low' }])).toEqual([{ key: 'low' }]);
    expect(listedKeys([{ key: 'open', slug: 'open-1' }])).toEqual([{ key: 'open' }]);
  });

  it('display names listed as keys are still read as the keys (so the pattern check sees them)', () => {
    expect(listedKeys({ data: [{ key: 'Waiting on customer', name: 'Waiting on customer' }] })).toEqual([{ key: 'Waiting on customer' }]);
    expect(listedKeys({ data: [{ name: 'Open', value: 'Open' }] })).toEqual([{ key: 'Open' }]);
  });

  it('a field missing from some items is not the key field; items of mixed kinds are unreadable', () => {
    expect(listedKeys([{ key: 'open', name: 'Open' }, { name: 'pending' }])).toEqual([{ key: 'Open' }, { key: 'pending' }]);
    expect(listedKeys(['open', { key: 'pending' }])).toBeUndefined();
    expect(listedKeys({ data: [] })).toEqual([]);
  });

  it('merges assumed keys with listed keys of the same type', () => {
    const listed = [
      { key: 'escalated', type: 'active' },
      { key: 'archived', type: 'completed' },
      { key: 'open', type: 'active' },
    ];
    expect(keysOfType(['open', 'pending'], listed, 'active')).toEqual(['open', 'pending', 'escalated']);
    expect(keysOfType(['resolved'], listed, 'completed')).toEqual(['resolved', 'archived']);
  });
});

describe('status.resolve.any-state says which starting states it covered', () => {
  const ANY = { ...suite, checks: suite.checks.filter((c) => c.id === 'status.resolve.any-state') };
  /** Runs the check with a target holding only the ids (no fixtures API) and the given pool conversations. */
  async function withPool(server: RunningReferenceServer, pick: (status: string) => boolean, max: number) {
    const ids = server.target.fixtures!.ids!;
    const statusOfConv = async (id: string): Promise<string> =>
      ((await (await fetch(`${server.fixturesUrl}/conversations/${id}`)).json()) as { data: { status: string } }).data.status;
    const pool: string[] = [];
    for (const id of ids.pools!.conversations!) if (pool.length < max && pick(await statusOfConv(id))) pool.push(id);
    const target = targetFromInput(
      { ...server.target, fixtures: { ids: { ...ids, pools: { ...ids.pools, conversations: pool } } } } as TargetFileInput,
      'ids-only',
    );
    const out = await runConformance({ target, suites: ['status'], catalogue: [ANY], runs: 2, seed: 1 });
    return { out, pool };
  }
  const completed = (s: string) => ['resolved', 'closed', 'spam'].includes(s);

  it('a pool of completed-type conversations only: inconclusive, NOT every state (no active-type start met), naming the pool item to add', async () => {
    const server = await startReferenceServer({ seed: 2, budgets: { read: 1e6, write: 1e6 } });
    try {
      const { out } = await withPool(server, completed, 10);
      expect(out.findings).toEqual([]);
      const [c] = out.checks;
      expect(c?.status).toBe('inconclusive');
      expect(c?.remedy).toMatch(/^fixtures\.ids\.pools\.conversations: conversations in an active-type status/);
      expect(c?.reason).toMatch(
        /NOT every state: no active-type starting state was met \(no pool conversation handed to the check started in an active-type status\)/,
      );
      expect(c?.reason).toMatch(/spam \(completed: without status, with a key\)/);
    } finally {
      await server.close();
    }
  });

  it('a pool that runs short says so; a pool with active starts covers them and takes at most 4 conversations', async () => {
    const server = await startReferenceServer({ seed: 2, budgets: { read: 1e6, write: 1e6 } });
    try {
      const short = await withPool(server, completed, 1);
      expect(short.out.checks[0]?.status).toBe('inconclusive');
      expect(short.out.checks[0]?.reason).toMatch(/NOT every state.*pools\.conversations ran out/);
      const mixed = await withPool(server, () => true, 60);
      const reason = mixed.out.checks[0]?.reason ?? '';
      expect(mixed.out.checks[0]?.status).toBe('passed');
      expect(reason).not.toMatch(/NOT every state/);
      expect(reason).toMatch(/\(active: without status/);
      // bounded: at most ANY_STATE_MAX_TAKEN (4) distinct conversations were written to
      const touched = new Set(mixed.out.exchanges.map((x) => /conversations\/(conv_[^/]+)\//.exec(x.request.url)?.[1]).filter(Boolean));
      expect(touched.size).toBeLessThanOrEqual(4);
    } finally {
      await server.close();
    }
  });

  it('with no pool conversations it is skipped, naming the pool to add', async () => {
    const server = await startReferenceServer({ seed: 2, budgets: { read: 1e6, write: 1e6 } });
    try {
      const { out } = await withPool(server, () => false, 0);
      expect(out.checks[0]?.status).toBe('skipped');
      expect(out.checks[0]?.reason).toMatch(/fixtures\.ids\.pools\.conversations/);
    } finally {
      await server.close();
    }
  });
});
