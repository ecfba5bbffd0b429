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

/** Longest first (seconds measured with four workers on the 2-core machine, 29 Nov 2026), by path prefix. */
export const LONG_FIRST = [
  'test/shrink/limiters-1', // 160
  'test/robustness/hostile-cli', // 78
  'test/shrink/limiters-2', // 184
  'test/shrink/cli', // 69
  'test/conformance/worlds-all-a', // 64
  'test/shrink/limiters-3', // 159
  'test/cli/init', // 55
  'test/conformance/worlds-all-b', // 54
  'test/conformance/worlds-single', // 51
  'test/shrink/limiters-4', // 158
  'test/conformance/dialects-profiles', // 45
  'test/conformance/worlds-all-c', // 40
  'test/robustness/secrets', // 40
  'test/distributed/cli', // 39
  'test/conformance/clean', // 39
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
