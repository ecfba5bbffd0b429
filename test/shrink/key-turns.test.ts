/**
 * Attempts taking turns over a key pool (src/shrink/key-slots.ts, attempts.ts): with a pool whose keys each
 * have a budget of their own, no attempt waits for the budget the last one spent; with a limiter that keys
 * the budget by workspace (legitimate: the spec does not say per key), the first attempt on a fresh key
 * sees the spent budget, the turns stop, and the attempt is repeated once every budget is full: never an
 * error, never an attempt judged from a budget it did not start with full. Against express-rate-limit@8.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { createClient } from '../../src/client/client.js';
import { createAttemptRunner } from '../../src/shrink/attempts.js';
import { keySlots } from '../../src/shrink/key-slots.js';
import type { Send } from '../../src/shrink/schedule.js';
import { startExpressServer } from '../limiters/support/express-server.js';
import { targetFor, type LimitedServer } from '../limiters/support/server.js';

describe('keySlots', () => {
  it('without a pool: one slot, the role’s own key', () => {
    const s = keySlots({ pools: {} }, ['admin', 'admin']);
    expect({ count: s.count, key: s.keyFor(3, 'admin'), described: s.described }).toEqual({ count: 1, key: 'admin', described: '' });
  });

  it('with pools: as many slots as the longest pool, each role cycling over its own', () => {
    const s = keySlots({ pools: { admin: ['admin', 'admin.pool[0]', 'admin.pool[1]'], member: ['member', 'member.pool[0]'] } }, [
      'admin',
      'member',
      'readOnly',
    ]);
    expect(s.count).toBe(3);
    expect([0, 1, 2, 3].map((i) => s.keyFor(i, 'admin'))).toEqual(['admin', 'admin.pool[0]', 'admin.pool[1]', 'admin']);
    expect([0, 1, 2].map((i) => s.keyFor(i, 'member'))).toEqual(['member', 'member.pool[0]', 'member']);
    expect(s.keyFor(2, 'readOnly')).toBe('readOnly');
    expect(s.described).toBe('admin: 3 keys, member: 2 keys');
  });

  it('a pool of a role the schedule does not use changes nothing', () => {
    expect(keySlots({ pools: { member: ['member', 'member.pool[0]'] } }, ['admin']).count).toBe(1);
  });
});

/** Six reads at once: one more than the budget of 5, so each attempt spends it (and shows a 429). */
const SPEND: Send[] = Array.from({ length: 6 }, () => ({ t: 0, class: 'read' as const, method: 'GET', path: '/me', key: 'admin' }));
const BUDGETS = { read: { limit: 5, windowSeconds: 2 }, write: { limit: 5, windowSeconds: 2 } };

describe('attempts over a key pool, against express-rate-limit', () => {
  let server: LimitedServer | undefined;
  afterEach(async () => {
    await server?.close();
    server = undefined;
  });

  const attempts = async (pool: boolean, n: number) => {
    const target = targetFor('pool', server!.url, { pool });
    const client = createClient({ baseUrl: target.baseUrl, secrets: target.secrets });
    const notes: string[] = [];
    const runner = createAttemptRunner({ client, target, maxWaitMs: 10_000, note: (l) => notes.push(l) });
    try {
      const out = [];
      for (let i = 0; i < n; i++) out.push(await runner.run(SPEND));
      return { out, notes };
    } finally {
      await client.close();
    }
  };

  it('a key of its own per attempt: none waits, each starts from a full budget and is refused at the sixth', async () => {
    server = await startExpressServer({ budgets: BUDGETS });
    const { out, notes } = await attempts(true, 4);
    expect(out.map((a) => a.waitedMs)).toEqual([0, 0, 0, 0]);
    for (const a of out) {
      expect(a.records.map((r) => r.status).sort()).toEqual([200, 200, 200, 200, 200, 429]);
      // The records keep the schedule's role, whichever key sent them.
      expect(new Set(a.records.map((r) => r.key))).toEqual(new Set(['admin']));
    }
    expect(notes).toEqual([
      "the attempts take turns over the pool's keys (admin: 4 keys), each a budget of its own: none waits for the last one's",
    ]);
  });

  it('without a pool the second attempt waits for the budget the first spent', async () => {
    server = await startExpressServer({ budgets: BUDGETS });
    const { out, notes } = await attempts(false, 2);
    expect(out[0]!.waitedMs).toBe(0);
    expect(out[1]!.waitedMs).toBeGreaterThan(0);
    expect(out[1]!.records.map((r) => r.status).sort()).toEqual([200, 200, 200, 200, 200, 429]);
    expect(notes).toEqual([]);
  });

  it('a budget per workspace: the fresh key finds it spent, the turns stop, and the attempt is repeated from a full budget', async () => {
    server = await startExpressServer({ budgets: BUDGETS, perWorkspace: true });
    const { out, notes } = await attempts(true, 3);
    expect(notes).toEqual([
      "the attempts take turns over the pool's keys (admin: 4 keys), each a budget of its own: none waits for the last one's",
      "the read (key admin) budget was not full on a key never used before: the attempts no longer take turns over the pool's keys",
    ]);
    // The second attempt sent twice (the first try found the budget spent), then waited; the third waited too.
    expect(out[1]!.sent).toBe(12);
    expect(out[1]!.waitedMs).toBeGreaterThan(0);
    expect(out[2]!.waitedMs).toBeGreaterThan(0);
    for (const a of out) expect(a.records.map((r) => r.status).sort()).toEqual([200, 200, 200, 200, 200, 429]);
  });
});
