/**
 * The explicit-schedule profile form: what shrink writes validates like every profile, is planned exactly
 * (no scaling, sends of left-out routes dropped and said, refused above caps.maxRps), and bad forms are one
 * line naming the field. The load engine sending it exactly is proven end to end in limiters.test.ts.
 */
import { describe, expect, it } from 'vitest';
import { SpgateError } from '../../src/errors.js';
import { parseProfile } from '../../src/load/profile.js';
import { planProfile } from '../../src/load/plan.js';
import { shardProfile } from '../../src/distributed/shard.js';
import { autoWorkers } from '../../src/distributed/auto-workers.js';
import { scheduleProfile } from '../../src/shrink/profile-out.js';
import type { Send } from '../../src/shrink/schedule.js';
import { targetFromInput } from '../../src/target/resolve.js';

const target = (extra: Record<string, unknown> = {}) =>
  targetFromInput(
    {
      name: 't',
      baseUrl: 'http://127.0.0.1:9/v1',
      keys: { admin: { key: 'pk_test_x0123456789' } },
      allowWrites: true,
      fixtures: { ids: { conversationId: 'conv_1' } },
      ...extra,
    },
    't',
  );

const sends: Send[] = [
  { t: 0, class: 'read', method: 'GET', path: '/customers', key: 'admin' },
  { t: 5.5, class: 'read', method: 'GET', path: '/me', key: 'admin' },
  { t: 9, class: 'write', method: 'POST', path: '/conversations/{conversationId}/assign', key: 'admin' },
  { t: 12, class: 'read', method: 'GET', path: '/customers', key: 'admin#2' },
  { t: 900, class: 'write', method: 'POST', path: '/widgets/{id}', key: 'admin' },
];

function errorOf(f: () => unknown): SpgateError {
  try {
    f();
  } catch (e) {
    return e as SpgateError;
  }
  throw new Error('did not throw');
}

describe('scheduleProfile', () => {
  it('writes named routes where it can, custom ones elsewhere, key roles kept (unknown ones as admin), no secrets', () => {
    const p = scheduleProfile(sends, { rule: '8.ratelimit.over-admission', class: 'read' }, 'repro-over-admission-read');
    expect(p.classes.read).toEqual({
      routes: [
        { route: 'listCustomers', key: 'admin' },
        { route: 'me', key: 'admin' },
      ],
      schedule: [
        { atMs: 0, route: 0 },
        { atMs: 5.5, route: 1 },
        { atMs: 12, route: 0 },
      ],
    });
    expect(p.classes.write!.routes).toEqual([
      { route: 'assign', key: 'admin' },
      { method: 'POST', path: '/widgets/{id}', key: 'admin', body: {} },
    ]);
    expect(p.thresholds).toEqual(['ratelimit.violations == 0']);
    expect(p.duration).toBe(2);
    expect(JSON.stringify(p)).not.toContain('pk_');
  });

  it('repeats the schedule, each copy a period after the last (a window-phase bug gets three chances)', () => {
    const p = scheduleProfile(sends.slice(0, 2), { rule: 'r' }, 'x', { times: 3, periodMs: 2500 });
    expect(p.classes.read!.schedule!.map((s) => s.atMs)).toEqual([0, 5.5, 2500, 2505.5, 5000, 5005.5]);
    expect(p.duration).toBe(7);
    expect(p.description).toContain('sent 3 times 2.5 s apart');
  });

  it('is planned exactly: every send at its offset on its route', () => {
    const plan = planProfile(parseProfile(scheduleProfile(sends, { rule: 'r' }), 'x'), target());
    const read = plan.classes.find((c) => c.class === 'read')!;
    expect(read.schedule!.map((s) => [s.atMs, plan.routes[s.idx]!.template])).toEqual([
      [0, '/customers'],
      [5.5, '/me'],
      [12, '/customers'],
    ]);
    expect(plan.model).toBe('open');
  });

  it('drops the sends of a route the target cannot fill, and says so', () => {
    const p = parseProfile(
      {
        name: 'x',
        description: 'd',
        model: 'open',
        duration: 1,
        classes: {
          read: {
            routes: [{ route: 'me' }, { route: 'getTurn' }],
            schedule: [
              { atMs: 0, route: 0 },
              { atMs: 1, route: 1 },
            ],
          },
        },
      },
      'x',
    );
    const plan = planProfile(p, target());
    expect(plan.classes[0]!.schedule).toEqual([{ atMs: 0, idx: 0 }]);
    expect(plan.config.notes).toContain('read: 1 scheduled send(s) of left-out routes dropped');
  });

  it('refuses a schedule above caps.maxRps instead of scaling it', () => {
    const p = parseProfile(
      {
        name: 'x',
        description: 'd',
        model: 'open',
        duration: 1,
        classes: { read: { routes: [{ route: 'me' }], schedule: [0, 1, 2].map((atMs) => ({ atMs, route: 0 })) } },
      },
      'x',
    );
    const e = errorOf(() => planProfile(p, target({ caps: { maxRps: 2 } })));
    expect([e.code, e.message]).toEqual([
      'SPGATE_ERR_PROFILE_INVALID',
      "the read schedule peaks at 3 requests/s, above the target's caps.maxRps 2 (a slowed-down schedule would not reproduce)",
    ]);
  });

  it('deals the sends out over shards (together they send it once) and runs in one worker', () => {
    const p = parseProfile(scheduleProfile(sends, { rule: 'r' }), 'x');
    const parts = [0, 1].map((index) => shardProfile(p, { index, count: 2 }).profile.classes.read!.schedule!.length);
    expect(parts).toEqual([2, 1]);
    expect(autoWorkers({ cores: 8, place: 'remote', profile: p, caps: { maxRps: 100 } }).count).toBe(1);
  });

  it.each([
    [
      { read: { routes: [{ route: 'me' }], schedule: [{ atMs: 0, route: 1 }] } },
      'classes.read.schedule[0].route: no route 1 (the class has 1)',
    ],
    [
      { read: { routes: [{ route: 'me' }], schedule: [{ atMs: 1000, route: 0 }] } },
      'classes.read.schedule[0].atMs: 1000 ms is not within the duration (1 s)',
    ],
    [
      { read: { routes: [{ route: 'me' }], rate: 5, schedule: [{ atMs: 0, route: 0 }] } },
      'classes.read: the open model needs exactly one of rate, ramp or schedule',
    ],
    [{ read: { routes: [{ route: 'me' }], schedule: [] } }, 'classes.read.schedule'],
  ])('rejects a bad schedule with one line naming the field (%#)', (classes, message) => {
    const e = errorOf(() => parseProfile({ name: 'x', description: 'd', model: 'open', duration: 1, classes }, 'f.json'));
    expect(e.code).toBe('SPGATE_ERR_PROFILE_INVALID');
    expect(e.message.startsWith(`f.json: ${message}`)).toBe(true);
  });

  it('rejects a schedule in the closed model', () => {
    const e = errorOf(() =>
      parseProfile(
        {
          name: 'x',
          description: 'd',
          model: 'closed',
          duration: 1,
          classes: { read: { connections: 1, routes: [{ route: 'me' }], schedule: [{ atMs: 0, route: 0 }] } },
        },
        'f.json',
      ),
    );
    expect(e.message).toBe('f.json: classes.read: rate, ramp, bursts and schedule belong to the open model');
  });
});
