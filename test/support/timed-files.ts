/**
 * The test files whose verdicts rest on timing, and which therefore keep the normal CPU priority while every
 * other file yields (test/support/priority.ts). A worker's priority is never raised again (that needs
 * privileges), so each of them must start in a worker that has run nothing yet: test/support/sequencer.ts
 * starts them first, and there are fewer of them than vitest.config.ts's maxWorkers
 * (test/structure/sequencer.test.ts).
 */
export const TIMED_FILES = [
  // Whether a shrunk schedule reproduces rests on when its requests land in a limiter's window; the eight
  // cases cost little CPU (about 8 % of a core each) but must get it when they ask. Beside four busy workers
  // on two cores (five in all), a per-replica case's 57-request schedule reproduced 6 times in 8 and the
  // shrink fell back to the original.
  'test/shrink/limiters.test.ts',
  // Ten in-process load runs whose p99s compare must call equal, and ten it must call a regression: beside
  // five workers at its own priority, one run's event loop stalled 420 ms (p99), and compare rightly declined
  // to call the slow-tail server's p99 a regression against it. It takes about 17 s.
  'test/compare/repeat-runs.test.ts',
];
