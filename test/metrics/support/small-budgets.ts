/**
 * A reference server whose budgets run out within the first second of a full-speed run, however slow the
 * machine: the live-metrics tests compare the 429 series too, and the embedded server's defaults (read
 * 1000, write 250 per 5 s) are not reached in 3 s by a generator slowed down by other jobs (170 requests a
 * second measured on the loaded 2-core machine: no read refused).
 */
import { startReferenceServer, type RunningReferenceServer } from '../../../src/reference/index.js';
import { tempDir, writeJson } from '../../support/target-file.js';

/** Reads and writes refused after 40 and 10 requests per key in a 5 s window. */
export const SMALL_BUDGETS = { read: 40, write: 10, windowSeconds: 5 };

/** Starts the server on a loopback port and writes its target file; `close` stops it. */
export async function smallBudgetTarget(): Promise<{ path: string; server: RunningReferenceServer }> {
  const server = await startReferenceServer({ port: 0, seed: 7, budgets: SMALL_BUDGETS });
  return { path: writeJson(tempDir('spgate-metrics-target-'), 'target.json', server.target), server };
}
