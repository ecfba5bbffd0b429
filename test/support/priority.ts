/**
 * Vitest setup file, run before each test file in its worker: every file but the few whose verdicts rest on
 * timing (test/support/timed-files.ts: the shrink limiter cases, the repeated load runs compare judges) runs
 * at a lower CPU priority (nice 5), and so do the spgate children and servers it starts (the typecheck and the
 * lint beside vitest run lower still: test/support/npm-test.ts). Yielding to them costs the rest of the suite
 * next to nothing. Not lower: at nice 19 (a timed process weighing 68 yielding ones, not 3) a spgate child of
 * another file stalled long enough, once in three runs (30 Nov), that its one-second smoke profile failed a
 * threshold (test/load/cli.test.ts). A worker is never raised again (that needs privileges); the timed files
 * start first (test/support/sequencer.ts), each in a worker that has run nothing yet.
 */
import { getPriority, setPriority } from 'node:os';
import { beforeAll, expect } from 'vitest';
import { TIMED_FILES } from './timed-files.js';

/** The nice value of every other file's worker. */
export const YIELDING_NICE = 5;

const path = expect.getState().testPath ?? '';
const timed = TIMED_FILES.some((f) => path.endsWith(f));
// Before the test file is imported: a worker's first file imports most of src/ (vitest transforms it), and
// six workers doing so at once at the normal priority would compete with the timed files' first runs.
if (!timed && getPriority() < YIELDING_NICE) setPriority(YIELDING_NICE);

beforeAll(() => {
  if (timed) {
    // vitest forks its workers from its main process, whose priority no file changes: a timed file below it
    // ran in a worker an earlier file had lowered, and its timing verdicts would not mean what they say.
    if (getPriority() > getPriority(process.ppid))
      throw new Error(
        `${path} runs at nice ${getPriority()}, below vitest's own ${getPriority(process.ppid)}: it must start first (test/support/sequencer.ts)`,
      );
  }
});
