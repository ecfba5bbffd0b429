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
    // A few end-to-end tests depend on rate-limit windows and socket timing; on a loaded CI machine one
    // retry keeps a rare timing flake from blocking a landing, while a real failure still fails twice.
    retry: process.env.CI ? 1 : 0,
    reporters: ['default', './test/support/summary-reporter.ts'],
  },
});
