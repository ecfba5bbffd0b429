/** Issue 30's matrix, part 2 of 4: the second third of the dialects, with all four worlds at once (test/support/world-matrix.ts). */
import { ALL_WORLDS_CELLS } from '../support/world-matrix.js';
import { describeCells } from '../support/world-cells.js';

const third = Math.ceil(ALL_WORLDS_CELLS.length / 3);
describeCells('all worlds at once, second third of the dialects', ALL_WORLDS_CELLS.slice(third, 2 * third));
