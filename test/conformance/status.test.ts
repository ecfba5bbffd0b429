import { describe, expect, it } from 'vitest';
import suite from '../../suites/status.js';
import { startReferenceServer } from '../../src/reference/index.js';
import { listedKeys, keysOfType } from '../../suites/model/status-list.js';
import { proveSuite, runSuite } from './stateful-harness.js';

proveSuite(suite, [
  'resolve-active-accepted', 'resolve-default-closed', 'assign-reopens', 'assign-empty-team-kept', 'resolve-custom-completed-default', 'assign-empty-accepted',
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
    expect(listedKeys({ data: [{ key: 'open', type: 'active' }, { key: 'done', type: 'completed' }] })).toEqual([
      { key: 'open', type: 'active' }, { key: 'done', type: 'completed' },
    ]);
    expect(listedKeys(['low', 'high'])).toEqual([{ key: 'low' }, { key: 'high' }]);
    expect(listedKeys({ data: [{ label: 'x' }] })).toBeUndefined();
    expect(listedKeys({ items: [] })).toBeUndefined();
  });

  it('merges assumed keys with listed keys of the same type', () => {
    const listed = [{ key: 'escalated', type: 'active' }, { key: 'archived', type: 'completed' }, { key: 'open', type: 'active' }];
    expect(keysOfType(['open', 'pending'], listed, 'active')).toEqual(['open', 'pending', 'escalated']);
    expect(keysOfType(['resolved'], listed, 'completed')).toEqual(['resolved', 'archived']);
  });
});
