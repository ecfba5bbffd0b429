/** `spgate compare` — placeholder until its issue lands. */
import type { SpgateCommand } from '../command.js';
import { SpgateError } from '../../errors.js';

export const compareCommand: SpgateCommand = {
  command: 'compare',
  describe: '(not built yet)',
  builder: (y) => y,
  run: async () => {
    throw new SpgateError('SPGATE_ERR_USAGE', '`spgate compare` is not built yet');
  },
};
