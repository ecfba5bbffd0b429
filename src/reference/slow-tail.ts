/**
 * The latency-slow-tail fault: a seeded few of the answers wait before they are sent, a real delay on the
 * wire, so a run against the faulty server has a p99 at least twice the clean server's on loopback. It is
 * the reference server's "slower release" for `spgate compare`, which must call it a regression every time.
 */
import { Prng } from './prng.js';

/** Share of answers held back. */
export const SLOW_TAIL_SHARE = 0.03;
/** How long a held answer waits, ms: far above a loopback p99 even on a machine shared by many processes (its event loop then stalls 50–100 ms), so the tail at least doubles it there too. */
export const SLOW_TAIL_MS = 200;

// One stream per server state, seeded by a constant: the same server holds the same answers back in order,
// and the stream is apart from the ones that make ids and data.
const streams = new WeakMap<object, Prng>();

/** How long this answer is held (0 for most), drawing from the server's own seeded stream. */
export function slowTailHold(app: object): number {
  let rng = streams.get(app);
  if (!rng) streams.set(app, (rng = new Prng(0x51_07_7a_11)));
  return rng.next() < SLOW_TAIL_SHARE ? SLOW_TAIL_MS : 0;
}
