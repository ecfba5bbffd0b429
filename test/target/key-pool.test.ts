/**
 * A role's key pool (keys.ROLE.pool): resolved like keys (env: or literal), every unset variable named at
 * once, a pool key that is another key refused (one budget counted as two would be a false finding), the
 * secrets hidden like every key's, and a profile with keys: "pool" spread over it one planned route per key.
 */
import { describe, expect, it } from 'vitest';
import { SpgateError } from '../../src/errors.js';
import { createRedactor } from '../../src/client/redact.js';
import { requestHeaders } from '../../src/load/engine.js';
import { pickRoute, weightedCycle } from '../../src/load/engine.js';
import { prng } from '../support/prng.js';
import { parseProfile } from '../../src/load/profile.js';
import { planProfile } from '../../src/load/plan.js';
import { loadPlanLines } from '../../src/dry-run/load.js';
import { resolveTarget } from '../../src/target/resolve.js';

const ADMIN = 'pk_test_admin_0123456789';
const P0 = 'pk_test_pool0_0123456789';
const P1 = 'pk_test_pool1_0123456789';
const RO = 'pk_test_readonly_0123456789';
const file = (keys: Record<string, unknown>) => ({ baseUrl: 'http://127.0.0.1:9/v1', keys });

function error(f: () => unknown): { code: string; message: string } {
  try {
    f();
  } catch (e) {
    if (e instanceof SpgateError) return { code: e.code, message: e.message };
    throw e;
  }
  throw new Error('no error');
}

describe('keys.ROLE.pool', () => {
  it("resolves env: and literal pool keys under the names role.pool[i]; the pool lists the role's key first", () => {
    const t = resolveTarget(file({ admin: { key: 'env:A', pool: ['env:P0', P1] } }), 't.json', { env: { A: ADMIN, P0 } });
    expect(t.secrets).toEqual({ admin: ADMIN, 'admin.pool[0]': P0, 'admin.pool[1]': P1 });
    expect(t.pools).toEqual({ admin: ['admin', 'admin.pool[0]', 'admin.pool[1]'] });
    expect(t.keys.admin.pool).toEqual([P0, P1]);
  });

  it('a file without a pool is as before', () => {
    const t = resolveTarget(file({ admin: { key: ADMIN } }), 't.json');
    expect(t.secrets).toEqual({ admin: ADMIN });
    expect(t.pools).toEqual({});
  });

  it('every unset variable is named at once, pool keys with their path; a dry run plans with placeholders', () => {
    const input = file({ admin: { key: 'env:A', pool: ['env:P0', 'env:P1'] }, readOnly: { key: 'env:R' } });
    expect(error(() => resolveTarget(input, 't.json', { env: { A: ADMIN } }))).toEqual({
      code: 'SPGATE_ERR_KEY_ENV_MISSING',
      message: 't.json: environment variables not set: P0 (keys.admin.pool[0]), P1 (keys.admin.pool[1]), R (keys.readOnly)',
    });
    const dry = resolveTarget(input, 't.json', { env: {}, unsetKeys: 'placeholder' });
    expect(dry.warnings[0]).toContain('A (keys.admin), P0 (keys.admin.pool[0]), P1 (keys.admin.pool[1]), R (keys.readOnly)');
    expect(dry.pools.admin).toHaveLength(3);
  });

  it('a pool key that is another key is refused, naming both; two roles sharing a key stay valid', () => {
    expect(error(() => resolveTarget(file({ admin: { key: ADMIN, pool: [ADMIN] } }), 't.json'))).toEqual({
      code: 'SPGATE_ERR_TARGET_INVALID',
      message: 't.json: keys.admin.pool[0]: the same key as keys.admin.key (each pool key must be a key of its own, with its own budget)',
    });
    expect(
      error(() => resolveTarget(file({ admin: { key: ADMIN, pool: [P0] }, readOnly: { key: RO, pool: [P0] } }), 't.json')).message,
    ).toBe(
      't.json: keys.readOnly.pool[0]: the same key as keys.admin.pool[0] (each pool key must be a key of its own, with its own budget)',
    );
    expect(resolveTarget(file({ admin: { key: ADMIN }, secondConnection: { key: ADMIN } }), 't.json').secrets.secondConnection).toBe(ADMIN);
    expect(error(() => resolveTarget(file({ admin: { key: ADMIN, pool: [] } }), 't.json')).code).toBe('SPGATE_ERR_TARGET_INVALID');
  });

  it('pool keys are hidden like every key: an Authorization header names the pool key, never the secret', () => {
    const t = resolveTarget(file({ admin: { key: ADMIN, pool: [P0] } }), 't.json');
    const r = createRedactor(t.secrets);
    expect(r.redactHeaders({ authorization: `Bearer ${P0}` })).toEqual({ authorization: 'Bearer <redacted:admin.pool[0]>' });
    expect(r.redactString(`a body quoting ${P0}`)).toBe('a body quoting <redacted>');
  });
});

