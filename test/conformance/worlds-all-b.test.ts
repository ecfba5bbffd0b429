/** Issue 30's matrix, part 2 of 3: the second half of the dialects, with all four worlds at once (test/support/world-matrix.ts). */
import { ALL_WORLDS_CELLS } from '../support/world-matrix.js';
import { describeCells } from '../support/world-cells.js';

describeCells('all worlds at once, second half of the dialects', ALL_WORLDS_CELLS.slice(Math.ceil(ALL_WORLDS_CELLS.length / 2)));
