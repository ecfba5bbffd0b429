/**
 * The drifting world: pool items move on by themselves, as they do on a staging between the seed and a run
 * (or between two runs). After the delay a third of the pending turns complete (the assistant answered), a
 * quarter of the collections are edited (their revision moves) and a fifth of the pool conversations are
 * resolved by an agent. Which items move is drawn from the seed; the target file still lists them as seeded.
 */
import type { Pools } from '../pools.js';
import type { Prng } from '../prng.js';
import { DEFAULT_COMPLETED_STATUS, type Store } from '../store.js';

/** Moves the pool items on after `afterMs` (at once for 0); returns the function that cancels a pending move. */
export function startDrift(store: Store, pools: Pools, rng: Prng, afterMs: number, clock: () => number): () => void {
  const move = (): void => drift(store, pools, rng, clock);
  if (afterMs <= 0) {
    move();
    return () => {};
  }
  const timer = setTimeout(move, afterMs);
  // a world must never keep a process alive
  timer.unref();
  return () => clearTimeout(timer);
}

/** The moves themselves; the items are picked before anything changes, so the picks depend on the seed only. */
function drift(store: Store, pools: Pools, rng: Prng, clock: () => number): void {
  const turns = pick(rng, pools.pendingTurns ?? [], 3);
  const collections = pick(rng, pools.collections ?? [], 4);
  const conversations = pick(rng, pools.conversations ?? [], 5);
  for (const t of turns) {
    const turn = store.turns.get(t.turnId);
    if (turn?.status === 'pending') store.completeTurn(turn);
  }
  for (const ref of collections) {
    const c = store.collections.get(typeof ref === 'string' ? ref : ref.id);
    if (!c) continue;
    c.description = `${c.description} (edited by a colleague)`;
    c.revision++;
    c.updatedAt = clock();
  }
  for (const id of conversations) {
    const conv = store.conversations.get(id);
    if (!conv) continue;
    conv.status = DEFAULT_COMPLETED_STATUS;
    conv.updatedAt = clock();
  }
  store.touch();
}

/** One in `share` of the items (at least one of a non-empty list), in an order drawn from `rng`. */
function pick<T>(rng: Prng, items: readonly T[], share: number): T[] {
  const order = items.map((item) => ({ item, key: rng.next() })).sort((a, b) => a.key - b.key);
  return order.slice(0, Math.ceil(items.length / share)).map((x) => x.item);
}
