/**
 * Vitest setup file, run before each test file in its worker: every file but the shrink limiter cases runs at
 * a lower CPU priority (nice 5), and so do the spgate children and servers it starts. The shrink cases' verdicts
 * rest on when their requests land in a limiter's window, yet they cost little CPU (about 8 % of a core each):
 * beside four busy workers on two cores (five in all), attempts landed late enough that a per-replica case's 57-request
 * schedule reproduced 6 times in 8 and the shrink fell back to the original. Yielding to them costs the rest
 * of the suite next to nothing. A worker is never raised again (that needs privileges); the shrink file starts
 * first (test/support/sequencer.ts), in a worker that has run nothing yet.
 */
import { getPriority, setPriority } from 'node:os';
import { beforeAll, expect } from 'vitest';

/** The files that keep the normal priority, by path. */
export const TIMED_FILES = ['test/shrink/limiters.test.ts'];

/** The nice value of every other file's worker. */
export const YIELDING_NICE = 5;

beforeAll(() => {
  const path = expect.getState().testPath ?? '';
  if (TIMED_FILES.some((f) => path.endsWith(f))) return;
  if (getPriority() < YIELDING_NICE) setPriority(YIELDING_NICE);
});
