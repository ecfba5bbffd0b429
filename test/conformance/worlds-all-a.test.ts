/** Issue 30's matrix, part 1 of 4: the first third of the dialects, with all four worlds at once (test/support/world-matrix.ts). */
import { ALL_WORLDS_CELLS } from '../support/world-matrix.js';
import { describeCells } from '../support/world-cells.js';

describeCells('all worlds at once, first third of the dialects', ALL_WORLDS_CELLS.slice(0, Math.ceil(ALL_WORLDS_CELLS.length / 3)));
