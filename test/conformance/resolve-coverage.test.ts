/**
 * The pure half of status.resolve.any-state (suites/model/resolve-coverage.ts): the completed-key walk
 * makes every completed key a starting state of both forms, bounded in length, and the coverage note
 * says plainly when a run did not meet both kinds of starting state.
 */
import { describe, expect, it } from 'vitest';
import { completedWalk, expectedStatus, formOf, ResolveCoverage, typeOfStatus } from '../../suites/model/resolve-coverage.js';

/** Replays a walk from `start`: the (start, form) pairs it exercises, assuming every step succeeds. */
function starts(start: string, keys: string[], def: string): Array<[string, string]> {
  let at = start;
  return completedWalk(keys, def).map((s) => {
    const pair: [string, string] = [at, formOf(s.body)];
    at = expectedStatus(s.body, def);
    return pair;
  });
}

describe('completedWalk', () => {
  it('starts from every completed key with and without status, within 3·n steps', () => {
    const keys = ['resolved', 'closed', 'spam'];
    const walk = completedWalk(keys, 'resolved');
    expect(walk.length).toBeLessThanOrEqual(3 * keys.length);
    const seen = new Set(starts('resolved', keys, 'resolved').map(([s, f]) => `${s}/${f}`));
    for (const k of keys) {
      expect(seen.has(`${k}/key`), `${k} with a key`).toBe(true);
      expect(seen.has(`${k}/default`), `${k} without status`).toBe(true);
    }
  });

  it('expects the default completed status without status and the key itself with one', () => {
    for (const s of completedWalk(['done', 'archived'], 'done')) expect(s.expected).toBe(s.body.status ?? 'done');
  });

  it('handles a single completed key and none', () => {
    expect(completedWalk(['resolved'], 'resolved').map((s) => s.body)).toEqual([{ status: 'resolved' }, { status: 'resolved' }, {}]);
    expect(completedWalk([], 'resolved')).toEqual([]);
  });
});

describe('ResolveCoverage', () => {
  it('types starting statuses from the key lists, unknown ones included', () => {
    expect(typeOfStatus('open', ['open'], ['resolved'])).toBe('active');
    expect(typeOfStatus('resolved', ['open'], ['resolved'])).toBe('completed');
    expect(typeOfStatus('escalated', ['open'], ['resolved'])).toBe('unknown');
  });

  it('reports the states covered, and says when no active-type start was met', () => {
    const c = new ResolveCoverage();
    c.add('resolved', 'completed', 'default', true);
    c.add('resolved', 'completed', 'key', true);
    expect(c.note(false)).toMatch(
      /^starting states covered: resolved \(completed: without status, with a key\)\. NOT every state: no active-type/,
    );
    expect(c.note(true)).toMatch(/pools\.conversations ran out/);
    expect(c.missing()).toEqual(['active']);
    c.add('pending', 'active', 'default', true);
    expect(c.missing()).toEqual([]);
    expect(c.note(false)).toBe(
      'starting states covered: resolved (completed: without status, with a key); pending (active: without status)',
    );
  });
});
