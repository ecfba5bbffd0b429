/**
 * The order vitest starts test files in: the ones measured to take longest first, so that no worker is
 * left running one alone at the end. vitest's own order puts the files it has timed before longest first,
 * but on a fresh clone (CI) it has timed none and starts the largest files first. The shrink limiter cases
 * come first of all: they run side by side in one file for about four minutes, waiting on limiter windows
 * in one worker while the others work through the rest. Every other file keeps vitest's order.
 */
import { relative } from 'node:path';
import { BaseSequencer, type TestSpecification } from 'vitest/node';

/** Longest first (seconds measured in a whole `npm test` on the 2-core machine, 30 Nov 2026), by path prefix. */
export const LONG_FIRST = [
  'test/shrink/limiters', // 240
  'test/shrink/cli', // 56
  'test/robustness/hostile-cli', // 43
  'test/conformance/worlds-all-b', // 41
  'test/trace/har', // 39
  'test/conformance/remaining-foreign-traffic', // 38
  'test/conformance/clean', // 36
  'test/limiters/profiles', // 36
  'test/conformance/worlds-all-a', // 34
  'test/conformance/dialects-b', // 34
  'test/conformance/worlds-single', // 32
  'test/metrics/failure', // 31
  'test/load/capacity-station', // 29
  'test/robustness/secrets', // 29
  'test/load/faults', // 29
  'test/conformance/dialects-profiles', // 28
  'test/conformance/dialects-a', // 28
  'test/tls/load-tls', // 27
  'test/cli/init', // 27
  'test/conformance/keepalive-closing', // 27
  'test/load/online-run', // 27
  'test/ratelimit/foreign-traffic', // 26
  'test/conformance/worlds-all-c', // 24
  'test/build/pack', // 23
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
