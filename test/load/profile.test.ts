import { describe, expect, it } from 'vitest';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { builtinProfileNames, loadProfile, parseProfile } from '../../src/load/profile.js';
import { SpgateError } from '../../src/errors.js';

const base = {
  name: 'p',
  description: 'd',
  model: 'open',
  duration: 1,
  classes: { read: { rate: 5, routes: [{ route: 'me' }] } },
};

function errorOf(f: () => unknown): SpgateError {
  try {
    f();
  } catch (err) {
    if (err instanceof SpgateError) return err;
    throw err;
  }
  throw new Error('did not throw');
}

describe('profiles', () => {
  it('ships every documented built-in, each valid', () => {
    expect(builtinProfileNames()).toEqual(['burst', 'capacity', 'class-isolation', 'read-budget', 'smoke', 'soak', 'write-budget']);
    for (const n of builtinProfileNames()) expect(loadProfile(n).name).toBe(n);
  });

  it('names the unknown profile and lists the built-ins', () => {
    const e = errorOf(() => loadProfile('nope'));
    expect(e.code).toBe('SPGATE_ERR_PROFILE_UNKNOWN');
    expect(e.message).toContain('smoke');
    expect(e.message).toContain('write-budget');
  });

  it.each([
    [{ ...base, model: 'closed' }, 'classes.read.connections'],
    [
      { ...base, classes: { read: { routes: [{ route: 'me' }] } } },
      'classes.read: the open model needs exactly one of rate, ramp or schedule',
    ],
    [{ ...base, classes: { read: { rate: 5, routes: [{ route: 'nope' }] } } }, 'classes.read.routes[0]'],
    [
      { ...base, classes: { read: { rate: 5, routes: [{ method: 'POST', path: '/x' }] } } },
      'classes.read.routes[0].method: POST belongs to the write class',
    ],
    [{ ...base, thresholds: ['p95 < 1ms', 'p95 fast'] }, 'thresholds[1]'],
    [{ ...base, duration: -1 }, 'duration'],
    [{ ...base, classes: {} }, 'classes: needs a read or a write mix'],
    [{ ...base, extra: 1 }, '(root)'],
  ])('rejects invalid profiles with one line naming the field (%#)', (data, field) => {
    const e = errorOf(() => parseProfile(data, 'f.json'));
    expect(e.code).toBe('SPGATE_ERR_PROFILE_INVALID');
    expect(e.message.startsWith(`f.json: ${field}`)).toBe(true);
    expect(e.message).not.toContain('\n');
  });

  it('loads a profile file by path and reports JSON errors with the file name', () => {
    const dir = mkdtempSync(join(tmpdir(), 'spgate-prof-'));
    const good = join(dir, 'good.json');
    writeFileSync(good, JSON.stringify(base));
    expect(loadProfile(good).classes.read?.routes[0]).toEqual({ route: 'me', weight: 1, key: 'admin' });
    const bad = join(dir, 'bad.json');
    writeFileSync(bad, '{ nope');
    const e = errorOf(() => loadProfile(bad));
    expect(e.code).toBe('SPGATE_ERR_PROFILE_INVALID');
    expect(e.message).toContain(bad);
  });
});
