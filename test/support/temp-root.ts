/**
 * Vitest global setup: every temporary file of a test run goes under one directory, removed when the run
 * ends. Tests make their folders with mkdtemp in os.tmpdir() (targets, traces, reports, packed tarballs)
 * and most leave them: about 600 per `npm test`, thousands a day in /tmp for someone who runs the suite
 * before and after each change. TMPDIR is set here, in the main process, before vitest forks its workers,
 * so os.tmpdir() in every worker and in every child a test starts (the spgate CLI, its --workers children,
 * bash scripts) names this run's directory.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

/** Points TMPDIR at a fresh directory for the run; the returned teardown removes it and restores TMPDIR. */
export default function setup(): () => void {
  const previous = process.env.TMPDIR;
  const root = mkdtempSync(join(tmpdir(), 'spgate-tests-'));
  process.env.TMPDIR = root;
  return () => {
    if (previous === undefined) delete process.env.TMPDIR;
    else process.env.TMPDIR = previous;
    rmSync(root, { recursive: true, force: true });
  };
}
