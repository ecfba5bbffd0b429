/** Issue 30's matrix, part 4 of 4: each world alone on the default dialect (test/support/world-matrix.ts). */
import { SINGLE_WORLD_CELLS } from '../support/world-matrix.js';
import { describeCells } from '../support/world-cells.js';

describeCells('each world alone, default dialect', SINGLE_WORLD_CELLS);
