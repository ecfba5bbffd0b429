/** Issue 30's matrix, part 1 of 3: the first half of the dialects, with all four worlds at once (test/support/world-matrix.ts). */
import { ALL_WORLDS_CELLS } from '../support/world-matrix.js';
import { describeCells } from '../support/world-cells.js';

describeCells('all worlds at once, first half of the dialects', ALL_WORLDS_CELLS.slice(0, Math.ceil(ALL_WORLDS_CELLS.length / 2)));
