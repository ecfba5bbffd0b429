import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['test/**/*.test.ts'],
    testTimeout: 60_000,
    hookTimeout: 60_000,
    pool: 'forks',
    // Most files wait on rate-limit windows and sockets, not the CPU: two workers on a 2-core machine
    // halve the wall time (vitest's default there is one).
    maxWorkers: 2,
    // No retry: a test that fails on timing judges what the clock decides, not what the code guarantees;
    // such a test is fixed, never retried.
    retry: 0,
    // Every spgate child a test starts runs this run's compiled sources, not the sources through tsx again.
    globalSetup: ['./test/support/compiled-cli.ts'],
    reporters: ['default', './test/support/summary-reporter.ts'],
  },
});
