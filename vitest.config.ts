import { defineConfig } from 'vitest/config';
import LongFirstSequencer from './test/support/sequencer.js';

export default defineConfig({
  test: {
    include: ['test/**/*.test.ts'],
    testTimeout: 60_000,
    hookTimeout: 60_000,
    pool: 'forks',
    // Most files wait on rate-limit windows, sockets and child processes, not the CPU: on the 2-core machine
    // (30 Nov, /proc/stat every 5 s) four workers left a third of the CPU idle through the first 270 s, five
    // a quarter through the first 215 s; six keep it busy from about 140 s to the end (vitest's default there
    // is one, and with two the run took 1,070 s). One worker holds the eight shrink limiter cases, started a
    // second apart, for three to four minutes, mostly waiting (test/shrink/limiters.test.ts); the others work
    // through the rest at a lower priority but for the files whose verdicts rest on timing
    // (test/support/priority.ts, timed-files.ts). Four took 423 s, five 385-403, six 346-389. Five were tried
    // before with the shrink cases five at a time for 330 s, into the CPU-bound end of the run: in two
    // .ci/runs of nine a final measurement there saw a kept schedule reproduce less often than the search had
    // and the shrink fell back to its original; all at once, they are done before that end.
    maxWorkers: 6,
    // Each worker imports src/ once for all the files it runs, not once per file (imports took 160 s of
    // the run, 56 s so). Sound because no test replaces a module or a global for the files after it:
    // test/structure/test-isolation.test.ts keeps it so.
    isolate: false,
    // The longest files start first, on a fresh clone too (test/support/sequencer.ts).
    sequence: { sequencer: LongFirstSequencer },
    // No retry: a test that fails on timing judges what the clock decides, not what the code guarantees;
    // such a test is fixed, never retried.
    retry: 0,
    // Every spgate child a test starts runs this run's compiled sources, not the sources through tsx again;
    // every temporary folder of the run is made under one directory, removed at its end.
    setupFiles: ['./test/support/priority.ts'],
    globalSetup: ['./test/support/temp-root.ts', './test/support/compiled-cli.ts'],
    reporters: ['default', './test/support/summary-reporter.ts'],
  },
});
