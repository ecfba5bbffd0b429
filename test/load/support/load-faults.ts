/**
 * The load side's fault runs (test/load/faults.test.ts, bench/matrix/faults-under-load.ts): every fault the
 * load side must catch, each against its own reference server under the class-isolation profile.
 */
import { FAULTS, FAULT_NAMES, startReferenceServer, type FaultName } from '../../../src/reference/index.js';
import { targetFromInput } from '../../../src/target/resolve.js';
import { loadProfile } from '../../../src/load/profile.js';
import { runProfile } from '../../../src/load/run.js';

/** Every fault the load side must catch: the rate-limit ones plus the per-response header ones. */
export const LOAD_FAULTS: FaultName[] = FAULT_NAMES.filter(
  (f) => FAULTS[f].by !== 'conformance' && (f.startsWith('ratelimit-') || f.startsWith('request-id')),
);

// Faults judged over whole windows need windows long enough to see a refill on both sides, and a
// Retry-After that can be seconds shorter than the wait: 3 s windows for those, 1 s for the rest.
const LONG_WINDOW = new Set<string>(['ratelimit-over-admit', 'ratelimit-retry-after-short']);
/** Faults whose clause is judged over whole windows (admissions per window, restores, waits). */
export const WINDOW_JUDGED: ReadonlySet<string> = new Set<string>([
  ...LONG_WINDOW,
  'ratelimit-early-429',
  'ratelimit-no-restore',
  'ratelimit-shared-classes',
]);

/** class-isolation against a reference server with `faults` on: it exhausts writes and reads under budget, so both classes, 429s and restores show. */
export async function runLoadWith(faults: FaultName[]): ReturnType<typeof runProfile> {
  const long = faults.some((f) => LONG_WINDOW.has(f));
  const budgets = long ? { read: 90, write: 45, windowSeconds: 3 } : { read: 40, write: 20, windowSeconds: 1 };
  const ref = await startReferenceServer({ port: 0, seed: 11, budgets, faults });
  try {
    const target = targetFromInput(ref.target, 'embedded');
    return await runProfile({ target, profile: loadProfile('class-isolation'), durationOverride: long ? 6.5 : 2.6 });
  } finally {
    await ref.close();
  }
}
