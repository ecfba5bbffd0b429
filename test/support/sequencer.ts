/**
 * The order vitest starts test files in: the ones measured to take longest first, so that no worker is
 * left running one alone at the end. vitest's own order puts the files it has timed before longest first,
 * but on a fresh clone (CI) it has timed none and starts the largest files first: the shrink cases, in
 * four small files that each wait about 160 s on limiter windows, ran last and alone. The four are spread
 * among the longest busy files, so that they wait beside work rather than beside each other. Every other
 * file keeps vitest's order.
 */
import { relative } from 'node:path';
import { BaseSequencer, type TestSpecification } from 'vitest/node';

/** Longest first (seconds measured by `.ci/run` with four workers on the 2-core machine, 30 Nov 2026), by path prefix. */
export const LONG_FIRST = [
  'test/shrink/limiters-2', // 235
  'test/robustness/hostile-cli', // 63
  'test/shrink/limiters-1', // 186
  'test/metrics/failure', // 71
  'test/shrink/limiters-3', // 181
  'test/build/pack', // 65
  'test/shrink/limiters-4', // 171
  'test/shrink/cli', // 77
  'test/trace/har', // 56
  'test/tls/load-tls', // 51
  'test/conformance/worlds-all-b', // 40
  'test/conformance/clean', // 38
  'test/conformance/dialects-a', // 37
  'test/conformance/worlds-all-a', // 37
  'test/conformance/remaining-foreign-traffic', // 36
  'test/conformance/dialects-b', // 36
  'test/limiters/profiles', // 36
  'test/cli/init', // 36
  'test/conformance/worlds-single', // 33
  'test/robustness/abort', // 32
  'test/action/action', // 31
  'test/robustness/secrets', // 31
  'test/load/capacity-station', // 31
  'test/load/faults', // 30
  'test/ratelimit/foreign-traffic', // 29
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
