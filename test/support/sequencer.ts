/**
 * The order vitest starts test files in: the timed files first (test/support/timed-files.ts), each in a
 * worker that has run nothing yet and so still has the normal priority; then the ones measured to take
 * longest, so that no worker is left running one alone at the end. vitest's own order puts the files it has
 * timed before longest first, but on a fresh clone (CI) it has timed none and starts the largest files
 * first. The shrink limiter cases run side by side in one file for about three minutes, waiting on limiter
 * windows in one worker while the others work through the rest. Every other file keeps vitest's order.
 */
import { relative } from 'node:path';
import { BaseSequencer, type TestSpecification } from 'vitest/node';
import { TIMED_FILES } from './timed-files.js';

/** Longest first (seconds measured in a whole `npm test` on the 2-core machine, 30 Nov 2026), by path prefix. */
export const LONG_FIRST = [
  ...TIMED_FILES.map((f) => f.replace(/\.test\.ts$/, '')), // shrink/limiters 185-250 (all eight together), compare/repeat-runs 17
  'test/shrink/cli', // 60
  'test/conformance/dialects-a', // 42
  'test/trace/har', // 39
  'test/conformance/worlds-all-b', // 39
  'test/robustness/hostile-cli', // 38
  'test/conformance/worlds-all-a', // 37
  'test/conformance/remaining-foreign-traffic', // 37
  'test/limiters/profiles', // 34
  'test/conformance/dialects-b', // 34
  'test/conformance/clean', // 33
  'test/robustness/secrets', // 29
  'test/load/faults', // 29
  'test/tls/load-tls', // 28
  'test/load/capacity-station', // 28
  'test/conformance/dialects-profiles', // 28
  'test/metrics/failure', // 27
  'test/load/online-run', // 27
  'test/conformance/worlds-all-c', // 24
  'test/cli/init', // 24
  'test/conformance/worlds-single', // 23
  'test/conformance/keepalive-closing', // 23
  'test/conformance/ratelimit-reset-seconds', // 22
  'test/ratelimit/foreign-traffic', // 21
  'test/load/framing-engines', // 20
];

export default class LongFirstSequencer extends BaseSequencer {
  override async sort(files: TestSpecification[]): Promise<TestSpecification[]> {
    const root = this.ctx.config.root;
    const rank = (f: TestSpecification): number => {
      const path = relative(root, f.moduleId).split('\\').join('/');
      const i = LONG_FIRST.findIndex((p) => path.startsWith(p));
      return i < 0 ? LONG_FIRST.length : i;
    };
    // Array.prototype.sort is stable: files of one rank keep vitest's order.
    return (await super.sort(files)).sort((a, b) => rank(a) - rank(b));
  }
}
