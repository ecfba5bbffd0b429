import { describe, expect, it } from 'vitest';
import { SpgateError } from '../../src/errors.js';
import { builtinProfileNames, loadProfile, type Profile } from '../../src/load/profile.js';
import { planProfile } from '../../src/load/plan.js';
import { parseShardSpec, shardProfile, shardTarget, splitInteger } from '../../src/distributed/shard.js';
import { targetFromInput } from '../../src/target/resolve.js';
import { prng } from '../support/prng.js';

const TARGET = targetFromInput(
  {
    baseUrl: 'http://127.0.0.1:9/v1',
    keys: { admin: { key: 'pk_test_shard' } },
    allowWrites: true,
    fixtures: { ids: { conversationId: 'conv_x' } },
  },
  'test',
);

function codeOf(fn: () => unknown): string | undefined {
  try {
    fn();
  } catch (err) {
    return err instanceof SpgateError ? err.code : 'not a SpgateError';
  }
  return undefined;
}

describe('--shard I/N', () => {
  it('parses 0-based indexes', () => {
    expect(parseShardSpec('0/1')).toEqual({ index: 0, count: 1 });
    expect(parseShardSpec(' 3 / 4 ')).toEqual({ index: 3, count: 4 });
  });

  it.each(['4/4', '5/4', '1/0', '-1/4', '1', 'a/b', '1/4/2', '', '0/5000'])('rejects %j with SPGATE_ERR_SHARD_INVALID', (raw) => {
    expect(codeOf(() => parseShardSpec(raw))).toBe('SPGATE_ERR_SHARD_INVALID');
  });
});

describe('splitInteger', () => {
  it('shares always sum to the whole and differ by at most one, whatever the rotation', () => {
    const rnd = prng(11);
    for (let n = 0; n < 500; n++) {
      const total = Math.floor(rnd() * 1000);
      const count = 1 + Math.floor(rnd() * 40);
      const offset = Math.floor(rnd() * 100);
      const shares = Array.from({ length: count }, (_, i) => splitInteger(total, count, i, offset));
      expect(shares.reduce((a, b) => a + b, 0)).toBe(total);
      expect(Math.max(...shares) - Math.min(...shares)).toBeLessThanOrEqual(1);
    }
  });
});

describe('shardProfile', () => {
  const closed = (read: number, write: number): Profile =>
    ({
      ...loadProfile('class-isolation'),
      model: 'closed',
      classes: {
        read: { routes: [{ route: 'me', weight: 1 }], connections: read },
        write: { routes: [{ route: 'me', weight: 1 }], connections: write },
      },
    }) as unknown as Profile;

  it('closed model: connections of every class sum to the whole across shards, remainders spread over different shards', () => {
    for (const [r, w, n] of [
      [4, 3, 2],
      [7, 5, 3],
      [10, 4, 4],
      [3, 3, 2],
    ] as const) {
      const shards = Array.from({ length: n }, (_, index) => shardProfile(closed(r, w), { index, count: n }).profile);
      expect(shards.reduce((a, p) => a + p.classes.read!.connections!, 0)).toBe(r);
      expect(shards.reduce((a, p) => a + p.classes.write!.connections!, 0)).toBe(w);
      // Rotation: the per-shard totals differ by at most one connection.
      const per = shards.map((p) => p.classes.read!.connections! + p.classes.write!.connections!);
      expect(Math.max(...per) - Math.min(...per)).toBeLessThanOrEqual(1);
    }
  });

  it('closed model: a shard never runs with no connection, and says so when that adds load', () => {
    const shards = Array.from({ length: 4 }, (_, index) => shardProfile(closed(2, 1), { index, count: 4 }));
    for (const s of shards) expect(s.profile.classes.read!.connections).toBeGreaterThanOrEqual(1);
    expect(shards.some((s) => s.notes.some((n) => n.includes('this shard runs 1')))).toBe(true);
  });

  it.each(builtinProfileNames().filter((n) => loadProfile(n).model === 'open'))(
    'open model %s: planned arrival rates of N shards sum to the whole at every second',
    (name) => {
      const profile = loadProfile(name);
      const whole = planProfile(profile, TARGET, 20);
      for (const count of [2, 3, 7]) {
        const plans = Array.from({ length: count }, (_, index) =>
          planProfile(shardProfile(profile, { index, count }).profile, shardTarget(TARGET, { index, count }), 20),
        );
        for (const t of [0, 1.5, 4, 9.9, 15, 19.5]) {
          for (const pc of whole.classes) {
            const sum = plans.reduce((a, p) => a + p.classes.find((c) => c.class === pc.class)!.rateAt!(t), 0);
            expect(sum).toBeCloseTo(pc.rateAt!(t), 6);
          }
        }
      }
    },
  );

  it("divides the profile's maxRequests so the shards' sum is the whole", () => {
    const profile = { ...loadProfile('smoke'), maxRequests: 101 };
    const sum = Array.from({ length: 4 }, (_, index) => shardProfile(profile, { index, count: 4 }).profile.maxRequests!).reduce(
      (a, b) => a + b,
      0,
    );
    expect(sum).toBe(101);
  });
});

describe('shardTarget', () => {
  it('caps are divided downwards: the shards together never exceed caps.maxRps or caps.maxRequests', () => {
    const rnd = prng(5);
    for (let n = 0; n < 200; n++) {
      const count = 1 + Math.floor(rnd() * 10);
      const maxRps = count + rnd() * 500;
      const maxRequests = count + Math.floor(rnd() * 5000);
      const t = { ...TARGET, caps: { maxRps, maxRequests } };
      const shards = Array.from({ length: count }, (_, index) => shardTarget(t, { index, count }).caps);
      expect(shards.reduce((a, c) => a + c.maxRps!, 0)).toBeLessThanOrEqual(maxRps);
      expect(shards.reduce((a, c) => a + c.maxRequests!, 0)).toBe(maxRequests);
      for (const c of shards) expect(c.maxRps).toBeGreaterThanOrEqual(1);
    }
  });

  it('a cap smaller than the number of shards is one SPGATE_ERR_SHARD_INVALID, not a shard with nothing to send', () => {
    const t = { ...TARGET, caps: { maxRps: 3 } };
    expect(codeOf(() => shardTarget(t, { index: 0, count: 4 }))).toBe('SPGATE_ERR_SHARD_INVALID');
    expect(codeOf(() => shardTarget({ ...TARGET, caps: { maxRequests: 2 } }, { index: 2, count: 3 }))).toBe('SPGATE_ERR_SHARD_INVALID');
  });

  it('a target without caps stays without caps', () => {
    expect(shardTarget(TARGET, { index: 1, count: 3 }).caps).toEqual(TARGET.caps);
  });
});
