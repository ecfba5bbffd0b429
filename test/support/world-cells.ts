/**
 * The vitest side of the world × dialect matrix: one test per cell, each a whole conformance run against a
 * fresh server through its ids-only target file. Zero findings, no errors, and inconclusive only where the
 * cell's worlds hide what the check needs (WORLD_HIDES).
 */
import { describe, expect, it } from 'vitest';
import { unexplainedInconclusive, type MatrixCell } from './world-matrix.js';
import { worldVerdict } from './world-server.js';

/** A whole run per cell; generous because the machine may be shared (this is a bound, not a timed assertion). */
const CELL_TIMEOUT_MS = 600_000;

/** Declares one test per cell. */
export function describeCells(title: string, cells: readonly MatrixCell[]): void {
  describe(title, () => {
    for (const cell of cells) {
      it(
        `${cell.worlds.join(',')} × ${cell.dialect}: zero findings, inconclusive only where the world hides the data`,
        async () => {
          const v = await worldVerdict({ dialect: cell.dialect, worlds: cell.worlds });
          expect(v.findings).toEqual([]);
          expect(v.errors).toEqual([]);
          expect(unexplainedInconclusive(v, cell.worlds)).toEqual([]);
          expect(v.ran).toBeGreaterThanOrEqual(Math.ceil(v.total * 0.9));
        },
        CELL_TIMEOUT_MS,
      );
    }
  });
}
