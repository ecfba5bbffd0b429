/** Issue 30's matrix, part 3 of 4: the last third of the dialects, with all four worlds at once (test/support/world-matrix.ts). */
import { ALL_WORLDS_CELLS } from '../support/world-matrix.js';
import { describeCells } from '../support/world-cells.js';

describeCells('all worlds at once, last third of the dialects', ALL_WORLDS_CELLS.slice(2 * Math.ceil(ALL_WORLDS_CELLS.length / 3)));
