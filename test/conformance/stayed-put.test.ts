/**
 * The busy-list judgement (src/conformance/stayed-put.ts): only items listed before and after a walk are
 * owed to it, only within what it covered; a created or deleted item is never a miss; a skipped one is.
 */
import { describe, expect, it } from 'vitest';
import { missedWithin, orderChange, stayedPut } from '../../src/conformance/stayed-put.js';

describe('stayed-put judgement', () => {
  const before = ['a', 'b', 'c', 'd', 'e', 'f'];

  it('an item deleted during the walk (absent after) or created during it (absent before) is not missed', () => {
    const after = ['a', 'c', 'd', 'e', 'f', 'g']; // b deleted, g created
    const walk = ['a', 'c', 'd', 'g'];
    expect(missedWithin(before, walk, stayedPut(before, after))).toEqual([]);
  });

  it('an item listed before and after, inside the walked prefix, that the walk skipped is missed', () => {
    const after = ['a', 'b', 'c', 'd', 'e', 'f'];
    expect(missedWithin(before, ['a', 'b', 'd', 'e'], stayedPut(before, after))).toEqual(['c']);
  });

  it('a walk cut at its bound owes nothing past its last item, unless it reached the end', () => {
    const stayed = stayedPut(before, before);
    expect(missedWithin(before, ['a', 'b'], stayed)).toEqual([]);
    expect(missedWithin(before, [], stayed, new Set(), true)).toEqual(before);
    expect(missedWithin(before, ['a', 'b'], stayed, new Set(['c']), true)).toEqual(['d', 'e', 'f']);
  });

  it('order is compared on the items both walks list and the caller calls unchanged', () => {
    expect(orderChange(['a', 'b', 'c'], ['a', 'x', 'b', 'c'], () => true)).toBeUndefined();
    expect(orderChange(['a', 'b', 'c'], ['b', 'a', 'c'], () => true)).toEqual({ first: 'a', second: 'b' });
    expect(orderChange(['a', 'b', 'c'], ['b', 'a', 'c'], (id) => id !== 'a')).toBeUndefined();
  });
});