describe('a profile with keys: "pool"', () => {
  const target = resolveTarget(file({ admin: { key: ADMIN, pool: [P0, P1] }, readOnly: { key: RO } }), 't.json');
  const profile = (keys: 'pool' | 'role', extra: Record<string, unknown> = {}) =>
    parseProfile(
      {
        name: 'p',
        description: 'd',
        model: 'closed',
        duration: 1,
        keys,
        classes: {
          read: {
            connections: 2,
            routes: [
              { route: 'me', weight: 2 },
              { route: 'statuses', key: 'readOnly' },
            ],
            ...extra,
          },
        },
      },
      'test',
    );

  it("spreads each route over its role's keys, one planned route per key, the class mix kept", () => {
    const plan = planProfile(profile('pool'), target);
    expect(plan.routes.map((r) => [r.label, r.keyName, r.weight])).toEqual([
      ['me', 'admin', 2],
      ['me', 'admin.pool[0]', 2],
      ['me', 'admin.pool[1]', 2],
      ['statuses', 'readOnly', 3],
    ]);
    // The closed engine's cycle sends to the keys in turn, me twice as often as statuses.
    const cycle = weightedCycle(plan.classes[0]!).map((i) => plan.routes[i]!.keyName);
    expect(cycle.filter((k) => k.startsWith('admin')).length).toBe(2 * cycle.filter((k) => k === 'readOnly').length);
    expect(new Set(cycle)).toEqual(new Set(['admin', 'admin.pool[0]', 'admin.pool[1]', 'readOnly']));
    // Each request carries its own key.
    expect(plan.routes.map((r) => requestHeaders(r, target.secrets, 'run').authorization)).toEqual([
      `Bearer ${ADMIN}`,
      `Bearer ${P0}`,
      `Bearer ${P1}`,
      `Bearer ${RO}`,
    ]);
    // config and the dry run show the route once, with the key names (never the secrets).
    const shown = (plan.config.classes as Array<{ routes: unknown[] }>)[0]!.routes;
    expect(shown).toEqual([
      { route: 'me', method: 'GET', path: '/me', weight: 2, key: 'admin', keys: ['admin', 'admin.pool[0]', 'admin.pool[1]'] },
      { route: 'statuses', method: 'GET', path: '/statuses', weight: 1, key: 'readOnly' },
    ]);
    expect(plan.config.notes).toContain(
      'admin: requests spread over 3 keys (admin, admin.pool[0], admin.pool[1]); rate limits judged per key',
    );
    expect(plan.config.notes).toContain(
      'readOnly: keys "pool" but the target file gives the role no pool (keys.readOnly.pool): every request uses its one key',
    );
    const lines = loadPlanLines(plan, target).join('\n');
    expect(lines).toContain('2 routes (me, statuses) · keys admin, admin.pool[0], admin.pool[1], readOnly');
    expect(JSON.stringify(plan.config) + lines).not.toMatch(/pk_test/);
  });

  it('the open model draws the route at random and takes its keys in turn: every key an equal share', () => {
    const open = parseProfile(
      {
        name: 'p',
        description: 'd',
        model: 'open',
        duration: 1,
        keys: 'pool',
        classes: {
          read: {
            rate: 10,
            routes: [
              { route: 'me', weight: 2 },
              { route: 'statuses', key: 'readOnly' },
            ],
          },
        },
      },
      'test',
    );
    const plan = planProfile(open, target);
    const rnd = prng(7);
    const counts = new Map<string, number>();
    for (let n = 0; n < 3000; n++) {
      const k = plan.routes[pickRoute(plan.classes[0]!, rnd())]!.keyName;
      counts.set(k, (counts.get(k) ?? 0) + 1);
    }
    const admin = ['admin', 'admin.pool[0]', 'admin.pool[1]'].map((k) => counts.get(k)!);
    // The keys of one route differ by at most one request; the route mix stays the draw's (about 2:1).
    expect(Math.max(...admin) - Math.min(...admin)).toBeLessThanOrEqual(1);
    const ratio = admin.reduce((a, b) => a + b, 0) / counts.get('readOnly')!;
    expect(ratio).toBeGreaterThan(1.8);
    expect(ratio).toBeLessThan(2.2);
  });

  it('keys: "role" (the default) sends every request with the role\'s key', () => {
    const plan = planProfile(profile('role'), target);
    expect(plan.routes.map((r) => [r.keyName, r.weight])).toEqual([
      ['admin', 2],
      ['readOnly', 1],
    ]);
  });
});

describe('the live Remaining gauge with a pool', () => {
  it("is one gauge per key: a pool key's Remaining is its own budget, not the role's latest", async () => {
    const { LastRemaining } = await import('../../src/fold/last-remaining.js');
    const g = new LastRemaining([
      { class: 'read', keyRole: 'admin', keyName: 'admin' },
      { class: 'read', keyRole: 'admin', keyName: 'admin.pool[0]' },
    ]);
    g.add(0, 200, '7');
    g.add(1, 200, '90');
    expect(g.gauges()).toEqual([
      { class: 'read', keyRole: 'admin', value: 7 },
      { class: 'read', keyRole: 'admin.pool[0]', value: 90 },
    ]);
  });
});
